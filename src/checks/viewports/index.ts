import { viewportsCoverage } from "./coverage.js";

/** The `viewports.*` checks, in the order the report shows them. */
export const VIEWPORTS_CHECKS = [viewportsCoverage] as const;
