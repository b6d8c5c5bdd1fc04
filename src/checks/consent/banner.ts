import type { JudgedPage } from "../../artifacts/delivery.js";
import type { ConsentArtifacts } from "../../artifacts/types.js";
import type { Judgement } from "../../findings/finding.js";
import {
  auditedEnvironment,
  consentGiven as given,
  defineCheck,
  finding,
  notOpenedReason,
  type CheckContext,
  type Verdict,
  OPENED_PAGE,
} from "../check.js";
import { consentPages, pathOf } from "./pages.js";

/** consent.banner: the banner is there, and can be answered. */
export const consentBanner = defineCheck({
  id: "consent.banner",
  scope: "run",
  title: "The consent banner shows and can be answered",
  failureTitle: "The consent banner is missing or cannot be answered",
  family: "Personal data",
  severity: "critical",
  requires: [...OPENED_PAGE, "consent"],
  failsWhen:
    "with `consent`: the banner was not found within `consent.timeoutMs` after the page loaded, or could not " +
    "be answered (accepted, or refused on the reject unit); the page's other checks and its reject and GPC " +
    "units then skip, saying why (see [Consent](consent.md))",
  why:
    "A banner the audit cannot answer is a banner it cannot see past: nothing after it, the SDK and the " +
    "journey included, can be judged. A banner that does not show, or does not take its answer, also " +
    "means visitors are tracked without being asked, or not tracked at all.",
  evaluate(context): Judgement[] {
    return consentPages(context).map((page) => {
      const scope = { page: page.page, viewport: page.viewport };
      const notJudged = notOpenedReason(page, auditedEnvironment(context).auth);
      if (notJudged !== null) return finding(context, "skip", notJudged, scope);
      const consent = page.consent!;
      const refusal = context.refusals?.find(
        (unit) => unit.page === page.page && unit.viewport === page.viewport && unit.consent?.unit === "reject",
      );
      const verdicts = [bannerVerdict(context, page, consent, "accepted")];
      if (refusal?.consent && refusal.loadError === null && given(consent))
        verdicts.push(bannerVerdict(context, refusal, refusal.consent, "refused"));
      const failed = verdicts.filter((verdict) => verdict.status === "fail");
      const shown = failed.length > 0 ? failed : verdicts;
      return finding(
        context,
        failed.length > 0 ? "fail" : "pass",
        shown.map((verdict) => verdict.message).join(" "),
        scope,
        {
          method: consent.method,
          cmp: consent.cmp,
          bannerAtMs: consent.bannerAtMs,
          answeredAtMs: consent.answeredAtMs,
          ...(refusal?.consent ? { refusedAtMs: refusal.consent.answeredAtMs } : {}),
        },
      );
    });
  },
});

function bannerVerdict(
  context: CheckContext,
  page: JudgedPage,
  consent: ConsentArtifacts,
  verb: "accepted" | "refused",
): Verdict {
  const where = `${pathOf(context, page)} (${page.viewport}${verb === "refused" ? ", reject unit" : ""})`;
  const which = consent.cmp === null ? "The banner" : `The banner of ${consent.cmp}`;
  if (consent.bannerAtMs === null) {
    return {
      status: "fail",
      message: `No consent banner showed within ${consent.timeoutMs} ms after ${where} loaded: ${missingBannerCause(consent, verb)}.`,
    };
  }
  if (consent.answerError !== null) {
    return {
      status: "fail",
      message: `${which} showed at ${consent.bannerAtMs} ms on ${where} but could not be ${verb}: ${consent.answerError}. ${answerFix(verb)}`,
    };
  }
  return {
    status: "pass",
    message: `${which} showed at ${consent.bannerAtMs} ms on ${where} and was ${verb} at ${consent.answeredAtMs} ms.`,
  };
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
