/**
 * `npm run bench`: the audit against bare Playwright on N synthetic pages × 2 viewports, with the
 * same number of parallel browsers. Prints wall time, time per page × viewport, peak memory of
 * the whole process tree and the ratio audit / bare, for each N; the last line is for machines.
 * Options: --pages 20,200  --workers 2
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { FIXTURE_PORTS, startFixtures } from "../../fixtures/server.js";
import type { RunSummary } from "../../src/results.js";
import { watchPeakRss } from "./process-tree.js";

const { values } = parseArgs({ options: { pages: { type: "string", default: "20,200" }, workers: { type: "string", default: "2" } } });
const sizes = values.pages.split(",").map(Number);
const workers = Number(values.workers);
// The shop as localhost: the service, which serves the SDK and collects from 127.0.0.1, is then
// another host than the site, as it is on real sites (the traffic header goes to the site only).
const demoShop = `http://localhost:${FIXTURE_PORTS.demoShop}`;
const service = `http://127.0.0.1:${FIXTURE_PORTS.service}`;

/** One measured command. */
interface Measure {
  wallMs: number;
  peakRss: number;
}

function measure(args: string[]): Promise<Measure> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, SERVICE_API_KEY: process.env.SERVICE_API_KEY ?? "test-api-key" } });
    const memory = watchPeakRss(child.pid!);
    child.on("error", reject);
    child.on("exit", (code) => {
      const peakRss = memory.stop();
      if (code !== 0 && code !== 1) reject(new Error(`${args.join(" ")} exited ${code}`));
      else resolve({ wallMs: Date.now() - started, peakRss });
    });
  });
}

function benchSpec(pages: number, screenshots: "on" | "off"): string {
  const lines = [
    "workspace: Acme Marketing",
    "project: Demo shop",
    "environments:",
    `  staging: { key: prj_demo_staging, baseUrl: "${demoShop}" }`,
    "api:",
    `  baseUrl: "${service}"`,
    "  keyEnv: SERVICE_API_KEY",
    "  goalsPath: /v1/projects/{project}/goals",
    "  recentEventsPath: /v1/projects/{project}/events",
    'sdk: { script: "**/sdk/v1/sdk.js", global: expsvc, track: track, identify: identify, collect: "**/v1/collect" }',
    `screenshots: ${screenshots}`,
    "pages:",
    ...Array.from({ length: pages }, (_, index) => `  - { id: p${index}, path: /bench/${index}, expect: { track: [product_viewed] } }`),
  ];
  return `${lines.join("\n")}\n`;
}

async function apiRequestCount(): Promise<number> {
  const response = await fetch(`${service}/__fixture/requests`);
  return ((await response.json()) as { api: number }).api;
}

const fixtures = (await fetch(`${service}/__fixture/health`).catch(() => null))?.ok ? null : await startFixtures();
const work = mkdtempSync(join(tmpdir(), "setup-audit-bench-"));
const rows: { pages: number; bare: Measure; audit: Measure; auditNoShots: Measure; apiCalls: number }[] = [];
try {
  for (const pages of sizes) {
    process.stderr.write(`N=${pages}: bare Playwright…\n`);
    const bare = await measure(["--import", "tsx", "scripts/bench/bare.ts", demoShop, String(pages), String(workers)]);
    const runAudit = async (screenshots: "on" | "off") => {
      const spec = join(work, `bench-${pages}-${screenshots}.yaml`);
      writeFileSync(spec, benchSpec(pages, screenshots));
      process.stderr.write(`N=${pages}: audit, screenshots ${screenshots}…\n`);
      const before = await apiRequestCount();
      const result = await measure(["bin/setup-audit.js", "run", spec, "--out", join(work, `out-${pages}-${screenshots}`), "--workers", String(workers)]);
      const summary = JSON.parse(readFileSync(join(work, `out-${pages}-${screenshots}`, "summary.json"), "utf8")) as RunSummary;
      if (summary.verdict !== "pass") process.stderr.write(`warning: the bench audit did not pass (${summary.findings.filter((finding) => finding.status === "fail").length} failed findings)\n`);
      return { result, apiCalls: (await apiRequestCount()) - before };
    };
    const withShots = await runAudit("on");
    const withoutShots = await runAudit("off");
    rows.push({ pages, bare, audit: withShots.result, auditNoShots: withoutShots.result, apiCalls: Math.max(withShots.apiCalls, withoutShots.apiCalls) });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
  await fixtures?.close();
}

const perPage = (measured: Measure, pages: number) => measured.wallMs / (pages * 2);
const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;
process.stdout.write(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${mib(totalmem())}; ${workers} parallel browsers; pages × 2 viewports\n\n`);
process.stdout.write("N     run                 wall      per page×viewport   peak RSS    ratio\n");
for (const row of rows) {
  for (const [name, measured] of [["bare Playwright", row.bare], ["audit, screenshots", row.audit], ["audit, no screenshots", row.auditNoShots]] as const) {
    const ratio = (measured.wallMs / row.bare.wallMs).toFixed(2);
    process.stdout.write(`${String(row.pages).padEnd(5)} ${name.padEnd(22)} ${(measured.wallMs / 1000).toFixed(1).padStart(6)} s  ${perPage(measured, row.pages).toFixed(0).padStart(8)} ms        ${mib(measured.peakRss).padStart(8)}   ${ratio}\n`);
  }
  process.stdout.write(`      API requests per run: ${row.apiCalls}\n`);
}
const largest = rows.at(-1)!;
const smallest = rows[0]!;
const ratio = (largest.audit.wallMs / largest.bare.wallMs).toFixed(2);
const ratioNoShots = (largest.auditNoShots.wallMs / largest.bare.wallMs).toFixed(2);
const growth = (perPage(largest.audit, largest.pages) / perPage(smallest.audit, smallest.pages)).toFixed(2);
const memoryGrowth = (largest.audit.peakRss / smallest.audit.peakRss).toFixed(2);
process.stdout.write(`\nmemory growth (peak RSS N=${largest.pages} / N=${smallest.pages}, audit): ${memoryGrowth}\n`);
process.stdout.write(`bench: ratio=${ratio} ratio_noshots=${ratioNoShots} growth=${growth} api_calls=${largest.apiCalls}\n`);
