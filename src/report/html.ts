import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunSummary } from "../results/summary.js";
import { CHECKLIST_STORY } from "./checklist-steps.js";
import { reportCategories } from "./families.js";
import { forgetHistoryEntry, historyReportIds, resultsReportId } from "./history.js";
import { makeOffline } from "./offline-html.js";
import { overviewParts, withOverview, type OverviewParts } from "./overview/overview.js";
import { readOverviewSources } from "./overview/sources.js";

/**
 * Builds the Allure 3 HTML report of the last run from `<out>/allure-results`: a folder to serve
 * (`<out>/html/`) and, on request, one self-contained file to forward (`<out>/audit-report.html`).
 * Both come from one generation, so a build adds exactly one history entry, and both open on the
 * overview built from summary.json and the history of findings (overview/).
 */

/** Where the report's parts live inside the output folder. */
export const REPORT_PATHS = {
  results: "allure-results",
  html: "html",
  singleFile: "audit-report.html",
  history: join("history", "history.jsonl"),
} as const;

/** Runs kept in the history: two months of nightly audits. */
export const HISTORY_LIMIT = 60;

/** Labels the test runner adds that say nothing about the audit. */
const HIDDEN_LABELS = [
  "language",
  "framework",
  "package",
  "titlePath",
  "host",
  "thread",
  "tag",
  "parentSuite",
  "_fallbackTestCaseId",
];

/** What a build produced. */
export interface ReportBuild {
  /** The folder report, absolute. */
  htmlDir: string;
  /** The single file, absolute; null when not asked for. */
  singleFile: string | null;
  /** Size of the single file in bytes; null when not built. */
  singleFileBytes: number | null;
  /** The history file, absolute. */
  historyFile: string;
  /** Runs the history now holds, this one included. */
  historyRuns: number;
  /** True when these results had been built before, so their history entry was replaced, not added. */
  rebuilt: boolean;
  /** How long the build took. */
  durationMs: number;
}

/** Allure's report builder and its plugin take over half a second to load: once, on first use or ahead of it. */
let allureModules: Promise<[typeof import("@allurereport/core"), unknown]> | undefined;
const loadAllure = () =>
  (allureModules ??= Promise.all([import("@allurereport/core"), import("@allurereport/plugin-awesome")]));

/** Starts loading the report builder, so that the report need not wait for it: `run` calls it while the browsers work. */
export function preloadReportBuilder(): void {
  // A failure to load is reported when the report is built.
  loadAllure().catch(() => undefined);
}

/** Builds the report from `<outDir>/allure-results`, which must hold results. */
export async function buildReport(outDir: string, options: { singleFile: boolean }): Promise<ReportBuild> {
  const startedAt = Date.now();
  const resultsDir = join(outDir, REPORT_PATHS.results);
  const historyFile = join(outDir, REPORT_PATHS.history);
  const reportId = resultsReportId(resultsDir);
  const rebuilt = forgetHistoryEntry(historyFile, reportId) > 0;
  const buildDir = mkdtempSync(join(outDir, ".report-build-"));
  try {
    const sources = readOverviewSources(outDir, resultsDir);
    await generate(
      resultsDir,
      buildDir,
      historyFile,
      reportId,
      reportName(sources?.summary ?? null),
      options.singleFile,
    );
    const overview = sources === null ? null : overviewParts(sources);
    // Allure moves a lone plugin's folder up into the output folder.
    const htmlBuilt = options.singleFile ? join(buildDir, "html") : buildDir;
    finishFile(join(htmlBuilt, "index.html"), overview);
    const htmlDir = join(outDir, REPORT_PATHS.html);
    rmSync(htmlDir, { recursive: true, force: true });
    renameSync(htmlBuilt, htmlDir);

    const singleFile = join(outDir, REPORT_PATHS.singleFile);
    // A single file left by an earlier run would pass for this run's report.
    rmSync(singleFile, { force: true });
    if (options.singleFile) {
      finishFile(join(buildDir, "single", "index.html"), overview, dataDeclaredFirst);
      renameSync(join(buildDir, "single", "index.html"), singleFile);
    }
    return {
      htmlDir,
      singleFile: options.singleFile ? singleFile : null,
      singleFileBytes: options.singleFile ? statSync(singleFile).size : null,
      historyFile,
      historyRuns: historyReportIds(historyFile).length,
      rebuilt,
      durationMs: Date.now() - startedAt,
    };
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
  }
}

async function generate(
  resultsDir: string,
  output: string,
  historyPath: string,
  reportId: string,
  name: string,
  singleFile: boolean,
): Promise<void> {
  const [{ AllureReport, resolveConfig }] = await loadAllure();
  const awesome = { reportName: name, reportLanguage: "en", theme: "light", groupBy: ["epic", "feature", "story"] };
  const config = await resolveConfig({
    name,
    output,
    historyPath,
    historyLimit: HISTORY_LIMIT,
    hideLabels: HIDDEN_LABELS,
    categories: reportCategories(CHECKLIST_STORY),
    plugins: {
      html: { import: "@allurereport/plugin-awesome", options: awesome },
      ...(singleFile
        ? { single: { import: "@allurereport/plugin-awesome", options: { ...awesome, singleFile: true } } }
        : {}),
      agent: { enabled: false },
    },
  });
  const report = new AllureReport(config);
  // Allure gives every build a random id; ours comes from the results, so a rebuild can replace its history entry.
  Object.defineProperty(report, "reportUuid", { value: reportId });
  await report.start();
  await report.readDirectory(resultsDir);
  await report.done();
}

/** "Setup audit: Broken shop", from summary.json's runs when there is one. */
function reportName(summary: RunSummary | null): string {
  const projects = [...new Set((summary?.runs ?? []).map((run) => `${run.project} (${run.environment})`))];
  return projects.length > 0 ? `Setup audit: ${projects.join(", ")}` : "Setup audit";
}

/** The report's page as it is shared: with the overview first, when there is one, and offline. */
function finishFile(file: string, overview: OverviewParts | null, finish = (html: string) => html): void {
  const report = finish(readFileSync(file, "utf8"));
  writeFileSync(file, makeOffline(overview === null ? report : withOverview(report, overview)));
}

/** Allure's single file declares its embedded data here, after its app's script. */
const DATA_DECLARATION = /<script async>\s*window\.allureReportDataReady = false;/;

/**
 * The single file with its embedded data declared, not yet ready, before the app's script runs.
 * Allure's template declares it after the app, and the app reads a file from the embedded data
 * only when the data is declared by then, else it fetches the file beside the page: from a file:
 * URL, a request the browser refuses, and the app stays blank. The app starts before its data
 * whenever the browser parses the file's megabytes in more than one go (a busy or slow machine).
 * Declared first, the app waits until the data is ready.
 */
function dataDeclaredFirst(html: string): string {
  const declaration = html.match(DATA_DECLARATION);
  const app = html.search(/<script\b[^>]*\bsrc=/i);
  if (declaration === null || app === -1 || declaration.index! < app) return html;
  const early = "<script>window.allureReportData = {}; window.allureReportDataReady = false;</script>\n";
  return `${html.slice(0, app)}${early}${html.slice(app)}`;
}
