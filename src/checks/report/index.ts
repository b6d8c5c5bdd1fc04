import { reportWarnings } from "./warnings.js";

/** The `report.*` checks, on the service's own report of its experiments, in the order our report shows them. */
export const REPORT_CHECKS = [reportWarnings] as const;
