import { experimentAssignment } from "./assignment.js";
import { experimentExposure } from "./exposure.js";
import { experimentFlicker } from "./flicker.js";
import { experimentGoals } from "./goals.js";
import { experimentName } from "./name.js";
import { experimentSelector } from "./selector.js";
import { experimentVariation } from "./variation.js";

/** The `experiment.*` checks, in the order the report shows them. */
export const EXPERIMENT_CHECKS = [
  experimentName,
  experimentGoals,
  experimentSelector,
  experimentAssignment,
  experimentExposure,
  experimentFlicker,
  experimentVariation,
] as const;
