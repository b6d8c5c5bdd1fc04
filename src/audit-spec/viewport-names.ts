import type { SpecProblem } from "./problems.js";
import { closestMatch } from "../text/wording.js";

/** A problem for every `viewports` entry that is not among the `known` ones (desktop, mobile and Playwright's device names). */
export function unknownViewportProblems(viewports: readonly string[], known: readonly string[]): SpecProblem[] {
  return viewports.flatMap((viewport, index) => {
    if (known.includes(viewport)) return [];
    const guess = closestMatch(viewport, known);
    const hint = guess !== undefined ? `did you mean "${guess}"?` : "use desktop, mobile or a Playwright device name";
    return [{ path: ["viewports", index], message: `unknown viewport "${viewport}" — ${hint}` }];
  });
}
