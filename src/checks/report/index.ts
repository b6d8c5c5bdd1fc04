import { reportWarnings } from "./warnings.js";

/** The `report.*` checks, in the order the report shows them. */
export const REPORT_CHECKS = [reportWarnings] as const;
