import type { CategoryRule } from "@allurereport/core-api";
import { FAMILIES, type Family, type Finding } from "../findings/finding.js";
import { escapeRegExp } from "../text/wording.js";

/** The Allure label that carries the families of a result's failed checks. */
export const FAMILY_LABEL = "family";

/** The families of the failed findings, in filing order, each once. */
export function failedFamilies(findings: readonly Finding[]): Family[] {
  const failed = new Set(findings.filter((finding) => finding.status === "fail").map((finding) => finding.family));
  return FAMILIES.filter((family) => failed.has(family));
}

/**
 * The report's categories: a failed setup checklist first (its result carries the `story` label
 * `checklistStory`), then one per family, matching failed results by their family label.
 */
export function reportCategories(checklistStory: string): CategoryRule[] {
  const failedWith = (label: string, value: string): CategoryRule["matchers"] => ({
    statuses: ["failed"],
    labels: { [label]: `^${escapeRegExp(value)}$` },
  });
  return [
    {
      name: "Setup cannot be trusted yet",
      matchers: failedWith("story", checklistStory),
      groupByMessage: false,
      expand: true,
    },
    ...FAMILIES.map((family) => ({
      name: family,
      matchers: failedWith(FAMILY_LABEL, family),
      groupByMessage: false,
      expand: true,
    })),
  ];
}
