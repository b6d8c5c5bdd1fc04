import { changesLine, utcMinute } from "../../results/changes.js";
import type { RunSummary } from "../../results/summary.js";
import type { Checklist } from "../../findings/finding.js";
import { CHECKLIST_LABELS } from "../console.js";
import { html, type Markup } from "./markup.js";
import { runTitle, statusBadge } from "./status.js";
import { shownChecklist, verdictSentence } from "./verdict.js";

/**
 * What a reader sees without a click or a scroll: the verdict (naming the checks that failed, then
 * what it did not check), the changes since the run compared with, and each spec × environment's
 * checklist.
 */
export function firstScreen(summary: RunSummary): Markup {
  return html`<header class="sa-first">
  <p class="sa-kicker">setup-audit · run of ${utcMinute(summary.startedAt)}</p>
  <h1 class="sa-verdict sa-verdict-${summary.verdict}">Verdict: ${summary.verdict.toUpperCase()}</h1>
  <p class="sa-verdict-line">${verdictSentence(summary)}</p>
  <p class="sa-changes">${summary.changes === null ? "Changes: no earlier run of these specs in this output folder's history to compare with." : `${changesLine(summary.changes)}.`}</p>
  <p><button type="button" class="sa-open" data-sa-open>Open the detailed report (Allure)</button></p>
</header>
<div class="sa-runs">${summary.runs.map(
    (run) => html`<section class="sa-run" aria-label="${`Setup checklist of ${runTitle(run)}`}">
  <h2>${runTitle(run)} ${statusBadge(run.verdict)}</h2>
  <p class="sa-spec">Spec <code>${run.spec}</code> · environment ${run.environment}${run.collect === "intercept" ? " · collect requests answered inside the browser" : ""}</p>
  <ul class="sa-checklist">${(Object.entries(CHECKLIST_LABELS) as [keyof Checklist, string][]).map(([item, label]) => html`<li>${statusBadge(shownChecklist(summary, run)[item])} ${label}</li>`)}</ul>
</section>`,
  )}</div>`;
}
