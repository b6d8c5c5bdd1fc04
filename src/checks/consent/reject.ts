import type { JudgedPage } from "../../artifacts/delivery.js";
import type { ConsentArtifacts } from "../../artifacts/types.js";
import type { Judgement, Status } from "../../findings/finding.js";
import { shareableUrl } from "../../privacy/redact.js";
import { storageNameMatcher } from "../../audit-spec/storage-names.js";
import {
  auditedEnvironment,
  consentGiven as given,
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

/** consent.reject: nothing is sent or stored after a refusal, or with GPC on. */
export const consentReject = defineCheck({
  id: "consent.reject",
  scope: "run",
  title: "Nothing is sent or stored after a refusal",
  failureTitle: "The page tracks after a refusal",
  family: "Personal data",
  severity: "critical",
  requires: [...LOADED_PAGE, "calls", "collect"],
  failsWhen:
    "with `consent.reject` (or `consent.gpc`): after refusing (or with Global Privacy Control on), the page " +
    "still made an SDK call, sent a collect request, or wrote the SDK's storage (**fail**; **warn** on the " +
    "GPC unit); one finding per page × viewport × unit, `evidence.unit` saying which",
  why:
    "A refusal that the page ignores is tracking against the visitor's stated wish, the worst case for a " +
    "privacy review. Global Privacy Control is a legal opt-out in several US states and a strong signal " +
    "elsewhere; a site that tracks a GPC visitor without asking should know it does.",
  evaluate(context): Judgement[] {
    const matches = storageNameMatcher(context.spec.sdk.storage);
    return (context.refusals ?? []).flatMap((unit) => {
      const consent = unit.consent;
      if (!consent || consent.unit === "page") return [];
      const scope = { page: unit.page, viewport: unit.viewport };
      const evidence = { unit: consent.unit };
      const which = consent.unit === "reject" ? "reject unit" : "GPC unit";
      const notJudged = notJudgedReason(unit, auditedEnvironment(context).auth);
      if (notJudged !== null)
        return [finding(context, "skip", `${notJudged.replace(/\.$/, "")} (${which}).`, scope, evidence)];
      const page = consentPages(context).find(
        (candidate) => candidate.page === unit.page && candidate.viewport === unit.viewport,
      );
      if (page?.consent && !given(page.consent)) {
        return [
          finding(
            context,
            "skip",
            `Not judged (${which}): the banner could not be answered on the page itself (consent.banner says why).`,
            scope,
            evidence,
          ),
        ];
      }
      if (consent.unit === "reject" && !given(consent)) {
        return [
          finding(
            context,
            "skip",
            "Not judged (reject unit): the banner could not be refused (consent.banner says why).",
            scope,
            evidence,
          ),
        ];
      }
      const verdict = rejectVerdict(context, unit, consent, matches);
      return [finding(context, verdict.status, verdict.message, scope, { ...evidence, ...verdict.evidence })];
    });
  },
});

function rejectVerdict(
  context: CheckContext,
  unit: JudgedPage,
  consent: ConsentArtifacts,
  matches: (name: string) => boolean,
): Verdict {
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
    collect: requests.map((index) => ({
      url: shareableUrl(unit.collect[index]!.url),
      atMs: unit.collect[index]!.atMs,
    })),
    storage: stored,
  };
  const when = gpc
    ? `With Global Privacy Control on (GPC unit: Sec-GPC: 1, nothing answered), ${where}`
    : `After consent was refused at ${since} ms (reject unit), ${where}`;
  const problems: string[] = [];
  if (calls.length > 0)
    problems.push(
      `made ${calls.length} SDK call(s) (${listed(calls.map((call) => `${describeCall(call)} at ${call.atMs} ms`))})`,
    );
  if (requests.length > 0)
    problems.push(
      `sent ${requests.length} collect request(s) (${listed(requests.map((index) => requestLine(unit, index)))})`,
    );
  if (stored.length > 0) problems.push(`stored the SDK's ${listed(stored)}`);
  if (problems.length > 0) {
    const status: Status = gpc ? "warn" : "fail";
    const fix = gpc
      ? "Treat navigator.globalPrivacyControl (the Sec-GPC: 1 header) as a refusal: record it in the consent manager and do not load the SDK."
      : "Load the SDK, and let the page call it, only when the visitor has consented; on a refusal send nothing, and clear the SDK's cookies.";
    return { status, message: `${when} ${problems.join("; ")}. ${fix}`, evidence };
  }
  return {
    status: "pass",
    message: `${when} made no SDK call, sent no collect request and stored none of the SDK's storage.`,
    evidence,
  };
}
