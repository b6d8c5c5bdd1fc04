import type { RecordedChecklist } from "../../results/changes.js";
import type { RunSummary } from "../../results/summary.js";
import { findingsToActOn } from "./act-on.js";
import { changedFindings } from "./changes.js";
import { beforeConsent } from "./consent.js";
import { planCoverage } from "./coverage.js";
import { firstScreen } from "./first-screen.js";
import { pagesGrid } from "./grid.js";
import { html, type Markup } from "./markup.js";
import { experimentPictures, type ExperimentPictures } from "./pictures.js";
import { OVERVIEW_ID, OVERVIEW_SCRIPT, OVERVIEW_STYLE } from "./style.js";
import { checklistTrend } from "./trend.js";

/**
 * The page the shareable report opens on (docs/report.md, The overview): built from summary.json,
 * the history of findings and the pictures the run already made, with no browser.
 */

/** What the overview is built from. */
export interface OverviewSources {
  summary: RunSummary;
  /** The history of findings (history/findings.jsonl), oldest first: this run's record is its last of each spec × environment. */
  history: readonly RecordedChecklist[];
  pictures: readonly ExperimentPictures[];
}

/** The overview's parts to put into the Allure report's HTML: its style for the head, its page and script for the body. */
export interface OverviewParts {
  head: string;
  body: string;
}

/** The overview of a run. */
export function overviewParts(sources: OverviewSources): OverviewParts {
  const page: Markup = html`<main id="${OVERVIEW_ID}">
${firstScreen(sources.summary)}
${changedFindings(sources.summary)}
${findingsToActOn(sources.summary)}
${pagesGrid(sources.summary)}
${planCoverage(sources.summary)}
${experimentPictures(sources.pictures)}
${beforeConsent(sources.summary)}
${checklistTrend(sources.summary, sources.history)}
<p class="sa-section"><button type="button" class="sa-open" data-sa-open>Open the detailed report (Allure): every page × viewport, its checks, screenshots and captured calls</button></p>
</main>
<button type="button" id="sa-back">Back to the overview</button>`;
  // Allure's template has no viewport tag: without one, a phone lays the page out 980 px wide and shrinks it.
  return {
    head: `<meta name="viewport" content="width=device-width, initial-scale=1">\n<style>${OVERVIEW_STYLE}</style>`,
    body: `${page.html}\n<script>${OVERVIEW_SCRIPT}</script>`,
  };
}

/** The Allure report's HTML with the overview: its style at the end of the head, its page first in the body. */
export function withOverview(reportHtml: string, parts: OverviewParts): string {
  const head = reportHtml.search(/<\/head>/i);
  const body = reportHtml.match(/<body\b[^>]*>/i);
  if (head < 0 || !body || body.index! < head)
    throw new Error(
      "The Allure report has no <head> and <body>: its template changed, so setup-audit cannot add its overview.",
    );
  const bodyAt = body.index! + body[0].length;
  return `${reportHtml.slice(0, head)}${parts.head}\n${reportHtml.slice(head, bodyAt)}\n${parts.body}\n${reportHtml.slice(bodyAt)}`;
}
