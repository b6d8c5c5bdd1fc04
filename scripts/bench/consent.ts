/**
 * `bench-consent:` what a consent banner costs an audit: the ordinary units (the pages' own, no
 * reject or GPC unit) of an audit with `consent` on the consent fixtures' correct pages
 * (vanilla-cookieconsent and Klaro gating Segment's bundle, both viewports, the signup journey),
 * over the same pages without a consent manager (`/plain/segment`: the SDK ungated) audited
 * without `consent`. Compared on the units' own times summed (`gathered`: the CLI's progress
 * lines), without the run's fixed cost. No target: the difference is the wait for the banner, the
 * quiet window before the answer, the answer, and the SDK loading only after it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { KEYS } from "../../fixtures/vendors/manifest.js";
import type { RunSummary } from "../../src/results/summary.js";
import { measure, median } from "./measure.js";
import { gatheredMs, type GatheredAudit } from "./variations.js";

const JOURNEY = {
  steps: [{ click: "#signup" }, { waitForEvent: "signup_success" }],
  expect: { track: ["signup_success"], identify: true },
};

/** The spec: two pages behind a banner with `consent`, or the same pages without one and without `consent`. */
export function consentBenchSpec(site: string, withConsent: boolean): Record<string, unknown> {
  const paths = withConsent
    ? ["/consent/vcc/segment", "/consent/klaro/segment"]
    : ["/plain/segment", "/plain/segment?again=1"];
  return {
    workspace: "Acme Marketing",
    project: "Consent shop",
    environments: { staging: { key: KEYS.segment.staging, baseUrl: site } },
    sdk: { preset: "segment" },
    ...(withConsent ? { consent: { accept: "auto" } } : {}),
    pages: paths.map((path, index) => ({ id: `p${index + 1}`, path, ...JOURNEY })),
  };
}

/** One round: the pages without a banner, then with it. */
export interface ConsentRound {
  without: GatheredAudit;
  with: GatheredAudit;
}

/** `rounds` rounds of both audits with `workers` parallel browsers; warns on stderr when either audit did not pass. */
export async function measureConsent(options: {
  site: string;
  work: string;
  workers: number;
  rounds: number;
}): Promise<ConsentRound[]> {
  const { site, work, workers, rounds } = options;
  const runAudit = async (withConsent: boolean, label: string): Promise<GatheredAudit> => {
    const name = withConsent ? "consent" : "no-consent";
    const spec = join(work, `bench-${name}.yaml`);
    const out = join(work, `out-${name}`);
    writeFileSync(spec, stringify(consentBenchSpec(site, withConsent)));
    process.stderr.write(
      `consent${label}: audit ${withConsent ? "behind the banners, with consent" : "of the same pages without a banner"}…\n`,
    );
    const { stdout, ...result } = await measure(
      ["bin/setup-audit.js", "run", spec, "--out", out, "--workers", String(workers)],
      { stdout: true },
    );
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as RunSummary;
    if (summary.verdict !== "pass")
      process.stderr.write(
        `warning: the consent bench audit ${name} did not pass (${summary.findings.filter((finding) => finding.status === "fail").length} failed findings)\n`,
      );
    return { ...result, gatheredMs: gatheredMs(stdout) };
  };
  const measured: ConsentRound[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    const label = rounds > 1 ? ` (round ${round}/${rounds})` : "";
    const without = await runAudit(false, label);
    measured.push({ without, with: await runAudit(true, label) });
  }
  return measured;
}

/** The `bench-consent:` line: the median ratio of the units' summed times (with / without) and both audits' figures: what answering a banner costs, with no target. */
export function consentLine(measured: readonly ConsentRound[]): string {
  const ratios = measured.map((round) => round.with.gatheredMs / round.without.gatheredMs);
  const ratio = median(ratios);
  const seconds = (run: "with" | "without", figure: "wallMs" | "gatheredMs") =>
    (median(measured.map((round) => round[run][figure])) / 1000).toFixed(1);
  return (
    [
      `bench-consent: ratio=${ratio.toFixed(2)}`,
      `gathered=${seconds("with", "gatheredMs")}s/${seconds("without", "gatheredMs")}s units=4/4`,
      `wall=${seconds("with", "wallMs")}s/${seconds("without", "wallMs")}s`,
      ...(measured.length > 1 ? [`rounds=${ratios.map((value) => value.toFixed(2)).join(",")}`] : []),
    ].join(" ") + "\n"
  );
}
