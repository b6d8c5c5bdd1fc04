/**
 * `npm run bench`: the audit against bare Playwright on N synthetic pages × 2 viewports, with the
 * same number of parallel browsers. Prints wall time, time per page × viewport, peak memory of
 * the whole process tree and the ratio audit / bare, for each N; the last line is for machines.
 * With --repeat K, each N runs K rounds of the three runs in turn, and the figures are medians:
 * a round's ratio compares runs made minutes apart, so the machine's drift weighs on both alike.
 * Then the audit of the real-SDK fixture pages (the correct page of each vendor and install, one
 * worker) against bare Playwright driving the same pages (`bench-realsdk:`, before the last line).
 * Then one page with an experiment of two variations against the same page without them
 * (`bench-variations:`, before the last line; scripts/bench/variations.ts).
 * Then the consent pages' ordinary units against the same pages without a banner
 * (`bench-consent:`, before the last line; scripts/bench/consent.ts).
 * Then 10,000 calls validated against a tracking plan, and the smallest N audited with a plan
 * against the same audit without one (`bench-plan:`, before the last line; scripts/bench/tracking-plan.ts).
 * Then the report's overview of a run of 400 page × viewports, built with no browser
 * (`bench-overview:`, before the last line; scripts/bench/overview.ts).
 * Then the experimentation SDKs' correct pages against bare Playwright doing the same waits
 * (`bench-experiments:`, before the last line; scripts/bench/experiment-sdks.ts).
 * Options: --pages 20,200  --workers 2  --repeat 1  --only variations|realsdk|consent|plan|overview|experiments (that
 * measurement alone, without the rest or the last line), or --only overhead (the table of every N and
 * the last line, without the other measurements)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { stringify } from "yaml";
import { FIXTURE_PORTS, startFixturesUnlessRunning } from "../../fixtures/server.js";
import { vendorSpec } from "../../fixtures/vendors/audit-specs.js";
import { DEFAULTS_INSTALL, LATE_INSTALL, VENDOR_PAGES, VENDORS } from "../../fixtures/vendors/manifest.js";
import type { RunSummary } from "../../src/results/summary.js";
import { measure, median, type Measure } from "./measure.js";
import { consentLine, measureConsent, type ConsentRound } from "./consent.js";
import { experimentsLine, measureExperimentSdks, type ExperimentsRound } from "./experiment-sdks.js";
import { overviewLine, timeOverview, type OverviewTiming } from "./overview.js";
import { measurePlanAudit, planLine, timePlanValidation, type PlanRound } from "./tracking-plan.js";
import { measureVariations, variationsLine, type VariationsRound } from "./variations.js";

const { values } = parseArgs({
  options: {
    pages: { type: "string", default: "20,200" },
    workers: { type: "string", default: "2" },
    repeat: { type: "string", default: "1" },
    only: { type: "string" },
  },
});
const ALONE = ["overhead", "variations", "realsdk", "consent", "plan", "overview", "experiments"] as const;
const only = ALONE.find((name) => name === values.only) ?? null;
if (values.only !== undefined && only === null)
  throw new Error(
    `--only ${values.only}: the measurements that run alone are ${ALONE.map((name) => `"${name}"`).join(" and ")}`,
  );
const sizes = values.pages.split(",").map(Number);
const workers = Number(values.workers);
const rounds = Number(values.repeat);
// The shop as localhost: the service, which serves the SDK and collects from 127.0.0.1, is then
// another host than the site, as it is on real sites (the traffic header goes to the site only).
const demoShop = `http://localhost:${FIXTURE_PORTS.demoShop}`;
const vendorSite = `http://127.0.0.1:${FIXTURE_PORTS.vendors}`;
const consentSite = `http://127.0.0.1:${FIXTURE_PORTS.consent}`;
const service = `http://127.0.0.1:${FIXTURE_PORTS.service}`;

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
    ...Array.from(
      { length: pages },
      (_, index) => `  - { id: p${index}, path: /bench/${index}, expect: { track: [product_viewed] } }`,
    ),
  ];
  return `${lines.join("\n")}\n`;
}

async function apiRequestCount(): Promise<number> {
  const response = await fetch(`${service}/__fixture/requests`);
  return ((await response.json()) as { api: number }).api;
}

// The overview is built from files alone: it needs no fixture.
const fixtures = only === "overview" ? null : await startFixturesUnlessRunning();
const work = mkdtempSync(join(tmpdir(), "setup-audit-bench-"));

/** One round at one N: the bare floor and both audits, run one after the other. */
interface Round {
  bare: Measure;
  audit: Measure;
  auditNoShots: Measure;
  apiCalls: number;
}

async function measureRound(pages: number, label: string): Promise<Round> {
  process.stderr.write(`N=${pages}${label}: bare Playwright…\n`);
  const bare = await measure(["--import", "tsx", "scripts/bench/bare.ts", demoShop, String(pages), String(workers)]);
  const runAudit = async (screenshots: "on" | "off") => {
    const spec = join(work, `bench-${pages}-${screenshots}.yaml`);
    writeFileSync(spec, benchSpec(pages, screenshots));
    process.stderr.write(`N=${pages}${label}: audit, screenshots ${screenshots}…\n`);
    const before = await apiRequestCount();
    const result = await measure([
      "bin/setup-audit.js",
      "run",
      spec,
      "--out",
      join(work, `out-${pages}-${screenshots}`),
      "--workers",
      String(workers),
    ]);
    const summary = JSON.parse(
      readFileSync(join(work, `out-${pages}-${screenshots}`, "summary.json"), "utf8"),
    ) as RunSummary;
    if (summary.verdict !== "pass")
      process.stderr.write(
        `warning: the bench audit did not pass (${summary.findings.filter((finding) => finding.status === "fail").length} failed findings)\n`,
      );
    return { result, apiCalls: (await apiRequestCount()) - before };
  };
  const withShots = await runAudit("on");
  const withoutShots = await runAudit("off");
  return {
    bare,
    audit: withShots.result,
    auditNoShots: withoutShots.result,
    apiCalls: Math.max(withShots.apiCalls, withoutShots.apiCalls),
  };
}

/** The real-SDK pages measured: each vendor's correct page, with its snippet and with a plain script tag. */
const REAL_SDK_PAGES = VENDOR_PAGES.filter(
  (page) => page.variant === "correct" && page.install !== LATE_INSTALL && page.install !== DEFAULTS_INSTALL,
);

/** The real-SDK pages: the audit (one worker, preset specs) and the bare floor, each round one after the other. */
async function measureRealSdk(): Promise<{ bare: Measure; audit: Measure }[]> {
  const measured: { bare: Measure; audit: Measure }[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    process.stderr.write(`real SDKs (round ${round}/${rounds}): bare Playwright…\n`);
    const bare = await measure([
      "--import",
      "tsx",
      "scripts/bench/bare-realsdk.ts",
      vendorSite,
      ...REAL_SDK_PAGES.map((page) => page.path),
    ]);
    const specs = VENDORS.map((vendor) => {
      const file = join(work, `realsdk-${vendor}.yaml`);
      writeFileSync(file, stringify(vendorSpec(vendor, "preset", vendorSite, ["desktop", "mobile"], REAL_SDK_PAGES)));
      return file;
    });
    process.stderr.write(`real SDKs (round ${round}/${rounds}): audit…\n`);
    const audit = await measure([
      "bin/setup-audit.js",
      "run",
      ...specs,
      "--out",
      join(work, "out-realsdk"),
      "--workers",
      "1",
    ]);
    const summary = JSON.parse(readFileSync(join(work, "out-realsdk", "summary.json"), "utf8")) as RunSummary;
    if (summary.verdict !== "pass")
      process.stderr.write(
        `warning: the real-SDK audit did not pass (${summary.findings.filter((finding) => finding.status === "fail").length} failed findings)\n`,
      );
    measured.push({ bare, audit });
  }
  return measured;
}

const rows: { pages: number; rounds: Round[] }[] = [];
let realSdk: { bare: Measure; audit: Measure }[] = [];
let variations: VariationsRound[] = [];
let consent: ConsentRound[] = [];
let planValidation = { wallMs: 0, cpuMs: 0 };
let plan: PlanRound[] = [];
let overview: OverviewTiming | null = null;
let experiments: ExperimentsRound[] = [];
try {
  if (only === null || only === "overhead") {
    for (const pages of sizes) {
      const row = { pages, rounds: [] as Round[] };
      rows.push(row);
      for (let round = 1; round <= rounds; round += 1)
        row.rounds.push(await measureRound(pages, rounds > 1 ? ` (round ${round}/${rounds})` : ""));
    }
  }
  if (only === null || only === "realsdk") realSdk = await measureRealSdk();
  if (only === null || only === "variations") variations = await measureVariations({ demoShop, work, workers, rounds });
  if (only === null || only === "consent") consent = await measureConsent({ site: consentSite, work, workers, rounds });
  if (only === null || only === "plan") {
    planValidation = timePlanValidation();
    plan = await measurePlanAudit({
      work,
      workers,
      rounds,
      event: "product_viewed",
      specText: () => benchSpec(sizes[0]!, "off"),
    });
  }
  if (only === null || only === "overview") overview = timeOverview(work);
  if (only === null || only === "experiments") experiments = await measureExperimentSdks({ work, rounds });
} finally {
  rmSync(work, { recursive: true, force: true });
  await fixtures?.close();
}

/** A run's figures over the rounds: median wall time, highest peak memory, median ratio to its own round's floor. */
const summarize = (row: (typeof rows)[number], run: "bare" | "audit" | "auditNoShots") => ({
  wallMs: median(row.rounds.map((round) => round[run].wallMs)),
  peakRss: Math.max(...row.rounds.map((round) => round[run].peakRss)),
  ratios: row.rounds.map((round) => round[run].wallMs / round.bare.wallMs),
});
const perPage = (wallMs: number, pages: number) => wallMs / (pages * 2);
const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;
process.stdout.write(
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${mib(totalmem())}; ${workers} parallel browsers; pages × 2 viewports`,
);
process.stdout.write(rounds > 1 ? `; medians of ${rounds} rounds\n\n` : "\n\n");
if (only === "variations") process.stdout.write(variationsLine(variations));
else if (only === "realsdk") process.stdout.write(realSdkLine());
else if (only === "consent") process.stdout.write(consentLine(consent));
else if (only === "plan") process.stdout.write(planLine(planValidation, plan));
else if (only === "overview") process.stdout.write(overviewLine(overview!));
else if (only === "experiments") process.stdout.write(experimentsLine(experiments));
else printAll(only === null);

/** `bench-realsdk:`: the median ratio audit / bare over the rounds, and each round's. */
function realSdkLine(): string {
  const ratios = realSdk.map((round) => round.audit.wallMs / round.bare.wallMs);
  const seconds = (run: "audit" | "bare") => (median(realSdk.map((round) => round[run].wallMs)) / 1000).toFixed(1);
  return `bench-realsdk: ratio=${median(ratios).toFixed(2)} audit=${seconds("audit")}s bare=${seconds("bare")}s pages=${REAL_SDK_PAGES.length * 2}${rounds > 1 ? ` rounds=${ratios.map((value) => value.toFixed(2)).join(",")}` : ""}\n`;
}

/** The table of every N, then the lines for machines (the other measurements' with `others`), `bench:` last. */
function printAll(others: boolean): void {
  process.stdout.write("N     run                 wall      per page×viewport   peak RSS    ratio\n");
  for (const row of rows) {
    for (const [name, run] of [
      ["bare Playwright", "bare"],
      ["audit, screenshots", "audit"],
      ["audit, no screenshots", "auditNoShots"],
    ] as const) {
      const { wallMs, peakRss, ratios } = summarize(row, run);
      const eachRound =
        rounds > 1 && run !== "bare" ? `   (rounds: ${ratios.map((ratio) => ratio.toFixed(2)).join(" ")})` : "";
      process.stdout.write(
        `${String(row.pages).padEnd(5)} ${name.padEnd(22)} ${(wallMs / 1000).toFixed(1).padStart(6)} s  ${perPage(wallMs, row.pages).toFixed(0).padStart(8)} ms        ${mib(peakRss).padStart(8)}   ${median(ratios).toFixed(2)}${eachRound}\n`,
      );
    }
    process.stdout.write(`      API requests per run: ${Math.max(...row.rounds.map((round) => round.apiCalls))}\n`);
  }
  const largest = rows.at(-1)!;
  const smallest = rows[0]!;
  const ratio = median(summarize(largest, "audit").ratios).toFixed(2);
  const ratioNoShots = median(summarize(largest, "auditNoShots").ratios).toFixed(2);
  const growth = (
    perPage(summarize(largest, "audit").wallMs, largest.pages) /
    perPage(summarize(smallest, "audit").wallMs, smallest.pages)
  ).toFixed(2);
  const memoryGrowth = (summarize(largest, "audit").peakRss / summarize(smallest, "audit").peakRss).toFixed(2);
  process.stdout.write(`\nmemory growth (peak RSS N=${largest.pages} / N=${smallest.pages}, audit): ${memoryGrowth}\n`);
  if (others) {
    process.stdout.write(realSdkLine());
    process.stdout.write(variationsLine(variations));
    process.stdout.write(consentLine(consent));
    process.stdout.write(planLine(planValidation, plan));
    process.stdout.write(overviewLine(overview!));
    process.stdout.write(experimentsLine(experiments));
  }
  process.stdout.write(
    `bench: ratio=${ratio} ratio_noshots=${ratioNoShots} growth=${growth} api_calls=${Math.max(...largest.rounds.map((round) => round.apiCalls))}\n`,
  );
}
