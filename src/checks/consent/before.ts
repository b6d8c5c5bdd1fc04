import type { JudgedCall, JudgedPage } from "../../artifacts/delivery.js";
import type { ConsentArtifacts, RequestSeen, StorageWrite, StoredName } from "../../artifacts/types.js";
import type { Finding, Status } from "../../results/summary.js";
import { shareableUrl } from "../../privacy/redact.js";
import { storageNameMatcher } from "../../spec/storage-names.js";
import { auditedEnvironment, consentGiven as given, defineCheck, describeCall, finding, notJudgedReason, notOpenedReason, pageSpecOf, type CheckContext, type Verdict } from "../check.js";

/**
 * The consent checks (docs/consent.md): each judges the `consent` artifacts of the units the
 * spec's `consent` section adds. Without the section, no page has them and they give no finding.
 */

/** A write removed again this soon is an SDK's probe (is storage available?), not storage. */
const PROBE_MS = 100;

/** How many items a message names before it says how many more there are. */
const NAMED = 3;

/** consent.banner: the banner is there, and can be answered. */
export const consentBanner = defineCheck({
  id: "consent.banner",
  scope: "run",
  title: "The consent banner shows and can be answered",
  failureTitle: "The consent banner is missing or cannot be answered",
  family: "Personal data",
  severity: "critical",
  checklist: null,
  failsWhen:
    "with `consent`: the banner was not found within `consent.timeoutMs` after the page loaded, or could not " +
    "be answered (accepted, or refused on the reject unit); the page's other checks and its reject and GPC " +
    "units then skip, saying why (see [Consent](consent.md))",
  why:
    "A banner the audit cannot answer is a banner it cannot see past: nothing after it, the SDK and the " +
    "journey included, can be judged. A banner that does not show, or does not take its answer, also " +
    "means visitors are tracked without being asked, or not tracked at all.",
  evaluate(context): Finding[] {
    return consentPages(context).map((page) => {
      const scope = { page: page.page, viewport: page.viewport };
      const notJudged = notOpenedReason(page, auditedEnvironment(context).auth);
      if (notJudged !== null) return finding(context, "skip", notJudged, scope);
      const consent = page.consent!;
      const refusal = context.refusals?.find((unit) => unit.page === page.page && unit.viewport === page.viewport && unit.consent?.unit === "reject");
      const verdicts = [bannerVerdict(context, page, consent, "accepted")];
      if (refusal?.consent && refusal.loadError === null && given(consent)) verdicts.push(bannerVerdict(context, refusal, refusal.consent, "refused"));
      const failed = verdicts.filter((verdict) => verdict.status === "fail");
      const shown = failed.length > 0 ? failed : verdicts;
      return finding(context, failed.length > 0 ? "fail" : "pass", shown.map((verdict) => verdict.message).join(" "), scope, {
        method: consent.method,
        cmp: consent.cmp,
        bannerAtMs: consent.bannerAtMs,
        answeredAtMs: consent.answeredAtMs,
        ...(refusal?.consent ? { refusedAtMs: refusal.consent.answeredAtMs } : {}),
      });
    });
  },
});

/** consent.before: nothing is sent or stored before consent. */
export const consentBefore = defineCheck({
  id: "consent.before",
  scope: "page",
  title: "Nothing is sent or stored before consent",
  failureTitle: "The page tracks before consent",
  family: "Personal data",
  severity: "critical",
  checklist: null,
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
  evaluate(context): Finding[] {
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

/** consent.reject: nothing is sent or stored after a refusal, or with GPC on. */
export const consentReject = defineCheck({
  id: "consent.reject",
  scope: "run",
  title: "Nothing is sent or stored after a refusal",
  failureTitle: "The page tracks after a refusal",
  family: "Personal data",
  severity: "critical",
  checklist: null,
  failsWhen:
    "with `consent.reject` (or `consent.gpc`): after refusing (or with Global Privacy Control on), the page " +
    "still made an SDK call, sent a collect request, or wrote the SDK's storage (**fail**; **warn** on the " +
    "GPC unit); one finding per page × viewport × unit, `evidence.unit` saying which",
  why:
    "A refusal that the page ignores is tracking against the visitor's stated wish, the worst case for a " +
    "privacy review. Global Privacy Control is a legal opt-out in several US states and a strong signal " +
    "elsewhere; a site that tracks a GPC visitor without asking should know it does.",
  evaluate(context): Finding[] {
    const matches = storageNameMatcher(context.spec.sdk.storage);
    return (context.refusals ?? []).flatMap((unit) => {
      const consent = unit.consent;
      if (!consent || consent.unit === "page") return [];
      const scope = { page: unit.page, viewport: unit.viewport };
      const evidence = { unit: consent.unit };
      const which = consent.unit === "reject" ? "reject unit" : "GPC unit";
      const notJudged = notJudgedReason(unit, auditedEnvironment(context).auth);
      if (notJudged !== null) return [finding(context, "skip", `${notJudged.replace(/\.$/, "")} (${which}).`, scope, evidence)];
      const page = consentPages(context).find((candidate) => candidate.page === unit.page && candidate.viewport === unit.viewport);
      if (page?.consent && !given(page.consent)) {
        return [finding(context, "skip", `Not judged (${which}): the banner could not be answered on the page itself (consent.banner says why).`, scope, evidence)];
      }
      if (consent.unit === "reject" && !given(consent)) {
        return [finding(context, "skip", "Not judged (reject unit): the banner could not be refused (consent.banner says why).", scope, evidence)];
      }
      const verdict = rejectVerdict(context, unit, consent, matches);
      return [finding(context, verdict.status, verdict.message, scope, { ...evidence, ...verdict.evidence })];
    });
  },
});

/** The consent checks, in report order. */
export const CONSENT_CHECKS = [consentBanner, consentBefore, consentReject] as const;

/** The page units with consent artifacts: the pages as they are, when the spec has `consent`. */
function consentPages(context: CheckContext): JudgedPage[] {
  return context.pages.filter((page) => page.consent !== undefined && page.consent.unit === "page");
}

function pathOf(context: CheckContext, page: JudgedPage): string {
  return pageSpecOf(context, page.page)?.path ?? page.page;
}

function bannerVerdict(context: CheckContext, page: JudgedPage, consent: ConsentArtifacts, verb: "accepted" | "refused"): Verdict {
  const where = `${pathOf(context, page)} (${page.viewport}${verb === "refused" ? ", reject unit" : ""})`;
  const which = consent.cmp === null ? "The banner" : `The banner of ${consent.cmp}`;
  if (consent.bannerAtMs === null) {
    return { status: "fail", message: `No consent banner showed within ${consent.timeoutMs} ms after ${where} loaded: ${missingBannerCause(consent, verb)}.` };
  }
  if (consent.answerError !== null) {
    return { status: "fail", message: `${which} showed at ${consent.bannerAtMs} ms on ${where} but could not be ${verb}: ${consent.answerError}. ${answerFix(verb)}` };
  }
  return { status: "pass", message: `${which} showed at ${consent.bannerAtMs} ms on ${where} and was ${verb} at ${consent.answeredAtMs} ms.` };
}

function missingBannerCause(consent: ConsentArtifacts, verb: "accepted" | "refused"): string {
  const field = verb === "accepted" ? "consent.accept" : "consent.reject";
  if (consent.webdriver === true) {
    return "the browser said it was automated (navigator.webdriver true), and some consent managers hide their banner from automated browsers; run the audit's own browser, or one launched with --disable-blink-features=AutomationControlled";
  }
  if (consent.method === "steps") {
    return `the element of ${field}'s first step never became visible; check that this page asks for consent, and that the selector matches its banner's button`;
  }
  if (consent.cmp !== null) {
    return `the rules recognise ${consent.cmp} on the page, but it showed no banner (already answered, or not shown to this visitor); check the consent manager's settings; if it shows late (the rules wait about 5 s for its banner once they know it), give ${field} the selector of its button, or steps`;
  }
  return `no consent manager the rules know is on the page; if the page asks for consent with a banner of its own, give ${field} the selector of its button, or steps`;
}

function answerFix(verb: "accepted" | "refused"): string {
  return verb === "accepted"
    ? "Give consent.accept the selector of the banner's accept button, or steps, if the rules no longer fit the banner."
    : "Give consent.reject the selector of the banner's refuse button, or steps, if the rules no longer fit the banner.";
}

/**
 * What `sdk.storage` names were written or present in a window of the unit: each once, with where
 * and when. With `removals`, a name removed in the window that the log never saw written was there
 * all the same: the browser reports cookie changes to the page once it listens, and a cookie written
 * by the page's first script may come before that (Klaro then deletes it at load).
 */
function sdkStorage(
  consent: Pick<ConsentArtifacts, "writes">,
  stored: readonly StoredName[],
  matches: (name: string) => boolean,
  inWindow: (atMs: number) => boolean,
  removals: boolean,
): string[] {
  const { writes } = consent;
  const named = new Map<string, string>();
  writes.forEach((write, index) => {
    if (!inWindow(write.atMs)) return;
    const id = `${write.where} ${write.name}`;
    if (named.has(id)) return;
    if (write.op === "set" && !isProbe(writes, index)) named.set(id, `${write.name} (${write.where}, written at ${write.atMs} ms)`);
    const seenWritten = writes.slice(0, index).some((earlier) => earlier.op === "set" && earlier.where === write.where && earlier.name === write.name);
    if (write.op === "remove" && removals && !seenWritten) named.set(id, `${write.name} (${write.where}, deleted at ${write.atMs} ms)`);
  });
  for (const item of stored.filter((candidate) => matches(candidate.name))) {
    const id = `${item.where} ${item.name}`;
    if (!named.has(id)) named.set(id, `${item.name} (${item.where})`);
  }
  return [...named.values()];
}

/**
 * A set removed again by the same task of the page's script, or, where the task is unknown (storage
 * seen by the browser alone), within PROBE_MS: a storage probe.
 */
function isProbe(writes: readonly StorageWrite[], index: number): boolean {
  const write = writes[index]!;
  return writes.slice(index + 1).some((later) => {
    if (later.op !== "remove" || later.where !== write.where || later.name !== write.name) return false;
    return write.task !== undefined && later.task !== undefined ? later.task === write.task : later.atMs - write.atMs <= PROBE_MS;
  });
}

/** `a, b, c and 2 more`. */
function listed(items: readonly string[]): string {
  if (items.length <= NAMED) return items.join(", ");
  return `${items.slice(0, NAMED).join(", ")} and ${items.length - NAMED} more`;
}

function requestLine(page: JudgedPage, index: number): string {
  const request = page.collect[index]!;
  return `${request.method} ${shareableUrl(request.url)} at ${request.atMs} ms`;
}

/** A known tracker the page reached before consent: its first request, and how many it sent. */
interface TrackerReached {
  tracker: string;
  category: string;
  requests: number;
  first: RequestSeen;
}

/** The known trackers the unit's requests reached before `answeredAt`, in order of their first request; a collect request is judged as one, not again as a tracker's. */
function trackersReached(consent: ConsentArtifacts, answeredAt: number, collectUrls: ReadonlySet<string>): TrackerReached[] {
  const reached = new Map<string, TrackerReached>();
  for (const request of consent.requestsBefore) {
    if (request.tracker === undefined || request.atMs >= answeredAt || collectUrls.has(request.url)) continue;
    const known = reached.get(request.tracker.name);
    if (known) known.requests++;
    else reached.set(request.tracker.name, { tracker: request.tracker.name, category: request.tracker.category, requests: 1, first: request });
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
  const carrierAt = (call: JudgedCall) => (call.request === null ? null : (page.collect[call.request]?.atMs ?? null));
  const deliveredBefore = before.filter((call) => (carrierAt(call) ?? Infinity) < answeredAt);
  const held = before.filter((call) => {
    const at = carrierAt(call);
    return at !== null && at >= answeredAt;
  });
  const trackers = trackersReached(consent, answeredAt, new Set(page.collect.map((request) => request.url)));
  const evidence = {
    answeredAtMs: answeredAt,
    collectBefore: requests.map((index) => ({ url: shareableUrl(page.collect[index]!.url), atMs: page.collect[index]!.atMs })),
    trackersBefore: trackers.map((reached) => ({ tracker: reached.tracker, category: reached.category, requests: reached.requests, first: { url: shareableUrl(reached.first.url), atMs: reached.first.atMs } })),
    requestsLeftOut: consent.requestsLeftOut,
    storageBefore: stored,
    callsBefore: before.map((call) => ({ call: describeCall(call), atMs: call.atMs, deliveredAtMs: carrierAt(call) })),
  };
  const problems: string[] = [];
  if (requests.length > 0) problems.push(`sent ${requests.length} collect request(s) (${listed(requests.map((index) => requestLine(page, index)))})`);
  if (stored.length > 0) problems.push(`stored the SDK's ${listed(stored)}`);
  if (deliveredBefore.length > 0) problems.push(`made and delivered ${listed(deliveredBefore.map((call) => `${describeCall(call)} at ${call.atMs} ms`))}`);
  const fixes = problems.length > 0 ? ["Load the SDK only once the visitor consents (gate its tag with the consent manager) and keep its storage off until then."] : [];
  if (trackers.length > 0) {
    const count = trackers.reduce((sum, reached) => sum + reached.requests, 0);
    problems.push(`sent ${count} request(s) to ${trackers.length} known tracker(s) (${listed(trackers.map(trackerLine))})`);
    fixes.push(`Load ${trackers.length === 1 ? "this tracker's tag" : "these trackers' tags"} only once the visitor consents, through the consent manager.`);
  }
  if (problems.length > 0) {
    return { status: "fail", message: `Before consent was given (at ${answeredAt} ms), ${where} ${problems.join("; ")}. ${fixes.join(" ")}`, evidence };
  }
  if (held.length > 0) {
    return {
      status: "warn",
      message: `Before consent was given (at ${answeredAt} ms), ${where} made ${listed(held.map((call) => `${describeCall(call)} at ${call.atMs} ms`))}, held and delivered only after consent: nothing left early, but the visitor's actions before the answer were still tracked; drop calls made before consent if the visitor is to be asked first.`,
      evidence,
    };
  }
  const storageNote = context.spec.sdk.storage.length === 0 ? " (sdk.storage names nothing: the SDK's storage was not looked for)" : "";
  return {
    status: "pass",
    message: `Nothing was sent or stored before consent was given on ${where}: no collect request, no request to a known tracker, none of the SDK's storage${storageNote} and no call in the ${answeredAt} ms before the answer.`,
    evidence,
  };
}

function rejectVerdict(context: CheckContext, unit: JudgedPage, consent: ConsentArtifacts, matches: (name: string) => boolean): Verdict {
  const gpc = consent.unit === "gpc";
  const since = gpc ? 0 : consent.answeredAtMs!;
  const where = `${pathOf(context, unit)} (${unit.viewport})`;
  const calls = unit.calls.filter((call) => call.state !== "lost" && call.atMs >= since);
  const requests = unit.collect.flatMap((request, index) => (request.atMs >= since ? [index] : []));
  // Present at the end and not before the answer: written after it, whatever the write log missed.
  const before = new Set(gpc ? [] : consent.storedAtAnswer.map((item) => `${item.where} ${item.name}`));
  // A name removed after a refusal is a consent manager clearing what it may not keep: no storage written.
  const stored = sdkStorage(
    consent,
    consent.storedAtEnd.filter((item) => !before.has(`${item.where} ${item.name}`)),
    matches,
    (atMs) => atMs >= since,
    false,
  );
  const evidence = {
    sinceMs: since,
    calls: calls.map((call) => ({ call: describeCall(call), atMs: call.atMs })),
    collect: requests.map((index) => ({ url: shareableUrl(unit.collect[index]!.url), atMs: unit.collect[index]!.atMs })),
    storage: stored,
  };
  const when = gpc ? `With Global Privacy Control on (GPC unit: Sec-GPC: 1, nothing answered), ${where}` : `After consent was refused at ${since} ms (reject unit), ${where}`;
  const problems: string[] = [];
  if (calls.length > 0) problems.push(`made ${calls.length} SDK call(s) (${listed(calls.map((call) => `${describeCall(call)} at ${call.atMs} ms`))})`);
  if (requests.length > 0) problems.push(`sent ${requests.length} collect request(s) (${listed(requests.map((index) => requestLine(unit, index)))})`);
  if (stored.length > 0) problems.push(`stored the SDK's ${listed(stored)}`);
  if (problems.length > 0) {
    const status: Status = gpc ? "warn" : "fail";
    const fix = gpc
      ? "Treat navigator.globalPrivacyControl (the Sec-GPC: 1 header) as a refusal: record it in the consent manager and do not load the SDK."
      : "Load the SDK, and let the page call it, only when the visitor has consented; on a refusal send nothing, and clear the SDK's cookies.";
    return { status, message: `${when} ${problems.join("; ")}. ${fix}`, evidence };
  }
  return { status: "pass", message: `${when} made no SDK call, sent no collect request and stored none of the SDK's storage.`, evidence };
}
