import { goalsMatch } from "./match.js";

/** The `goals.*` checks, in the order the report shows them. */
export const GOALS_CHECKS = [goalsMatch] as const;
