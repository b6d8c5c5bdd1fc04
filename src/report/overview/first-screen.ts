import { changesLine, utcMinute } from "../../results/changes.js";
import type { RunSummary } from "../../results/summary.js";
import { CHECK_IDS, type Checklist } from "../../findings/finding.js";
import { CHECKLIST_LABELS, verdictLine } from "../console.js";
import { html, type Markup } from "./markup.js";
import { runTitle, statusBadge } from "./status.js";

/**
 * What a reader sees without a click or a scroll: the verdict (saying what it did not check), the
 * changes since the run compared with, each spec × environment's checklist, and the ids of the
 * checks that failed.
 */
export function firstScreen(summary: RunSummary): Markup {
  return html`<header class="sa-first">
  <p class="sa-kicker">setup-audit · run of ${utcMinute(summary.startedAt)}</p>
  <h1 class="sa-verdict sa-verdict-${summary.verdict}">Verdict: ${summary.verdict.toUpperCase()}</h1>
  <p class="sa-verdict-line">${verdictLine(summary)}</p>
  <p class="sa-changes">${summary.changes === null ? "Changes: no earlier run of these specs in this output folder's history to compare with." : `${changesLine(summary.changes)}.`}</p>
  ${failedChecksLine(summary)}
  <p><button type="button" class="sa-open" data-sa-open>Open the detailed report (Allure)</button></p>
</header>
<div class="sa-runs">${summary.runs.map(
    (run) => html`<section class="sa-run" aria-label="${`Setup checklist of ${runTitle(run)}`}">
  <h2>${runTitle(run)} ${statusBadge(run.verdict)}</h2>
  <p class="sa-spec">Spec <code>${run.spec}</code> · environment ${run.environment}${run.collect === "intercept" ? " · collect requests answered inside the browser" : ""}</p>
  <ul class="sa-checklist">${(Object.entries(CHECKLIST_LABELS) as [keyof Checklist, string][]).map(([item, label]) => html`<li>${statusBadge(run.checklist[item])} ${label}</li>`)}</ul>
</section>`,
  )}</div>`;
}

/** `Failed checks: page.load (1), sdk.order (3)`, in the registry's order, as the findings to act on below; nothing when none failed. */
function failedChecksLine(summary: RunSummary): Markup | null {
  const counts = new Map<string, number>();
  for (const finding of summary.findings)
    if (finding.status === "fail") counts.set(finding.check, (counts.get(finding.check) ?? 0) + 1);
  if (counts.size === 0) return null;
  const ids = CHECK_IDS.filter((check) => counts.has(check)).map(
    (check, index) => html`${index > 0 ? ", " : ""}<code>${check}</code> (${counts.get(check)!})`,
  );
  return html`<p class="sa-failed">Failed checks: ${ids}. Below: what each means and how to fix it.</p>`;
}
