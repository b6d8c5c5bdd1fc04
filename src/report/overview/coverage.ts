import type { RunSummary } from "../../results/summary.js";
import type { Finding } from "../../findings/finding.js";
import { html, withCode, type Markup } from "./markup.js";
import { findingsOf, runTitle, statusBadge } from "./status.js";

/**
 * The tracking plan's coverage of each spec × environment that had a plan: the planned events
 * fired somewhere and those never fired (plan.coverage's evidence), and how the calls judged
 * against the plan fared. Nothing when no run had a plan.
 */
export function planCoverage(summary: Pick<RunSummary, "runs" | "findings">): Markup | null {
  const covered = summary.runs.flatMap((run) => {
    const coverage = findingsOf(summary, run).find((finding) => finding.check === "plan.coverage");
    return coverage === undefined
      ? []
      : [
          {
            run,
            coverage,
            judged: findingsOf(summary, run).filter(
              (finding) => finding.check === "plan.properties" || finding.check === "plan.events",
            ),
          },
        ];
  });
  if (covered.length === 0) return null;
  return html`<section class="sa-section"><h2>Tracking-plan coverage</h2>${covered.map(
    ({
      run,
      coverage,
      judged,
    }) => html`<article class="sa-check"><h3>${statusBadge(coverage.status)} ${runTitle(run)}</h3>
${eventLists(coverage)}
<p>Calls judged against the plan, per page × viewport: ${(["pass", "warn", "fail", "skip"] as const).map((status, index) => `${index > 0 ? ", " : ""}${judged.filter((finding) => finding.status === status).length} ${status}`)}.</p>
<p>${withCode(coverage.message)}</p></article>`,
  )}</section>`;
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
