import type { CategoryRule } from "@allurereport/core-api";
import type { CheckId } from "../check-ids.js";
import type { Finding } from "../results.js";
import { escapeRegExp } from "../text.js";

/**
 * Check families: how the report's categories group failures, so a reader sees "three pages lose
 * calls to the SDK load order" before reading any single page.
 */

/** The families, in the order a failure is filed: a page failing several is filed under the first. */
export const FAMILIES = [
  "SDK installation and load order",
  "Goal/event mismatch",
  "Delivery",
  "Personal data",
  "Experiments",
  "API",
  "Pages and viewports",
] as const;

/** One family of checks. */
export type Family = (typeof FAMILIES)[number];

/** The Allure label that carries the families of a result's failed checks. */
export const FAMILY_LABEL = "family";

/** The family of every check id; a Record so a new id cannot be forgotten. */
export const CHECK_FAMILY: Record<CheckId, Family> = {
  "sdk.present": "SDK installation and load order",
  "sdk.order": "SDK installation and load order",
  "sdk.key": "SDK installation and load order",
  "goals.match": "Goal/event mismatch",
  "events.expected": "Goal/event mismatch",
  "baseline.calls": "Goal/event mismatch",
  "events.delivered": "Delivery",
  "report.warnings": "Delivery",
  "identify.attributes": "Personal data",
  "identify.pii": "Personal data",
  "experiment.name": "Experiments",
  "experiment.goals": "Experiments",
  "experiment.selector": "Experiments",
  "api.auth": "API",
  "api.project": "API",
  "api.workspace": "API",
  "api.goals": "API",
  "page.load": "Pages and viewports",
  "page.errors": "Pages and viewports",
  "page.domain": "Pages and viewports",
  "viewports.coverage": "Pages and viewports",
};

/** The families of the failed findings, in filing order, each once. */
export function failedFamilies(findings: readonly Finding[]): Family[] {
  const failed = new Set(findings.filter((finding) => finding.status === "fail").map((finding) => CHECK_FAMILY[finding.check]));
  return FAMILIES.filter((family) => failed.has(family));
}

/**
 * The report's categories: a failed setup checklist first (its result carries the `story` label
 * `checklistStory`), then one per family, matching failed results by their family label.
 */
export function reportCategories(checklistStory: string): CategoryRule[] {
  const failedWith = (label: string, value: string): CategoryRule["matchers"] => ({ statuses: ["failed"], labels: { [label]: `^${escapeRegExp(value)}$` } });
  return [
    { name: "Setup cannot be trusted yet", matchers: failedWith("story", checklistStory), groupByMessage: false, expand: true },
    ...FAMILIES.map((family) => ({ name: family, matchers: failedWith(FAMILY_LABEL, family), groupByMessage: false, expand: true })),
  ];
}

