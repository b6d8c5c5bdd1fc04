/**
 * `npm run stability`: verdicts that do not change with the machine's load. Audits the broken
 * shop several times, some of them with twice as many workers as cores and a CPU-bound loop per
 * core beside them (a busy CI runner), and
 * compares every finding (check, status, page or goal, viewport, experiment and variation) and
 * every call's delivery (the variation previews' calls too) with the first run's; the spec is
 * audited in full, its experiment's faulty variations included (`experiment.variation`, one
 * finding per variation × viewport). Does the same with the real vendor SDK pages (every
 * vendor's `preset:` and spelled-out specs and the hostile SDKs, both viewports), whose batch
 * timers and late readiness are where load would show; with the consent pages (two consent
 * managers from npm gating Segment's bundle: the correct pages answered by the rules and by
 * selectors, and the planted faults), whose banners and quiet windows are timed; and with
 * GrowthBook's pages (flicker and exposure faults, both viewports, and the page hidden by its
 * anti-flicker snippet's own timer, which must warn however late the first frame), whose frame
 * timings are; and
 * with the single-page apps (Vue and vue-router on the real Segment and PostHog bundles), whose
 * page views are paired with routes by time. Then audits the object-stub page 20 times under the
 * same load and counts its `sdk.order` warnings.
 * Prints what differs and a count; exits 1 when anything does.
 * Options: --runs 5  --busy 3 (how many of the runs use twice the cores and busy loops)
 *          --only GROUP (repeatable): broken-shop, vendors, consent, growthbook, spa, experimentation, object-stub
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { stringify } from "yaml";
import { FIXTURE_PORTS, startFixturesUnlessRunning } from "../fixtures/server.js";
import { VENDOR_SPECS, vendorSpec } from "../fixtures/vendors/audit-specs.js";
import type { RunSummary } from "../src/results/summary.js";
import { e2eSpec, readSummary, runCli } from "../test/e2e/cli.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    busy: { type: "string", default: "3" },
    only: { type: "string", multiple: true },
  },
});
const runs = Number(values.runs);
const busyRuns = Number(values.busy);
const busyWorkers = String(cpus().length * 2);
const work = mkdtempSync(join(tmpdir(), "setup-audit-stability-"));

/** The key of one entry; a second entry with the same identity gets `#2` and so on, instead of overwriting the first. */
function numbered(seen: Map<string, number>, id: string): string {
  const nth = (seen.get(id) ?? 0) + 1;
  seen.set(id, nth);
  return nth === 1 ? id : `${id} #${nth}`;
}

/** Which experiment (and variation, for a preview's findings and calls) an entry is about; empty for the page as it is. */
const previewOf = (entry: { experiment: string | null; variation: string | null }) =>
  entry.variation === null
    ? entry.experiment === null
      ? ""
      : ` [${entry.experiment}]`
    : ` [${entry.experiment ?? "-"} › ${entry.variation}]`;

/** The spec an entry comes from, by file name, for runs of several specs. */
const specOf = (entry: { spec: string }) => basename(entry.spec);

/** The consent unit a finding or a call is about (reject, gpc); empty for the page's own. */
const unitOf = (unit: unknown) => (typeof unit === "string" ? ` (${unit})` : "");

/** A run's verdicts, keyed so that two runs can be compared entry by entry. */
function verdicts(summary: RunSummary): Map<string, string> {
  const entries = new Map<string, string>();
  const seenFindings = new Map<string, number>();
  for (const finding of summary.findings) {
    entries.set(
      numbered(
        seenFindings,
        `finding ${specOf(finding)} ${finding.check} ${finding.page ?? finding.goal ?? "-"} ${finding.viewport ?? "-"}${previewOf(finding)}${unitOf(finding.evidence.unit)}`,
      ),
      finding.status,
    );
  }
  const seenCalls = new Map<string, number>();
  for (const call of summary.calls) {
    const id = `call ${specOf(call)} ${call.page} ${call.viewport}${previewOf(call)}${unitOf(call.unit)} ${call.kind} ${call.kind === "track" ? call.name : "…"}`;
    entries.set(numbered(seenCalls, id), `${call.delivery}${call.beforeSdk ? " before the SDK" : ""}`);
  }
  return entries;
}

/** What a run covers, for the first run's lines: findings, calls, and each variation's `experiment.variation` verdicts. */
function coverage(summary: RunSummary): string {
  const judged = summary.findings.filter((finding) => finding.check === "experiment.variation");
  const byVariation = new Map<string, string[]>();
  for (const finding of judged) {
    const id = `${finding.experiment ?? "-"} › ${finding.variation ?? "-"}`;
    byVariation.set(id, [...(byVariation.get(id) ?? []), `${finding.viewport ?? "-"} ${finding.status}`]);
  }
  const previewCalls = summary.calls.filter((call) => call.variation !== null).length;
  if (judged.length === 0) return `${summary.findings.length} findings, ${summary.calls.length} call deliveries`;
  return [
    `${summary.findings.length} findings (${judged.length} experiment.variation over ${byVariation.size} variation(s)), ${summary.calls.length} call deliveries (${previewCalls} from variation previews)`,
    ...[...byVariation].map(([id, verdicts]) => `  experiment.variation ${id}: ${verdicts.sort().join(", ")}`),
  ].join("\n");
}

async function audit(specs: readonly string[], name: string, workers: string | null): Promise<RunSummary> {
  const out = join(work, name);
  const run = await runCli(["run", ...specs, "--out", out, ...(workers === null ? [] : ["--workers", workers])]);
  if (run.code !== 0 && run.code !== 1)
    throw new Error(`${name}: the audit could not run (exit ${run.code}):\n${run.stdout}${run.stderr}`);
  return readSummary(out);
}

/** Runs `work` with a CPU-bound `node` loop per core beside it, killed once it is done. */
async function withBusyCores<T>(work: () => Promise<T>): Promise<T> {
  const loops: ChildProcess[] = cpus().map(() => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
  try {
    return await work();
  } finally {
    for (const loop of loops) loop.kill("SIGKILL");
  }
}

/**
 * Audits some specs `runs` times, the last `busyRuns` of them with twice the cores and a busy loop
 * per core, and counts the entries that differ from run 1's.
 */
async function repeatedRuns(what: string, specs: readonly string[]): Promise<number> {
  let reference: Map<string, string> | null = null;
  let differing = 0;
  for (let index = 0; index < runs; index++) {
    const workers = index >= runs - busyRuns ? busyWorkers : null;
    const name = `${what.replaceAll(" ", "-")}-${index + 1}`;
    const summary = await (workers === null
      ? audit(specs, name, null)
      : withBusyCores(() => audit(specs, name, workers)));
    const current = verdicts(summary);
    const label = `run ${index + 1}${workers === null ? "" : ` (--workers ${workers}, a busy loop per core)`}`;
    if (reference === null) {
      reference = current;
      process.stdout.write(
        `stability: ${what} ${label}: ${current.size} findings and call deliveries: ${coverage(summary)}\n`,
      );
      continue;
    }
    const keys = new Set([...reference.keys(), ...current.keys()]);
    const changed = [...keys].filter((key) => reference!.get(key) !== current.get(key));
    for (const key of changed)
      process.stdout.write(`  ${label}: ${key}: ${reference.get(key) ?? "absent"} → ${current.get(key) ?? "absent"}\n`);
    process.stdout.write(`stability: ${what} ${label}: ${changed.length} of ${keys.size} differ from run 1\n`);
    differing += changed.length;
  }
  return differing;
}

/** The consent fixture specs (test/e2e/specs/consent-*.yaml): the correct pages, with auto and with selectors, and every planted fault. */
const CONSENT_SPECS = [
  "consent-correct.yaml",
  "consent-selectors.yaml",
  "consent-before-faults.yaml",
  "consent-refusal-faults.yaml",
  "consent-no-banner.yaml",
].map(e2eSpec);

/** The real-SDK fixture specs: every vendor's `preset:` and spelled-out spec, and the hostile SDKs', on both viewports. */
function vendorSpecs(): string[] {
  const origin = `http://127.0.0.1:${FIXTURE_PORTS.vendors}`;
  return VENDOR_SPECS.map(([vendor, style]) => {
    const file = join(work, `${vendor}-${style}.yaml`);
    writeFileSync(file, stringify(vendorSpec(vendor, style, origin, ["desktop", "mobile"])));
    return file;
  });
}

/** The broken-shop spec with only the object-stub page, ten times over, on both viewports: 20 audits of it. */
function objectStubSpec(): string {
  const spec = {
    workspace: "Acme Marketing",
    project: "Broken shop",
    environments: { staging: { key: "prj_broken_staging", baseUrl: "http://127.0.0.1:47413" } },
    sdk: {
      script: "**/sdk/v1/sdk.js",
      global: "expsvc",
      track: "track",
      identify: "identify",
      collect: "**/v1/collect",
      deliveryTimeoutMs: 2500,
    },
    pages: Array.from({ length: 10 }, (_, index) => ({ id: `object-stub-${index + 1}`, path: "/object-stub" })),
  };
  const file = join(work, "object-stub.yaml");
  writeFileSync(file, stringify(spec));
  return file;
}

async function objectStubRuns(): Promise<number> {
  const summary = await audit([objectStubSpec()], "object-stub", busyWorkers);
  const order = summary.findings.filter((finding) => finding.check === "sdk.order");
  const warned = order.filter((finding) => finding.status === "warn").length;
  for (const finding of order.filter((candidate) => candidate.status !== "warn"))
    process.stdout.write(`  ${finding.page} ${finding.viewport}: sdk.order ${finding.status}: ${finding.message}\n`);
  process.stdout.write(
    `stability: object stub with the SDK preloaded: sdk.order warn in ${warned} of ${order.length} audits (--workers ${busyWorkers})\n`,
  );
  return order.length - warned;
}

/** What is audited again and again, by the name `--only` picks it by. */
const GROUPS: Record<string, () => Promise<number>> = {
  "broken-shop": () => repeatedRuns("broken shop", [e2eSpec("broken-shop.yaml")]),
  vendors: () => repeatedRuns("vendor SDK pages", vendorSpecs()),
  consent: () => repeatedRuns("consent pages", CONSENT_SPECS),
  growthbook: () =>
    repeatedRuns(
      "GrowthBook pages",
      ["growthbook-flicker.yaml", "growthbook-exposure.yaml", "growthbook-hidden-timer.yaml"].map(e2eSpec),
    ),
  spa: () => repeatedRuns("single-page apps", [e2eSpec("spa-segment.yaml"), e2eSpec("spa-posthog.yaml")]),
  experimentation: () =>
    repeatedRuns("experimentation SDK pages", [
      e2eSpec("statsig.yaml"),
      e2eSpec("launchdarkly.yaml"),
      e2eSpec("growthbook-flags.yaml"),
      e2eSpec("optimizely.yaml"),
      e2eSpec("amplitude-experiment.yaml"),
      e2eSpec("posthog-flags.yaml"),
    ]),
  "object-stub": objectStubRuns,
};
const chosen = values.only ?? Object.keys(GROUPS);
const unknown = chosen.filter((name) => !(name in GROUPS));
if (unknown.length > 0) {
  process.stderr.write(`stability: no group ${unknown.join(", ")}; the groups are ${Object.keys(GROUPS).join(", ")}\n`);
  process.exit(2);
}

const fixtures = await startFixturesUnlessRunning();
try {
  let differing = 0;
  for (const name of chosen) differing += await GROUPS[name]!();
  process.stdout.write(`stability: ${differing === 0 ? "stable" : `${differing} verdict(s) differ`}\n`);
  process.exitCode = differing === 0 ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
  await fixtures?.close();
}
