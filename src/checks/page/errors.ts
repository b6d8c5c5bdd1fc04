import type { Judgement } from "../../findings/finding.js";
import { defineCheck, perLoadedPage, LOADED_PAGE } from "../check.js";
import { redactUrl } from "../../privacy/redact.js";

/** page.errors: the page throws no errors and logs none. */
export const pageErrors = defineCheck({
  id: "page.errors",
  scope: "page",
  title: "The page throws and logs no errors",
  failureTitle: "The page throws or logs errors",
  family: "Pages and viewports",
  severity: "minor",
  requires: [...LOADED_PAGE, "errors"],
  failsWhen: "the page throws or logs errors (**warn** by default)",
  why:
    "Script errors often stop the code that calls the SDK, so events go missing only for some visitors " +
    "or browsers; they also hint at an experiment's custom code breaking the page.",
  evaluate(context): Judgement[] {
    return perLoadedPage(context, (page) => {
      if (page.errors.length === 0) return { status: "pass", message: "No uncaught exception and no console error." };
      const errors = page.errors
        .slice(0, 20)
        .map((error) => (error.url === undefined ? error : { ...error, url: redactUrl(error.url) }));
      const first = errors[0]!;
      const failedUrl = first.url === undefined ? "" : ` for ${first.url}`;
      return {
        status: "warn",
        message: `${page.errors.length} error(s), first: ${first.kind === "exception" ? "uncaught" : "console"} "${first.message}"${failedUrl}. Fix them in the page's code.`,
        evidence: { errors },
      };
    });
  },
});
