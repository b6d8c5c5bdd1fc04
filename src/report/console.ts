import type { Checklist, RunSummary, Status } from "../results.js";

const SYMBOL: Record<Status, string> = { pass: "✓", warn: "!", fail: "✗", skip: "-" };

/** How each checklist item reads, in the service's own words. */
export const CHECKLIST_LABELS: Record<keyof Checklist, string> = {
  workspace: "Correct workspace",
  projectKeyOrDomain: "Correct project key or domain",
  goalEventMatch: "Goals and events match",
  mobileAndDesktop: "Mobile and desktop both checked",
  noWarnings: "No bot/SRM or dropped-event warning",
};

/** The console report: every failed or warning finding, then each run's checklist and the verdict. */
export function formatConsoleReport(summary: RunSummary): string {
  const lines: string[] = [];
  const problems = summary.findings.filter((finding) => finding.status === "fail" || finding.status === "warn");
  if (problems.length > 0) {
    lines.push("", "Findings:");
    for (const finding of problems) {
      const where = [finding.page, finding.goal, finding.experiment, finding.viewport].filter(Boolean).join(" · ");
      lines.push(`  ${SYMBOL[finding.status]} ${finding.status.toUpperCase()} ${finding.check}${where ? ` [${where}]` : ""}: ${finding.message}`);
    }
  }
  for (const run of summary.runs) {
    lines.push("", `Setup checklist — ${run.project} (${run.environment}, ${run.spec}):`);
    for (const [item, label] of Object.entries(CHECKLIST_LABELS) as [keyof Checklist, string][]) {
      const status = run.checklist[item];
      lines.push(`  ${SYMBOL[status]} ${label.padEnd(38)} ${status}`);
    }
  }
  const count = (status: Status) => summary.findings.filter((finding) => finding.status === status).length;
  lines.push("", `Verdict: ${summary.verdict.toUpperCase()} — ${count("pass")} passed, ${count("warn")} warnings, ${count("fail")} failed, ${count("skip")} skipped (${(summary.durationMs / 1000).toFixed(1)} s)`);
  return `${lines.join("\n")}\n`;
}
