import type { JudgedPage } from "../../artifacts/delivery.js";
import type { ExperimentSpec, VariationSpec } from "../../audit-spec/schema.js";
import type { CheckContext } from "../check.js";

/** What the checks of an experiment's previews share: which units previewed which variation, how it was applied, and the goals' events. */

/** One variation's preview on one viewport. */
export interface Preview {
  variation: VariationSpec;
  /** Its place in the spec's list, from 0. */
  index: number;
  unit: JudgedPage;
}

/** Every variation of `experiment` with the units that previewed it (one per viewport gathered), in spec order; the forced control is none of them. */
export function previewsOf(context: Pick<CheckContext, "variations" | "units">, experiment: ExperimentSpec): Preview[] {
  return experiment.variations.flatMap((variation, index) => {
    const planned = context.units.find(
      (unit) =>
        unit.variation?.experiment === experiment.name &&
        unit.variation.name === variation.name &&
        unit.variation.control !== true,
    );
    return context.variations
      .filter((unit) => unit.unit.id === planned?.id)
      .map((unit) => ({ variation, index, unit }));
  });
}

/** The events of the experiment's goals, as the spec defines them. */
export function goalEvents(context: Pick<CheckContext, "spec">, experiment: ExperimentSpec): string[] {
  return context.spec.goals.filter((goal) => experiment.goals.includes(goal.name)).map((goal) => goal.event);
}
