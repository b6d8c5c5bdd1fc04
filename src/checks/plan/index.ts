import { planCoverage } from "./coverage.js";
import { planEvents } from "./events.js";
import { planProperties } from "./properties.js";

/** The plan.* checks, in the order the report shows them. */
export const PLAN_CHECKS = [planProperties, planEvents, planCoverage] as const;
