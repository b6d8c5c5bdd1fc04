import { type Finding, SEVERITIES, type Severity, problemsOf } from "../findings/finding.js";

/** The severity of a result: that of its most severe failed or warning finding; null when none. */
export function severityOf(findings: readonly Finding[]): Severity | null {
  const problems = problemsOf(findings);
  const ranks = problems.map((finding) => SEVERITIES.indexOf(finding.severity));
  return ranks.length === 0 ? null : SEVERITIES[Math.min(...ranks)]!;
}
