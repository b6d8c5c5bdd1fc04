import type { Judgement } from "../../findings/finding.js";
import { auditedEnvironment, defineCheck, notJudgedReason, specWideFinding, LOADED_PAGE } from "../check.js";
import { judgedPlan, namedTracks } from "./planned-calls.js";

/** plan.coverage: every planned event fired on some audited page × viewport. */
export const planCoverage = defineCheck({
  id: "plan.coverage",
  scope: "run",
  title: "Every planned event fired somewhere",
  failureTitle: "Planned events fired nowhere",
  family: "Tracking plan",
  severity: "minor",
  requires: [...LOADED_PAGE, "calls"],
  failsWhen:
    "with `trackingPlan`: planned events that no audited page × viewport fired (**warn**, listing them; " +
    "evidence `seen`, `unseen`, `planned`)",
  why:
    "A planned event no audited page fires is either not built yet or fired by a journey the spec does not " +
    "walk: its properties were never checked, and the plan's coverage says so instead of passing it.",
  evaluate(context): Judgement[] {
    const plan = judgedPlan(context);
    if (plan === null) return [];
    const auth = auditedEnvironment(context).auth;
    const judged = context.pages.filter((page) => notJudgedReason(page, auth) === null);
    if (judged.length === 0)
      return specWideFinding(context, { status: "skip", message: "Not judged: no audited page × viewport loaded." });
    const fired = new Set(judged.flatMap((page) => namedTracks(page).map((call) => call.name)));
    const seen = plan.events.filter((name) => fired.has(name));
    const unseen = plan.events.filter((name) => !fired.has(name));
    const evidence = { seen, unseen, planned: plan.events.length };
    if (unseen.length === 0)
      return specWideFinding(context, {
        status: "pass",
        message: `All ${plan.events.length} planned events fired on an audited page.`,
        evidence,
      });
    return specWideFinding(context, {
      status: "warn",
      message: `${unseen.length} of ${plan.events.length} planned events fired on no audited page × viewport: ${unseen.join(", ")}. Add the journeys that fire them, or remove them from the plan.`,
      evidence,
    });
  },
});
