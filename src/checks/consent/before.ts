import { sentAtMs, type JudgedPage } from "../../artifacts/delivery.js";
import type { ConsentArtifacts, RequestSeen } from "../../artifacts/types.js";
import type { Judgement } from "../../findings/finding.js";
import { shareableUrl } from "../../privacy/redact.js";
import { storageNameMatcher } from "../../audit-spec/storage-names.js";
import {
  auditedEnvironment,
  defineCheck,
  describeCall,
  finding,
  notJudgedReason,
  type CheckContext,
  type Verdict,
  LOADED_PAGE,
} from "../check.js";
import { consentPages, pathOf } from "./pages.js";
import { listed, requestLine, sdkStorage } from "./leaks.js";

/** consent.before: nothing is sent or stored before consent. */
export const consentBefore = defineCheck({
  id: "consent.before",
  scope: "page",
  title: "Nothing is sent or stored before consent",
  failureTitle: "The page tracks before consent",
  family: "Personal data",
  severity: "critical",
  requires: [...LOADED_PAGE, "calls", "collect"],
  failsWhen:
    "with `consent`: before consent was given, a collect request left, a request reached a known " +
    "third-party tracker (named, with its category: see [Consent](consent.md#known-trackers)), the SDK's " +
    "cookies or storage (`sdk.storage`) were written or present, or a call made before consent was " +
    "delivered before it (**fail**); a call made before consent, held until it and then delivered (**warn**, named)",
  why:
    "Where the law asks for consent first (the EU's ePrivacy rules, GDPR), a request or a cookie before " +
    "the answer is tracking without consent, whoever receives it: the SDK's service, an advertising pixel " +
    "or another analytics tag. It also skews the numbers: the visitors who would refuse are counted " +
    "anyway, on some pages and not others.",
  evaluate(context): Judgement[] {
    const matches = storageNameMatcher(context.spec.sdk.storage);
    return consentPages(context).map((page) => {
      const scope = { page: page.page, viewport: page.viewport };
      const notJudged = notJudgedReason(page, auditedEnvironment(context).auth);
      if (notJudged !== null) return finding(context, "skip", notJudged, scope);
      const verdict = beforeVerdict(context, page, matches);
      return finding(context, verdict.status, verdict.message, scope, verdict.evidence);
    });
  },
});

/** A known tracker the page reached before consent: its first request, and how many it sent. */
interface TrackerReached {
  tracker: string;
  category: string;
  requests: number;
  first: RequestSeen;
}

/** The known trackers the unit's requests reached before `answeredAt`, in order of their first request; a collect request is judged as one, not again as a tracker's. */
function trackersReached(
  consent: ConsentArtifacts,
  answeredAt: number,
  collectUrls: ReadonlySet<string>,
): TrackerReached[] {
  const reached = new Map<string, TrackerReached>();
  for (const request of consent.requestsBefore) {
    if (request.tracker === undefined || request.atMs >= answeredAt || collectUrls.has(request.url)) continue;
    const known = reached.get(request.tracker.name);
    if (known) known.requests++;
    else
      reached.set(request.tracker.name, {
        tracker: request.tracker.name,
        category: request.tracker.category,
        requests: 1,
        first: request,
      });
  }
  return [...reached.values()];
}

/** `Facebook (social): GET https://www.facebook.com/tr at 812 ms`, with the count when it sent more. */
function trackerLine(reached: TrackerReached): string {
  const first = `${reached.first.method} ${shareableUrl(reached.first.url)} at ${reached.first.atMs} ms`;
  return `${reached.tracker} (${reached.category}): ${reached.requests === 1 ? first : `${reached.requests} requests, the first ${first}`}`;
}

function beforeVerdict(context: CheckContext, page: JudgedPage, matches: (name: string) => boolean): Verdict {
  const consent = page.consent!;
  const answeredAt = consent.answeredAtMs!;
  const where = `${pathOf(context, page)} (${page.viewport})`;
  const requests = page.collect.flatMap((request, index) => (request.atMs < answeredAt ? [index] : []));
  const stored = sdkStorage(consent, consent.storedAtAnswer, matches, (atMs) => atMs < answeredAt, true);
  const before = page.calls.filter((call) => call.state !== "lost" && call.atMs < answeredAt);
  const deliveredBefore = before.filter((call) => (sentAtMs(page, call) ?? Infinity) < answeredAt);
  const held = before.filter((call) => {
    const at = sentAtMs(page, call);
    return at !== null && at >= answeredAt;
  });
  const trackers = trackersReached(consent, answeredAt, new Set(page.collect.map((request) => request.url)));
  const evidence = {
    answeredAtMs: answeredAt,
    collectBefore: requests.map((index) => ({
      url: shareableUrl(page.collect[index]!.url),
      atMs: page.collect[index]!.atMs,
    })),
    trackersBefore: trackers.map((reached) => ({
      tracker: reached.tracker,
      category: reached.category,
      requests: reached.requests,
      first: { url: shareableUrl(reached.first.url), atMs: reached.first.atMs },
    })),
    requestsLeftOut: consent.requestsLeftOut,
    storageBefore: stored,
    callsBefore: before.map((call) => ({
      call: describeCall(call),
      atMs: call.atMs,
      deliveredAtMs: sentAtMs(page, call),
    })),
  };
  const problems: string[] = [];
  if (requests.length > 0)
    problems.push(
      `sent ${requests.length} collect request(s) (${listed(requests.map((index) => requestLine(page, index)))})`,
    );
  if (stored.length > 0) problems.push(`stored the SDK's ${listed(stored)}`);
  if (deliveredBefore.length > 0)
    problems.push(
      `made and delivered ${listed(deliveredBefore.map((call) => `${describeCall(call)} at ${call.atMs} ms`))}`,
    );
  const fixes =
    problems.length > 0
      ? [
          "Load the SDK only once the visitor consents (gate its tag with the consent manager) and keep its storage off until then.",
        ]
      : [];
  if (trackers.length > 0) {
    const count = trackers.reduce((sum, reached) => sum + reached.requests, 0);
    problems.push(
      `sent ${count} request(s) to ${trackers.length} known tracker(s) (${listed(trackers.map(trackerLine))})`,
    );
    fixes.push(
      `Load ${trackers.length === 1 ? "this tracker's tag" : "these trackers' tags"} only once the visitor consents, through the consent manager.`,
    );
  }
  if (problems.length > 0) {
    return {
      status: "fail",
      message: `Before consent was given (at ${answeredAt} ms), ${where} ${problems.join("; ")}. ${fixes.join(" ")}`,
      evidence,
    };
  }
  if (held.length > 0) {
    return {
      status: "warn",
      message: `Before consent was given (at ${answeredAt} ms), ${where} made ${listed(held.map((call) => `${describeCall(call)} at ${call.atMs} ms`))}, held and delivered only after consent: nothing left early, but the visitor's actions before the answer were still tracked; drop calls made before consent if the visitor is to be asked first.`,
      evidence,
    };
  }
  const storageNote =
    context.spec.sdk.storage.length === 0 ? " (sdk.storage names nothing: the SDK's storage was not looked for)" : "";
  return {
    status: "pass",
    message: `Nothing was sent or stored before consent was given on ${where}: no collect request, no request to a known tracker, none of the SDK's storage${storageNote} and no call in the ${answeredAt} ms before the answer.`,
    evidence,
  };
}
