import { knownViewports } from "../browser/viewports.js";
import type { SpecProblem } from "./problems.js";
import { closestMatch } from "../text/wording.js";

/** A problem for every `viewports` entry that is neither desktop, mobile nor a Playwright device name. */
export function unknownViewportProblems(viewports: readonly string[]): SpecProblem[] {
  const known = knownViewports();
  return viewports.flatMap((viewport, index) => {
    if (known.includes(viewport)) return [];
    const guess = closestMatch(viewport, known);
    const hint = guess !== undefined ? `did you mean "${guess}"?` : "use desktop, mobile or a Playwright device name";
    return [{ path: ["viewports", index], message: `unknown viewport "${viewport}" — ${hint}` }];
  });
}
