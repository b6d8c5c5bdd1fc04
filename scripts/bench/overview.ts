/**
 * `bench-overview:` what the report's overview costs on a large run, in this process and with no
 * browser: an output folder of 200 pages × 2 viewports (every page check judged on each, one
 * finding in seven failing with its own message), the history of 60 runs and one Allure result per
 * page × viewport, from which the overview is read and built. Wall and CPU milliseconds (target:
 * under 3,000 ms), and the size of the overview's HTML.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CHECKS, reported } from "../../src/checks/index.js";
import { overviewParts } from "../../src/report/overview/overview.js";
import { readOverviewSources } from "../../src/report/overview/sources.js";
import { specIdentity } from "../../src/cli/spec-identity.js";
import { FINDINGS_HISTORY, KEPT_RUNS, recordedRuns } from "../../src/results/changes.js";
import { rollUpChecklist } from "../../src/results/checklist.js";
import type { RunSummary } from "../../src/results/summary.js";
import type { Finding, Status } from "../../src/findings/finding.js";

const PAGES = 200;
const VIEWPORTS = ["desktop", "mobile"];
/** The target: the overview of 400 page × viewports builds in under 3 s. */
const TARGET_MS = 3000;

/** The figures of one build. */
export interface OverviewTiming {
  wallMs: number;
  cpuMs: number;
  pageViewports: number;
  findings: number;
  htmlBytes: number;
}

/** Writes the large run into `work`, then times reading and building its overview. */
export function timeOverview(work: string): OverviewTiming {
  const out = join(work, "overview-run");
  const resultsDir = join(out, "allure-results");
  const summary = largeSummary();
  writeOutputFolder(out, resultsDir, summary);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const parts = overviewParts(readOverviewSources(out, resultsDir)!);
  const wallMs = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  return {
    wallMs,
    cpuMs: (user + system) / 1000,
    pageViewports: PAGES * VIEWPORTS.length,
    findings: summary.findings.length,
    htmlBytes: Buffer.byteLength(parts.head + parts.body),
  };
}

/** The `bench-overview:` line. */
export function overviewLine(timing: OverviewTiming): string {
  const met = timing.wallMs < TARGET_MS ? "yes" : "no";
  return `bench-overview: build=${timing.wallMs.toFixed(0)}ms cpu=${timing.cpuMs.toFixed(0)}ms target=${TARGET_MS}ms met=${met} page_viewports=${timing.pageViewports} findings=${timing.findings} html=${Math.round(timing.htmlBytes / 1024)}KiB\n`;
}

function largeSummary(): RunSummary {
  const spec = "audits/bench.yaml";
  const pageChecks = CHECKS.filter((check) => check.scope === "page").map((check) => check.id);
  const statuses: Status[] = ["pass", "fail", "pass", "skip", "pass", "warn", "pass"];
  let index = 0;
  const findings: Finding[] = [];
  for (let page = 0; page < PAGES; page += 1) {
    for (const viewport of VIEWPORTS) {
      for (const check of pageChecks) {
        const status = statuses[index++ % statuses.length]!;
        findings.push(
          reported({
            check,
            status,
            spec,
            page: `p${page}`,
            viewport,
            goal: null,
            experiment: null,
            variation: null,
            message: `\`${check}\` on /bench/${page} (${viewport}): ${status}, with a sentence of the length a finding's message has, saying what to do.`,
            evidence: {},
          }),
        );
      }
    }
  }
  const run = {
    spec,
    project: "Bench shop",
    environment: "staging",
    verdict: "fail" as const,
    collect: "send" as const,
    checklist: rollUpChecklist(findings),
  };
  return {
    version: 1,
    verdict: "fail",
    startedAt: "2026-11-28T03:00:00.000Z",
    durationMs: 600_000,
    runs: [run],
    findings,
    calls: [],
    changes: null,
  };
}

/** summary.json, a full history of findings, and one Allure result per page × viewport without a picture. */
function writeOutputFolder(out: string, resultsDir: string, summary: RunSummary): void {
  mkdirSync(resultsDir, { recursive: true });
  mkdirSync(join(out, "history"), { recursive: true });
  writeFileSync(join(out, "summary.json"), JSON.stringify(summary, null, 2));
  const history = Array.from(
    { length: KEPT_RUNS },
    (_, day) =>
      recordedRuns(
        { ...summary, startedAt: new Date(Date.UTC(2026, 8, 1 + day, 3)).toISOString() },
        specIdentity(),
      )[0]!,
  );
  writeFileSync(join(out, FINDINGS_HISTORY), history.map((run) => `${JSON.stringify(run)}\n`).join(""));
  for (let page = 0; page < PAGES; page += 1) {
    for (const viewport of VIEWPORTS) {
      const steps = summary.findings
        .filter((finding) => finding.page === `p${page}` && finding.viewport === viewport)
        .map((finding) => ({
          name: `${finding.check}: ${finding.message}`,
          status: "passed",
          steps: [],
          attachments: [],
        }));
      writeFileSync(
        join(resultsDir, `p${page}-${viewport}-result.json`),
        JSON.stringify({ name: `p${page} · ${viewport}`, labels: [], parameters: [], steps }),
      );
    }
  }
}
