import type { ChangedFinding, RunSummary } from "../results/summary.js";
import type { Checklist, Finding, Status } from "../findings/finding.js";
import { changesLine } from "../results/changes.js";
import { changedFindingLines } from "./changes-text.js";
import { CHECKLIST_LABELS, findingPlace, verdictLine } from "./console.js";

/**
 * GitHub Actions' own outputs: the job summary (Markdown appended to `GITHUB_STEP_SUMMARY`) and
 * workflow commands (`::error file=…,line=…::message`) that GitHub shows as annotations on the
 * spec file. Pure text: the CLI decides when to write them. They show in the repository's pages:
 * the summary's messages come scrubbed as in the shareable report (run-result.ts buildSummary).
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
  return failuresFirst(summary).map((finding) => {
    const where = findingPlace(finding);
    const title = where === "" ? finding.check : `${finding.check} [${where}]`;
    return workflowCommand(finding.status === "fail" ? "error" : "warning", finding.message, {
      ...placeOf(finding),
      title,
    });
  });
}

/**
 * The commands that make GitHub hide each secret in the job's log, however a later step prints
 * it: as it is and in base64 (an Authorization header's form). GitHub masks line by line, so a
 * secret of several lines is masked a line at a time.
 */
export function maskCommands(secrets: readonly string[]): string[] {
  const forms = secrets.flatMap((secret) => [secret, Buffer.from(secret).toString("base64")]);
  const lines = forms.flatMap((form) => form.split(/\r?\n/)).filter((line) => line.trim() !== "");
  return [...new Set(lines)].map((line) => `::add-mask::${line}`);
}

/** The job summary: the changes line and what changed, the verdict, each spec run's checklist, and every failed and warning finding. */
export function jobSummaryMarkdown(summary: RunSummary): string {
  const named = summary.changes === null ? [] : changedFindingLines(summary.changes, checkAt);
  const changes =
    summary.changes === null
      ? []
      : [
          `**${markdownText(changesLine(summary.changes))}**`,
          "",
          ...(named.length === 0 ? [] : [...named.map((line) => `- ${line}`), ""]),
        ];
  const lines = [
    ...changes,
    `## setup-audit: ${summary.verdict === "pass" ? "✅ PASS" : "❌ FAIL"}`,
    "",
    `${markdownText(verdictLine(summary))}.`,
  ];
  for (const run of summary.runs) {
    lines.push(
      "",
      `### ${markdownText(run.project)} (${markdownText(run.environment)}, \`${run.spec}\`): ${run.verdict}`,
      "",
      "| checklist item | status |",
      "| --- | --- |",
    );
    for (const [item, label] of Object.entries(CHECKLIST_LABELS) as [keyof Checklist, string][])
      lines.push(`| ${label} | ${STATUS_MARK[run.checklist[item]]} |`);
  }
  const problems = failuresFirst(summary);
  if (problems.length > 0) {
    lines.push(
      "",
      "### Findings to act on",
      "",
      "| status | check | where | what to do |",
      "| --- | --- | --- | --- |",
    );
    for (const finding of problems) {
      const where = [finding.spec, findingPlace(finding)].filter(Boolean).join(" · ");
      lines.push(
        `| ${STATUS_MARK[finding.status]} | \`${finding.check}\` | ${markdownText(where)} | ${markdownText(finding.message)} |`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

/** A changed finding as the job summary names it: `` `sdk.key` [home · desktop] ``. */
function checkAt(finding: ChangedFinding): string {
  const where = findingPlace(finding);
  return where === "" ? `\`${finding.check}\`` : `\`${finding.check}\` [${markdownText(where)}]`;
}

/** Failed findings first, then warnings, each in the run's order. */
function failuresFirst(summary: RunSummary): Finding[] {
  return [
    ...summary.findings.filter((finding) => finding.status === "fail"),
    ...summary.findings.filter((finding) => finding.status === "warn"),
  ];
}

/** Text in a Markdown table cell: pipes escaped, line breaks flattened. */
function markdownText(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** `::level file=…,line=…,col=…,title=…::message`, escaped as GitHub's workflow commands require. */
export function workflowCommand(
  level: "error" | "warning",
  message: string,
  properties: AnnotationPlace & { title: string },
): string {
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
