import type { RecordedChecklist } from "../../results/changes.js";
import { utcMinute } from "../../results/changes.js";
import type { RunSummary } from "../../results/summary.js";
import type { Checklist, Status } from "../../findings/finding.js";
import { CHECKLIST_LABELS } from "../console.js";
import { html, scrollBox, type Markup } from "./markup.js";
import { runTitle, STATUS_TEXT } from "./status.js";

/** The drawing's measures, in pixels: one column per run, one row per checklist item. */
const CELL = { width: 12, height: 18, gap: 2 } as const;
const LABEL_WIDTH = 250;
const FILL: Record<Status, string> = { pass: "#1f7a3d", warn: "#b36b00", fail: "#b3261e", skip: "#9aa0a6" };

/**
 * The checklist's trend over the kept history, per spec × environment: an inline SVG whose
 * columns are the runs, oldest first, and whose rows are the five items, each cell coloured by
 * the item's status in that run (its title says the run and the status, for a pointer and a
 * screen reader alike).
 */
export function checklistTrend(summary: Pick<RunSummary, "runs">, history: readonly RecordedChecklist[]): Markup {
  return html`<section class="sa-section"><h2>The checklist over the kept runs</h2>
<p class="sa-legend">${(Object.keys(FILL) as Status[]).map((status) => html`<span><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="${FILL[status]}"/></svg> ${STATUS_TEXT[status]}</span> `)}</p>
${summary.runs.map((run) => {
  const runs = history.filter((recorded) => recorded.spec === run.spec && recorded.environment === run.environment);
  if (runs.length === 0)
    return html`<p>${runTitle(run)}: no run kept in the history yet; the next runs into this output folder draw its trend.</p>`;
  return html`<figure class="sa-trend"><figcaption>${runTitle(run)}: ${runs.length} run(s), ${utcMinute(runs[0]!.startedAt)} to ${utcMinute(runs.at(-1)!.startedAt)}</figcaption>${scrollBox(`The checklist over the kept runs of ${runTitle(run)}`, trendSvg(runTitle(run), runs))}</figure>`;
})}</section>`;
}

function trendSvg(title: string, runs: readonly RecordedChecklist[]): Markup {
  const items = Object.entries(CHECKLIST_LABELS) as [keyof Checklist, string][];
  const width = LABEL_WIDTH + runs.length * (CELL.width + CELL.gap);
  const height = items.length * (CELL.height + CELL.gap);
  const last = runs.at(-1)!;
  const summaryText = `${title}, checklist over ${runs.length} run(s); last run: ${items.map(([item, label]) => `${label} ${STATUS_TEXT[last.checklist[item]]}`).join(", ")}`;
  const rows = items.map(([item, label], row) => {
    const y = row * (CELL.height + CELL.gap);
    const cells = runs.map((recorded, column) => {
      const status = recorded.checklist[item];
      return html`<rect x="${LABEL_WIDTH + column * (CELL.width + CELL.gap)}" y="${y}" width="${CELL.width}" height="${CELL.height}" fill="${FILL[status]}"><title>${`${utcMinute(recorded.startedAt)}: ${label} ${STATUS_TEXT[status]}`}</title></rect>`;
    });
    return html`<text x="0" y="${y + CELL.height - 5}">${label}</text>${cells}`;
  });
  return html`<svg class="sa-trend-svg" role="img" aria-label="${summaryText}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${rows}</svg>`;
}
