import type { PageArtifacts } from "../../artifacts/types.js";
import type { ExperimentSpec, VariationSpec } from "../../spec/schema.js";
import type { CheckContext } from "../check.js";

/** What the checks of an experiment's previews share: which units previewed which variation, how it was applied, and the goals' events. */

/** One variation's preview on one viewport. */
export interface Preview {
  variation: VariationSpec;
  /** Its place in the spec's list, from 0. */
  index: number;
  unit: PageArtifacts;
}

/** Every variation of `experiment` with the units that previewed it (one per viewport gathered), in spec order; the forced control is none of them. */
export function previewsOf(context: Pick<CheckContext, "variations">, experiment: ExperimentSpec): Preview[] {
  return experiment.variations.flatMap((variation, index) =>
    context.variations
      .filter((unit) => unit.page === experiment.page && unit.variation?.experiment === experiment.name && unit.variation.name === variation.name && unit.variation.control !== true)
      .map((unit) => ({ variation, index, unit })),
  );
}

/** What the audit applies of a variation itself, `js` before `css`: no site's SDK chose it, nor timed it. Null for a variation the site applies (forced by `query` alone). */
export function appliedByAudit(variation: VariationSpec): "js" | "css" | null {
  return variation.js !== undefined ? "js" : variation.css !== undefined ? "css" : null;
}

/** The events of the experiment's goals, as the spec defines them. */
export function goalEvents(context: Pick<CheckContext, "spec">, experiment: ExperimentSpec): string[] {
  return context.spec.goals.filter((goal) => experiment.goals.includes(goal.name)).map((goal) => goal.event);
}
