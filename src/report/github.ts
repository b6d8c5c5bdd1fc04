import type { Checklist, Finding, RunSummary, Status } from "../results.js";
import { CHECKLIST_LABELS } from "./console.js";

/**
 * GitHub Actions' own outputs: the job summary (Markdown appended to `GITHUB_STEP_SUMMARY`) and
 * workflow commands (`::error file=…,line=…::message`) that GitHub shows as annotations on the
 * spec file. Pure text: the CLI decides when to write them.
 */

/** Where an annotation points: a spec file, and the line of the entry a finding is about when known. */
export interface AnnotationPlace {
  file: string;
  line?: number;
  col?: number;
}

const STATUS_MARK: Record<Status, string> = { pass: "✅ pass", warn: "⚠️ warn", fail: "❌ fail", skip: "➖ skip" };

/** One `::error` per failed finding and one `::warning` per warning, on the spec (at the page, goal or experiment when `placeOf` knows its line). */
export function findingCommands(summary: RunSummary, placeOf: (finding: Finding) => AnnotationPlace): string[] {
  return problemsOf(summary).map((finding) =>
    workflowCommand(finding.status === "fail" ? "error" : "warning", finding.message, { ...placeOf(finding), title: `${finding.check}${bracketed(finding)}` }),
  );
}

/** The job summary: the verdict, each spec run's checklist, and every failed and warning finding. */
export function jobSummaryMarkdown(summary: RunSummary): string {
  const count = (status: Status) => summary.findings.filter((finding) => finding.status === status).length;
  const lines = [
    `## setup-audit: ${summary.verdict === "pass" ? "✅ PASS" : "❌ FAIL"}`,
    "",
    `${count("pass")} passed, ${count("warn")} warnings, ${count("fail")} failed, ${count("skip")} skipped (${(summary.durationMs / 1000).toFixed(1)} s).`,
  ];
  for (const run of summary.runs) {
    lines.push("", `### ${markdownText(run.project)} (${markdownText(run.environment)}, \`${run.spec}\`): ${run.verdict}`, "", "| checklist item | status |", "| --- | --- |");
    for (const [item, label] of Object.entries(CHECKLIST_LABELS) as [keyof Checklist, string][]) lines.push(`| ${label} | ${STATUS_MARK[run.checklist[item]]} |`);
  }
  const problems = problemsOf(summary);
  if (problems.length > 0) {
    lines.push("", "### Findings to act on", "", "| status | check | where | what to do |", "| --- | --- | --- | --- |");
    for (const finding of problems) {
      lines.push(`| ${STATUS_MARK[finding.status]} | \`${finding.check}\` | ${markdownText(placeText(finding))} | ${markdownText(finding.message)} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** Failed findings first, then warnings, each in the run's order. */
function problemsOf(summary: RunSummary): Finding[] {
  return [...summary.findings.filter((finding) => finding.status === "fail"), ...summary.findings.filter((finding) => finding.status === "warn")];
}

function placeText(finding: Finding): string {
  return [finding.spec, finding.page, finding.goal, finding.experiment, finding.viewport].filter(Boolean).join(" · ");
}

function bracketed(finding: Finding): string {
  const where = [finding.page, finding.goal, finding.experiment, finding.viewport].filter(Boolean).join(" · ");
  return where === "" ? "" : ` [${where}]`;
}

/** Text in a Markdown table cell: pipes escaped, line breaks flattened. */
function markdownText(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** `::level file=…,line=…,col=…,title=…::message`, escaped as GitHub's workflow commands require. */
export function workflowCommand(level: "error" | "warning", message: string, properties: AnnotationPlace & { title: string }): string {
  const fields = Object.entries(properties)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${escapeProperty(String(value))}`);
  return `::${level} ${fields.join(",")}::${escapeData(message)}`;
}

function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
