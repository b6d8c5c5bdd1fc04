import type { Judgement } from "../../findings/finding.js";
import { closestMatch } from "../../text/wording.js";
import { defineCheck, perLoadedPage, LOADED_PAGE } from "../check.js";
import { judgedPlan, namedTracks } from "./planned-calls.js";

/** plan.events: every track the page made is an event of the plan. */
export const planEvents = defineCheck({
  id: "plan.events",
  scope: "page",
  title: "Every track is in the tracking plan",
  failureTitle: "A track is not in the tracking plan",
  family: "Tracking plan",
  severity: "normal",
  requires: [...LOADED_PAGE, "calls"],
  failsWhen:
    "with `trackingPlan`: a track on a page × viewport has a name the plan lacks, with the plan's nearest " +
    'name ("did you mean …"); **warn** by default, `trackingPlan.unplanned` makes it fail or turns it off',
  why:
    "An event the plan does not know is one nobody agreed to analyse, and most often a near miss of one " +
    "they did (`Order Complete` for `Order Completed`): the planned metric then counts nothing.",
  evaluate(context): Judgement[] {
    const plan = judgedPlan(context);
    if (plan === null) return [];
    const unplanned = context.spec.trackingPlan!.unplanned;
    return perLoadedPage(context, (page) => {
      const tracks = namedTracks(page);
      if (tracks.length === 0) return { status: "skip", message: "Not judged: the page made no track call." };
      const names = [...new Set(tracks.map((call) => call.name))];
      const outside = names
        .filter((name) => !plan.events.includes(name))
        .map((name) => ({ name, nearest: closestMatch(name, plan.events) ?? null }));
      const evidence = { tracks: names, unplanned: outside };
      if (outside.length === 0)
        return { status: "pass", message: `Every track (${names.join(", ")}) is in the plan.`, evidence };
      if (unplanned === "off")
        return {
          status: "skip",
          message: `Turned off by trackingPlan.unplanned (${outside.map(({ name }) => name).join(", ")} not in the plan).`,
          evidence,
        };
      const named = outside.map(
        ({ name, nearest }) =>
          `\`${name}\` is not in the plan${nearest === null ? "" : ` (did you mean \`${nearest}\`?)`}`,
      );
      return {
        status: unplanned,
        message: `On ${page.viewport}: ${named.join("; ")}. Fix the name, or add the event to the plan.`,
        evidence,
      };
    });
  },
});
