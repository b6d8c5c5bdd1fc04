import type { CapturedCall, PageArtifacts } from "../../artifacts/types.js";
import type { Judgement } from "../../findings/finding.js";
import type { PlanViolation, TrackingPlan } from "../../tracking-plan/types.js";
import { routeOfCall } from "../../artifacts/page-views.js";
import { defineCheck, describeCall, madeCalls, perLoadedPage, LOADED_PAGE } from "../check.js";
import { judgedPlan, namedTracks } from "./planned-calls.js";
import { violationEvidence, violationSentence } from "./sentences.js";

/** A call the plan judges, and what it breaks of the plan (none when it keeps to it). */
interface JudgedCall {
  call: CapturedCall;
  /** The 0-based place of the call among the page's calls. */
  index: number;
  subject: string;
  violations: PlanViolation[];
}

/** The page's calls the plan judges: planned tracks, and identify-kind calls when the plan has an identify schema. */
function judgedCalls(page: PageArtifacts, plan: TrackingPlan): JudgedCall[] {
  const tracks = new Set<CapturedCall>(namedTracks(page));
  return madeCalls(page).flatMap((call, index) => {
    const violations = tracks.has(call)
      ? plan.validateTrack(call.name!, call.properties)
      : call.kind === "identify"
        ? plan.validateIdentify(call.properties)
        : null;
    if (violations === null) return [];
    return [{ call, index, subject: call.kind === "identify" ? `${call.method} traits` : call.name!, violations }];
  });
}

/** plan.properties: every planned call on the page carries what the plan's JSON Schema says. */
export const planProperties = defineCheck({
  id: "plan.properties",
  scope: "page",
  title: "Planned calls carry what the tracking plan says",
  failureTitle: "A call breaks the tracking plan",
  family: "Tracking plan",
  severity: "critical",
  requires: [...LOADED_PAGE, "calls"],
  failsWhen:
    "with `trackingPlan`: a planned track's properties, or an identify-kind call's attributes, break the " +
    "plan's JSON Schema on a page × viewport: a required key missing, a wrong type, a value outside its " +
    "enum, pattern or range, a key the plan forbids; a page with no planned call skips (see [Tracking " +
    "plan](tracking-plan.md))",
  why:
    "An experiment's metrics are computed from what the events carry. A `revenue` sent as the string " +
    '`"12.50"`, a plan tier outside the segments the service knows, or a missing `order_id` break the ' +
    "numbers while every event still fires and arrives.",
  evaluate(context): Judgement[] {
    const plan = judgedPlan(context);
    if (plan === null) return [];
    return perLoadedPage(context, (page) => {
      const judged = judgedCalls(page, plan);
      if (judged.length === 0)
        return { status: "skip", message: "Not judged: the page made no call the tracking plan covers." };
      const broken = judged.filter(({ violations }) => violations.length > 0);
      const evidence = {
        judgedCalls: judged.length,
        violations: broken.flatMap(({ call, index, subject, violations }) =>
          violations.map((violation) => ({
            event: subject,
            call: describeCall(call),
            callIndex: index,
            atMs: call.atMs,
            // The journey step during which the call was made, as summary.json's calls count them (0-based; null before the first).
            step: call.step ?? null,
            route: routeOfCall(call),
            ...violationEvidence(violation),
          })),
        ),
      };
      if (broken.length === 0) {
        const names = [...new Set(judged.map(({ subject }) => subject))];
        return {
          status: "pass",
          message: `${judged.length} planned call${judged.length === 1 ? "" : "s"} (${names.join(", ")}) carry what the plan says.`,
          evidence,
        };
      }
      const sentences = broken.flatMap(({ subject, violations }) =>
        violations.map((violation) => violationSentence(subject, violation)),
      );
      return {
        status: "fail",
        message: `On ${page.viewport}: ${[...new Set(sentences)].join("; ")}. Send what the plan says, or change the plan.`,
        evidence,
      };
    });
  },
});
