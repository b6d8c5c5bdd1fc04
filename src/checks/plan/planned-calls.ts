import type { CapturedCall, PageArtifacts } from "../../artifacts/types.js";
import type { TrackingPlan } from "../../tracking-plan/types.js";
import { madeCalls, type AuditContext } from "../check.js";

/** The spec's tracking plan, compiled once for the run; null when the spec has none (the plan.* checks then give no finding). */
export function judgedPlan(context: AuditContext): TrackingPlan | null {
  if (context.spec.trackingPlan === undefined) return null;
  // The CLI reads and compiles the plan before judging; a context without it is a bug.
  if (!context.trackingPlan) throw new Error("the tracking plan was not read");
  return context.trackingPlan;
}

/** The track calls the page made (a call lost before the SDK existed never happened), each with a name. */
export function namedTracks(page: PageArtifacts): (CapturedCall & { name: string })[] {
  return madeCalls(page).filter(
    (call): call is CapturedCall & { name: string } => call.kind === "track" && call.name !== null,
  );
}
