import type { Judgement } from "../../findings/finding.js";
import { describeStep } from "../../audit-spec/steps.js";
import type { PageArtifacts } from "../../artifacts/types.js";
import type { AuthSpec } from "../../audit-spec/schema.js";
import { auditedEnvironment, defineCheck, finding, pageSpecOf, type CheckContext, OPENED_PAGE } from "../check.js";
import { keptOut } from "../../artifacts/site-entry.js";
import { withPicturesLeftOut } from "../pictures-left-out.js";

/** page.load: the page could be loaded and its journey walked. */
export const pageLoad = defineCheck({
  id: "page.load",
  scope: "page",
  title: "The page loads and its journey can be walked",
  failureTitle: "The page could not be loaded or its journey failed",
  family: "Pages and viewports",
  severity: "blocker",
  requires: [...OPENED_PAGE, "stepError", "requestedUrl", "picturesLeftOut"],
  failsWhen:
    "the page could not be loaded (network error, HTTP status ≥ 400, timeout; the URL that failed is " +
    "named, a redirect's target too) or a journey step failed",
  why:
    "Nothing else can be judged on a page that does not load: a network error, an HTTP error status " +
    "or a timeout hides every call the page would have made, and a journey that breaks half-way never " +
    "reaches the business action whose event the experiment counts.",
  evaluate(context): Judgement[] {
    const auth = auditedEnvironment(context).auth;
    return context.pages.map((page) => withPicturesLeftOut(judgeLoad(context, auth, page), page));
  },
});

/** page.load's finding on one page × viewport, before the pictures it left out are named. */
function judgeLoad(context: CheckContext, auth: AuthSpec | undefined, page: PageArtifacts): Judgement {
  const scope = { page: page.page, viewport: page.viewport };
  // A page the site kept the audit out of is page.access's, however it answered.
  if (keptOut(page, auth) !== null)
    return finding(context, "skip", "Not judged: the site kept the audit out (page.access says why).", scope);
  if (page.loadError !== null) {
    return finding(
      context,
      "fail",
      `${page.requestedUrl} could not be loaded: ${page.loadError}. Check that the page exists and the site is up.`,
      scope,
      {
        url: page.requestedUrl,
        status: page.documentStatus,
      },
    );
  }
  if (page.stepError !== null) {
    const step = pageSpecOf(context, page.page)?.steps[page.stepError.step];
    return finding(
      context,
      "fail",
      `The journey stopped at step ${page.stepError.step + 1}: ${page.stepError.message}. Update the step's selector or the page.`,
      scope,
      {
        step: page.stepError.step + 1,
        action: step ? describeStep(step) : null,
      },
    );
  }
  return finding(
    context,
    "pass",
    `${page.requestedUrl} loaded (HTTP ${page.documentStatus ?? "?"}) and its journey completed.`,
    scope,
    {
      url: page.requestedUrl,
      status: page.documentStatus,
    },
  );
}
