import { changesLine } from "../results/changes.js";
import { uncheckedItems } from "../results/checklist.js";
import type { ChangedFinding, RunSummary } from "../results/summary.js";
import { changedFindingLines } from "./changes-text.js";
import { type Checklist, type Finding, type Status, problemsOf } from "../findings/finding.js";

const SYMBOL: Record<Status, string> = { pass: "✓", warn: "!", fail: "✗", skip: "-" };

/** How each checklist item reads, in the service's own words. */
export const CHECKLIST_LABELS: Record<keyof Checklist, string> = {
  workspace: "Correct workspace",
  projectKeyOrDomain: "Correct project key or domain",
  goalEventMatch: "Goals and events match",
  mobileAndDesktop: "Mobile and desktop both checked",
  noWarnings: "No bot/SRM or dropped-event warning",
};

/** The console report: every failed or warning finding, then the changes line and what changed, each run's checklist and the verdict. */
export function formatConsoleReport(summary: RunSummary): string {
  const lines: string[] = [];
  const problems = problemsOf(summary.findings);
  if (problems.length > 0) {
    lines.push("", "Findings:");
    for (const finding of problems) {
      const where = findingPlace(finding);
      lines.push(
        `  ${SYMBOL[finding.status]} ${finding.status.toUpperCase()} ${finding.check}${where ? ` [${where}]` : ""}: ${finding.message}`,
      );
    }
  }
  if (summary.changes !== null) {
    lines.push("", changesLine(summary.changes));
    lines.push(...changedFindingLines(summary.changes, checkAt).map((line) => `  ${line}`));
  }
  for (const run of summary.runs) {
    lines.push("", `Setup checklist — ${run.project} (${run.environment}, ${run.spec}):`);
    for (const [item, label] of Object.entries(CHECKLIST_LABELS) as [keyof Checklist, string][]) {
      const status = run.checklist[item];
      lines.push(`  ${SYMBOL[status]} ${label.padEnd(38)} ${status}`);
    }
  }
  lines.push("", `Verdict: ${verdictLine(summary)}`);
  return `${lines.join("\n")}\n`;
}

/**
 * `PASS — 2 of 5 checklist items not checked: the spec has no api section — 12 passed, …`: the
 * verdict, what it did not check when it skipped a checklist item, and the findings' counts.
 */
export function verdictLine(summary: RunSummary): string {
  const { unchecked, of, reasons } = uncheckedItems(summary);
  const notChecked =
    unchecked === 0 ? "" : ` — ${unchecked} of ${of} checklist items not checked: ${reasons.join("; ")}`;
  return `${summary.verdict.toUpperCase()}${notChecked} — ${findingCounts(summary)}`;
}

/** Where a finding is, as the reports name it: `signup · desktop`, `Signup completed · mobile`; "" for a spec-wide one. */
export function findingPlace(
  finding: Pick<Finding, "page" | "goal" | "experiment" | "variation" | "viewport">,
): string {
  return [finding.page, finding.goal, finding.experiment, finding.variation, finding.viewport]
    .filter(Boolean)
    .join(" · ");
}

/** A changed finding as the console names it: `sdk.key [home · desktop]`. */
function checkAt(finding: ChangedFinding): string {
  const where = findingPlace(finding);
  return where === "" ? finding.check : `${finding.check} [${where}]`;
}

/** `12 passed, 1 warnings, 2 failed, 3 skipped (8.6 s)`. */
export function findingCounts(summary: RunSummary): string {
  const count = (status: Status) => summary.findings.filter((finding) => finding.status === status).length;
  return `${count("pass")} passed, ${count("warn")} warnings, ${count("fail")} failed, ${count("skip")} skipped (${(summary.durationMs / 1000).toFixed(1)} s)`;
}
