/**
 * `bench-variations:` the wall time of auditing one page whose experiment has two variations,
 * over the same spec without them. The demo shop's pricing page, both viewports; the variations
 * are sound (one whose js rewrites the CTA's text and css restyles it, one preview link forced by
 * query, which the page applies itself and experiment.flicker samples frame by frame, its
 * filmstrip kept), so each is previewed in full: loaded, SDK awaited, applied, its target seen. Target: 3.3 or less, the control plus
 * two variations plus 10%. Both specs pay the run's fixed cost (starting Playwright, the API
 * phase, the report), which weighs on a one-page audit; `gathered` beside the ratio leaves it
 * out: the sum of every page × viewport's own time, as the CLI's progress lines give it.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import type { PageArtifacts } from "../../src/artifacts/types.js";
import type { RunSummary } from "../../src/results/summary.js";
import { measure, median, type Measure } from "./measure.js";

/** The target: the control and two variations, plus 10%. */
export const VARIATIONS_TARGET = 3.3;

const VARIATIONS = [
  {
    name: "Longer green copy",
    js: 'document.querySelector("#cta-primary").textContent = "Start your free 30-day trial";',
    css: "#cta-primary { background: #1f8a4c; font-weight: 600; }",
  },
  { name: "Preview link", query: { exp_preview: "cta-long" } },
];

/** The spec: the demo shop's pricing page and one experiment on its CTA, with or without the two variations. */
export function variationsSpec(demoShop: string, withVariations: boolean): Record<string, unknown> {
  return {
    workspace: "Acme Marketing",
    project: "Demo shop",
    environments: { staging: { key: "prj_demo_staging", baseUrl: demoShop } },
    sdk: {
      script: "**/sdk/v1/sdk.js",
      global: "expsvc",
      track: "track",
      identify: "identify",
      collect: "**/v1/collect",
    },
    screenshots: "on",
    goals: [{ name: "Signup completed", event: "signup_success" }],
    experiments: [
      {
        name: "Pricing CTA copy, short vs long",
        page: "pricing",
        selector: "#cta-primary",
        goals: ["Signup completed"],
        ...(withVariations ? { variations: VARIATIONS } : {}),
      },
    ],
    pages: [{ id: "pricing", path: "/pricing" }],
  };
}

/** What the flicker sampler cost, from its own account in the saved artifacts: the units it sampled, their frames and its time on their main threads. */
interface SamplingCost {
  units: number;
  frames: number;
  costMs: number;
}

/** One audit: its wall time and peak memory, and the sum of its page × viewport times. */
export interface GatheredAudit extends Measure {
  gatheredMs: number;
}

/** One audit of the variations bench, with what flicker sampling cost in it. */
interface VariationsAudit extends GatheredAudit {
  sampling: SamplingCost;
}

/** One round: the audit without the variations, then with them. */
export interface VariationsRound {
  without: VariationsAudit;
  with: VariationsAudit;
}

/** The sum of the seconds that end the CLI's progress lines (`[ 1/6] spec › page · desktop  gathered, …  1.4 s`), in ms. */
export function gatheredMs(stdout: string): number {
  const seconds = [...stdout.matchAll(/^\[\s*\d+\/\d+\].*\s(\d+(?:\.\d+)?) s$/gm)].map((match) => Number(match[1]));
  return seconds.reduce((total, value) => total + value, 0) * 1000;
}

/** The flicker sampler's own account over some saved pages: the units it sampled, their frames and its main-thread time. */
function samplingCost(pages: readonly Pick<PageArtifacts, "flicker">[]): SamplingCost {
  const sampled = pages.flatMap((page) => (page.flicker ? [page.flicker] : []));
  return {
    units: sampled.length,
    frames: sampled.reduce((total, flicker) => total + flicker.frames.length, 0),
    costMs: sampled.reduce((total, flicker) => total + flicker.costMs, 0),
  };
}

function savedPages(artifactsDir: string): PageArtifacts[] {
  const dir = join(artifactsDir, "pages");
  return readdirSync(dir).map((file) => JSON.parse(readFileSync(join(dir, file), "utf8")) as PageArtifacts);
}

/**
 * `rounds` rounds of both audits, one after the other, with `workers` parallel browsers; the
 * specs and outputs go to `work`. Both keep their artifacts (`--save-artifacts`), which hold the
 * flicker sampler's own account of its cost. Warns on stderr when a variation was not previewed well (its
 * time would then not be a full preview's).
 */
export async function measureVariations(options: {
  demoShop: string;
  work: string;
  workers: number;
  rounds: number;
}): Promise<VariationsRound[]> {
  const { demoShop, work, workers, rounds } = options;
  const runAudit = async (withVariations: boolean, label: string): Promise<VariationsAudit> => {
    const name = withVariations ? "variations" : "no-variations";
    const spec = join(work, `bench-${name}.yaml`);
    const out = join(work, `out-${name}`);
    writeFileSync(spec, stringify(variationsSpec(demoShop, withVariations)));
    process.stderr.write(
      `variations${label}: audit ${withVariations ? `with ${VARIATIONS.length} variations` : "without variations"}…\n`,
    );
    const { stdout, ...result } = await measure(
      ["bin/setup-audit.js", "run", spec, "--out", out, "--workers", String(workers), "--save-artifacts"],
      { stdout: true },
    );
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as RunSummary;
    const judged = summary.findings.filter((finding) => finding.check === "experiment.variation");
    const expected = withVariations ? VARIATIONS.length * 2 : 0;
    const unsound = judged.filter((finding) => finding.status !== "pass");
    if (judged.length !== expected || unsound.length > 0) {
      process.stderr.write(
        `warning: the variations bench expected ${expected} passing experiment.variation findings, got ${judged.length - unsound.length} of ${judged.length}\n`,
      );
      for (const finding of unsound)
        process.stderr.write(`  ${finding.variation} · ${finding.viewport}: ${finding.status}: ${finding.message}\n`);
    }
    return { ...result, gatheredMs: gatheredMs(stdout), sampling: samplingCost(savedPages(join(out, "artifacts"))) };
  };
  const measured: VariationsRound[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    const label = rounds > 1 ? ` (round ${round}/${rounds})` : "";
    const without = await runAudit(false, label);
    measured.push({ without, with: await runAudit(true, label) });
  }
  return measured;
}

/**
 * The `bench-variations:` line: the median of the rounds' wall-time ratios (with / without) and
 * whether it meets the target, the median wall times, the page × viewport units each audit
 * gathered, the same ratio on the units' own times (`gathered`, without the fixed cost), and what
 * the flicker sampling cost over all rounds: its main-thread time per sampled unit and per frame.
 */
export function variationsLine(measured: readonly VariationsRound[]): string {
  const ratios = measured.map((round) => round.with.wallMs / round.without.wallMs);
  const gatheredRatios = measured.map((round) => round.with.gatheredMs / round.without.gatheredMs);
  const ratio = median(ratios);
  const seconds = (run: "with" | "without", figure: "wallMs" | "gatheredMs") =>
    (median(measured.map((round) => round[run][figure])) / 1000).toFixed(1);
  return (
    [
      `bench-variations: ratio=${ratio.toFixed(2)} target=${VARIATIONS_TARGET.toFixed(1)} met=${ratio <= VARIATIONS_TARGET ? "yes" : "no"}`,
      `with=${seconds("with", "wallMs")}s without=${seconds("without", "wallMs")}s`,
      `units=${(1 + VARIATIONS.length) * 2}/2`,
      `gathered_ratio=${median(gatheredRatios).toFixed(2)} gathered=${seconds("with", "gatheredMs")}s/${seconds("without", "gatheredMs")}s`,
      samplingLine(measured.map((round) => round.with.sampling)),
      ...(measured.length > 1 ? [`rounds=${ratios.map((value) => value.toFixed(2)).join(",")}`] : []),
    ].join(" ") + "\n"
  );
}

/** `sampled=UNITS sampling_ms_per_unit=… sampling_ms_per_frame=… frames_per_unit=…`, over every round. */
function samplingLine(costs: readonly SamplingCost[]): string {
  const units = costs.reduce((total, cost) => total + cost.units, 0);
  const frames = costs.reduce((total, cost) => total + cost.frames, 0);
  const costMs = costs.reduce((total, cost) => total + cost.costMs, 0);
  if (units === 0 || frames === 0) return "sampled=0";
  return `sampled=${units} sampling_ms_per_unit=${(costMs / units).toFixed(1)} sampling_ms_per_frame=${(costMs / frames).toFixed(2)} frames_per_unit=${Math.round(frames / units)}`;
}
