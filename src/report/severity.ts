import type { CheckId } from "../check-ids.js";
import type { Finding } from "../results.js";

/** Allure's severities, most severe first. */
export const SEVERITIES = ["blocker", "critical", "normal", "minor", "trivial"] as const;

/** One Allure severity. */
export type Severity = (typeof SEVERITIES)[number];

/**
 * How much a failure of each check costs: `blocker` when nothing else can be trusted, `critical`
 * when conversions are lost or counted wrongly, `normal` for setup hygiene, `minor` for noise.
 */
export const CHECK_SEVERITY: Record<CheckId, Severity> = {
  "api.auth": "blocker",
  "page.load": "blocker",
  "sdk.present": "blocker",
  "api.project": "critical",
  "api.workspace": "critical",
  "api.goals": "critical",
  "page.domain": "critical",
  "sdk.order": "critical",
  "sdk.key": "critical",
  "events.expected": "critical",
  "events.delivered": "critical",
  "goals.match": "critical",
  "baseline.calls": "critical",
  "identify.pii": "critical",
  "identify.attributes": "normal",
  "experiment.goals": "normal",
  "experiment.selector": "normal",
  "viewports.coverage": "normal",
  "report.warnings": "normal",
  "experiment.name": "minor",
  "page.errors": "minor",
};

/** The severity of a result: that of its most severe failed or warning check; null when none. */
export function severityOf(findings: readonly Finding[]): Severity | null {
  const problems = findings.filter((finding) => finding.status === "fail" || finding.status === "warn");
  const ranks = problems.map((finding) => SEVERITIES.indexOf(CHECK_SEVERITY[finding.check]));
  return ranks.length === 0 ? null : SEVERITIES[Math.min(...ranks)]!;
}
