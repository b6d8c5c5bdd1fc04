/**
 * `bench-experiments:` the audit of the experimentation SDKs' correct pages (Statsig's shop, the
 * same with the SDK bundled, LaunchDarkly's, Optimizely's, Amplitude Experiment's and PostHog's
 * flags shop, whose clicks PostHog itself batches; both viewports, one worker, experiment.assignment
 * and experiment.exposure judged on each) against bare Playwright doing the same waits on the same pages
 * (scripts/bench/bare-experiments.ts). Target: 1.2 or less. The audit's wall time includes the
 * run's fixed cost (starting Playwright, the report); `gathered` leaves it out: the sum of every
 * page × viewport's own time, as the CLI's progress lines give it, against the same sum of the bare
 * run's, as it prints it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { FIXTURE_PORTS } from "../../fixtures/server.js";
import type { RunSummary } from "../../src/results/summary.js";
import { measure, median } from "./measure.js";
import { gatheredMs, type GatheredAudit } from "./variations.js";

/** The target: the audit at most 20% slower than bare Playwright. */
export const EXPERIMENTS_TARGET = 1.2;

/**
 * Each vendor's spec in test/e2e/specs, its fixture's port, its correct pages (those whose spec
 * clicks the CTA marked), where the SDK logs its exposures when to an endpoint of its own, which the
 * audit waits for too, and where the click's call is delivered when not to the reference SDK's
 * collect (parts of the URLs); `^reload` after the exposures where the SDK logs them again on each
 * load, as the audit then reloads the page.
 */
const SHOPS: { spec: string; port: number; pages: string[]; exposures?: string; collect?: string }[] = [
  // `^reload`: the SDK logs the exposure again on each load, and the audit reloads the page to see it.
  {
    spec: "statsig.yaml",
    port: FIXTURE_PORTS.statsig,
    pages: ["shop", "bundled-shop"],
    exposures: "/v1/rgstr^reload",
  },
  {
    spec: "launchdarkly.yaml",
    port: FIXTURE_PORTS.launchdarkly,
    pages: ["shop"],
    exposures: "/events/bulk/^reload",
  },
  {
    spec: "optimizely.yaml",
    port: FIXTURE_PORTS.optimizely,
    pages: ["shop"],
    exposures: "/logx/v1/events^reload",
  },
  { spec: "amplitude-experiment.yaml", port: FIXTURE_PORTS.amplitudeExperiment, pages: ["shop"] },
  { spec: "posthog-flags.yaml", port: FIXTURE_PORTS.posthogFlags, pages: ["shop"], collect: "/i/v0/e/" },
];

/** A page of a spec, as far as the bench reads it. */
interface SpecPage {
  id: string;
  path: string;
  steps?: unknown[];
}

/**
 * The vendor's spec with its correct pages alone, the experiments on them without their previews
 * (the bare run previews nothing), and the goals of those experiments.
 */
function correctPagesSpec(file: string, pages: readonly string[]): Record<string, unknown> {
  const spec = parse(readFileSync(join("test/e2e/specs", file), "utf8")) as {
    pages: SpecPage[];
    goals: { name: string }[];
    experiments: { page: string; goals: string[]; variations?: unknown[] }[];
  };
  const experiments = spec.experiments.filter((experiment) => pages.includes(experiment.page));
  return {
    ...spec,
    pages: spec.pages.filter((page) => pages.includes(page.id)),
    goals: spec.goals.filter((goal) => experiments.some((experiment) => experiment.goals.includes(goal.name))),
    experiments: experiments.map((experiment) => ({ ...experiment, variations: [] })),
  };
}

/** One round: bare Playwright, then the audit, each with the sum of its page × viewports' own times. */
export interface ExperimentsRound {
  bare: GatheredAudit;
  audit: GatheredAudit;
}

/** `rounds` rounds of both runs, one after the other; the specs and the output go to `work`. */
export async function measureExperimentSdks(options: { work: string; rounds: number }): Promise<ExperimentsRound[]> {
  const { work, rounds } = options;
  const specs = SHOPS.map((shop) => {
    const file = join(work, `experiments-${shop.spec}`);
    writeFileSync(file, stringify(correctPagesSpec(shop.spec, shop.pages)));
    return file;
  });
  const bareArgs = SHOPS.flatMap((shop) => {
    const spec = correctPagesSpec(shop.spec, shop.pages) as { pages: SpecPage[] };
    const click = `!click${shop.collect === undefined ? "" : `=${shop.collect}`}`;
    const exposures = shop.exposures === undefined ? "" : `~${shop.exposures}`;
    return spec.pages.map(
      (page) => `http://127.0.0.1:${shop.port}${page.path}${exposures}${(page.steps ?? []).length > 0 ? click : ""}`,
    );
  });
  const measured: ExperimentsRound[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    const label = rounds > 1 ? ` (round ${round}/${rounds})` : "";
    process.stderr.write(`experimentation SDKs${label}: bare Playwright…\n`);
    const { stdout: unitsMs, ...bare } = await measure(
      ["--import", "tsx", "scripts/bench/bare-experiments.ts", ...bareArgs],
      { stdout: true },
    );
    process.stderr.write(`experimentation SDKs${label}: audit…\n`);
    const out = join(work, "out-experiments");
    const { stdout, ...audit } = await measure(
      ["bin/setup-audit.js", "run", ...specs, "--out", out, "--workers", "1"],
      { stdout: true },
    );
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as RunSummary;
    const assigned = summary.findings.filter(
      (finding) => finding.check === "experiment.assignment" && finding.status === "pass",
    );
    if (summary.verdict !== "pass" || assigned.length !== bareArgs.length * 2)
      process.stderr.write(
        `warning: the experimentation-SDK audit should pass with ${bareArgs.length * 2} assignments; verdict ${summary.verdict}, ${assigned.length} assigned\n`,
      );
    measured.push({
      bare: { ...bare, gatheredMs: Number(unitsMs.trim()) },
      audit: { ...audit, gatheredMs: gatheredMs(stdout) },
    });
  }
  return measured;
}

/** The `bench-experiments:` line: the median wall-time ratio audit / bare and whether it meets the target, the same on the units' own times, and the times. */
export function experimentsLine(measured: readonly ExperimentsRound[]): string {
  const ratios = measured.map((round) => round.audit.wallMs / round.bare.wallMs);
  const gatheredRatios = measured.map((round) => round.audit.gatheredMs / round.bare.gatheredMs);
  const ratio = median(ratios);
  const seconds = (values: number[]) => (median(values) / 1000).toFixed(1);
  return (
    [
      `bench-experiments: ratio=${ratio.toFixed(2)} target=${EXPERIMENTS_TARGET.toFixed(1)} met=${ratio <= EXPERIMENTS_TARGET ? "yes" : "no"}`,
      `audit=${seconds(measured.map((round) => round.audit.wallMs))}s bare=${seconds(measured.map((round) => round.bare.wallMs))}s`,
      `gathered_ratio=${median(gatheredRatios).toFixed(2)} gathered=${seconds(measured.map((round) => round.audit.gatheredMs))}s/${seconds(measured.map((round) => round.bare.gatheredMs))}s`,
      ...(measured.length > 1 ? [`rounds=${ratios.map((value) => value.toFixed(2)).join(",")}`] : []),
    ].join(" ") + "\n"
  );
}
