import type { ChangedFinding, Changes } from "../results/summary.js";

/**
 * What changed, named after the changes line (docs/ci.md, Changes) by the console, the job
 * summary and the webhook message alike: the counts alone do not say which check broke where.
 */

/** How many findings of each kind are named; the others are counted. */
export const NAMED_CHANGES = 10;

const KINDS = [
  ["new", "New"],
  ["worse", "Worse"],
  ["resolved", "Resolved"],
] as const;

/**
 * One line per kind of change that has findings, each named as `name` renders it in the
 * report's own markup: `New: sdk.key [home · desktop] (fail), page.errors [cart · mobile] (warn),
 * and 3 more`. A new finding says whether it warns or fails; a worse one fails, a resolved one
 * passes, as their kind says.
 */
export function changedFindingLines(changes: Changes, name: (finding: ChangedFinding) => string): string[] {
  return KINDS.flatMap(([kind, label]) => {
    const list = changes[kind];
    if (list.length === 0) return [];
    const named = list
      .slice(0, NAMED_CHANGES)
      .map((finding) => (kind === "new" ? `${name(finding)} (${finding.status})` : name(finding)));
    const more = list.length - named.length;
    return [`${label}: ${named.join(", ")}${more > 0 ? `, and ${more} more` : ""}`];
  });
}
