import { baselineCalls } from "./calls.js";

/** The `baseline.*` checks, in the order the report shows them. */
export const BASELINE_CHECKS = [baselineCalls] as const;
