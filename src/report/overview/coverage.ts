import type { RunSummary } from "../../results/summary.js";
import { worstStatus, type CheckId, type Finding } from "../../findings/finding.js";
import { html, withCode, type Markup } from "./markup.js";
import { findingsOf, runTitle, STATUS_TEXT, statusBadge } from "./status.js";

/** The plan's checks as the box lists them: the calls and tracks judged on each page × viewport, then the coverage. */
const PLAN_CHECKS = ["plan.properties", "plan.events", "plan.coverage"] as const satisfies readonly CheckId[];

/**
 * The tracking plan's coverage of each spec × environment that had a plan: the planned events
 * fired somewhere and those never fired (plan.coverage's evidence), and each plan check with the
 * worst status of its findings, the calls plan.properties judged and the pages × viewports each
 * judged. The box's own badge is the worst of them all. Nothing when no run had a plan.
 */
export function planCoverage(summary: Pick<RunSummary, "runs" | "findings">): Markup | null {
  const covered = summary.runs.flatMap((run) => {
    const coverage = findingsOf(summary, run).find((finding) => finding.check === "plan.coverage");
    const planFindings = findingsOf(summary, run).filter((finding) =>
      (PLAN_CHECKS as readonly CheckId[]).includes(finding.check),
    );
    return coverage === undefined ? [] : [{ run, coverage, planFindings }];
  });
  if (covered.length === 0) return null;
  return html`<section class="sa-section"><h2>Tracking-plan coverage</h2>${covered.map(
    ({ run, coverage, planFindings }) => html`<article class="sa-check"><h3>${statusBadge(
      worstStatus(planFindings.map((finding) => finding.status)),
    )} ${runTitle(run)}</h3>
${eventLists(coverage)}
<ul class="sa-plan-checks">${PLAN_CHECKS.map((check) =>
      planCheckLine(
        check,
        planFindings.filter((finding) => finding.check === check),
      ),
    )}</ul></article>`,
  )}</section>`;
}

/** One plan check: its worst status and what it judged; nothing when it has no finding. */
function planCheckLine(check: CheckId, findings: readonly Finding[]): Markup | null {
  if (findings.length === 0) return null;
  const badge = statusBadge(worstStatus(findings.map((finding) => finding.status)));
  if (check === "plan.coverage") return html`<li>${badge} <code>${check}</code> ${withCode(findings[0]!.message)}</li>`;
  const calls = check === "plan.properties" ? `${judgedCalls(findings)}; ` : "";
  return html`<li>${badge} <code>${check}</code> ${calls}pages × viewports: ${statusCounts(findings)}.</li>`;
}

/** `7 planned calls judged, 2 of them breaking the plan`, from plan.properties' evidence. */
function judgedCalls(findings: readonly Finding[]): string {
  let judged = 0;
  let breaking = 0;
  for (const { evidence } of findings) {
    if (typeof evidence.judgedCalls === "number") judged += evidence.judgedCalls;
    // A call breaks the plan once, however many of its keys break it.
    const violations = Array.isArray(evidence.violations) ? (evidence.violations as { callIndex?: unknown }[]) : [];
    breaking += new Set(violations.map((violation) => violation.callIndex)).size;
  }
  return `${judged} planned call${judged === 1 ? "" : "s"} judged, ${breaking} of them breaking the plan`;
}

/** `1 fail, 2 pass, 1 not checked`: the findings by status, the worst first, statuses none has left out. */
function statusCounts(findings: readonly Finding[]): string {
  return (["fail", "warn", "pass", "skip"] as const)
    .map((status) => [status, findings.filter((finding) => finding.status === status).length] as const)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${STATUS_TEXT[status]}`)
    .join(", ");
}

function eventLists(coverage: Finding): Markup | null {
  const names = (key: string) =>
    Array.isArray(coverage.evidence[key]) ? (coverage.evidence[key] as unknown[]).map(String) : [];
  const seen = names("seen");
  const unseen = names("unseen");
  if (seen.length + unseen.length === 0) return null;
  return html`<p>${seen.length} of ${seen.length + unseen.length} planned events fired on an audited page.</p>
<dl class="sa-events"><dt>Fired</dt><dd>${seen.length === 0 ? "none" : seen.map((name, index) => html`${index > 0 ? ", " : ""}<code>${name}</code>`)}</dd>
<dt>Never fired</dt><dd>${unseen.length === 0 ? "none" : unseen.map((name, index) => html`${index > 0 ? ", " : ""}<code>${name}</code>`)}</dd></dl>`;
}
