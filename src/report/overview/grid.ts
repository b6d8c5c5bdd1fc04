import { type RunSummary } from "../../results/summary.js";
import { worstStatus, type Status } from "../../findings/finding.js";
import { html, scrollBox, type Markup } from "./markup.js";
import { findingsOf, runTitle, statusBadge } from "./status.js";

/**
 * Each spec × environment's pages × viewports, every cell the worst status of the findings on
 * that page and viewport (its variations' among them), pages and viewports in the order the
 * findings name them.
 */
export function pagesGrid(summary: Pick<RunSummary, "runs" | "findings">): Markup {
  return html`<section class="sa-section"><h2>Pages × viewports</h2>${summary.runs.map((run) => {
    const onPages = findingsOf(summary, run).filter((finding) => finding.page !== null && finding.viewport !== null);
    const pages = [...new Set(onPages.map((finding) => finding.page!))];
    const viewports = [...new Set(onPages.map((finding) => finding.viewport!))];
    if (pages.length === 0) return html`<p>${runTitle(run)}: no page was judged.</p>`;
    const cells = new Map<string, Status[]>();
    for (const finding of onPages) {
      const key = JSON.stringify([finding.page, finding.viewport]);
      cells.set(key, [...(cells.get(key) ?? []), finding.status]);
    }
    const cell = (page: string, viewport: string) => {
      const statuses = cells.get(JSON.stringify([page, viewport]));
      return statuses === undefined ? html`<td>not audited</td>` : html`<td>${statusBadge(worstStatus(statuses))}</td>`;
    };
    return scrollBox(
      `Pages × viewports of ${runTitle(run)}`,
      html`<table class="sa-grid"><caption>${runTitle(run)}: the worst status of each page × viewport</caption>
<thead><tr><th scope="col">page</th>${viewports.map((viewport) => html`<th scope="col">${viewport}</th>`)}</tr></thead>
<tbody>${pages.map((page) => html`<tr><th scope="row">${page}</th>${viewports.map((viewport) => cell(page, viewport))}</tr>`)}</tbody></table>`,
    );
  })}</section>`;
}
