import { expect, test } from "@playwright/test";
import type { RunSummary } from "../../src/results/summary.js";
import { e2eSpec, readSummary, runCli } from "./cli.js";

/**
 * report.warnings through the CLI: report data from the mock service's API (the broken shop's
 * project has a mismatched split, bot traffic and dropped events; the demo shop's is clean) and
 * from an exported JSON file beside the spec. One page per spec keeps the browsers short.
 */

const SRM_CAUSES =
  "some visitors are lost or miscounted in one variation, so its results cannot be trusted — look for a variation that redirects, loads slower or breaks on one viewport.";

/** The report.warnings findings of `spec`, as [status, experiment, message]. */
function reportFindings(summary: RunSummary, spec: string) {
  return summary.findings
    .filter((finding) => finding.spec === spec && finding.check === "report.warnings")
    .map((finding) => [finding.status, finding.experiment, finding.message]);
}

test("the broken shop's report fails on its SRM, its bot traffic and its dropped events, each named; an exported file is judged too", async ({}, testInfo) => {
  const out = testInfo.outputPath("out");
  const broken = e2eSpec("report-broken.yaml");
  const exported = e2eSpec("report-file.yaml");
  const run = await runCli(["run", broken, exported, "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stdout).toMatch(/^API report-broken › staging {2}projects 200 · report 200 {2}2 request\(s\)/m);
  const summary = readSummary(out);

  expect(reportFindings(summary, broken)).toEqual([
    [
      "fail",
      "Checkout button colour, green vs orange",
      'Experiment "Checkout button colour, green vs orange": a sample-ratio mismatch — its visitors do not match the planned split ' +
        `(observed Green 5300, Orange 4700; expected 5000, 5000 for the planned 50% / 50%; χ² = 36.00, df = 1, p = 2.0e-9, below alpha 0.001): ${SRM_CAUSES}`,
    ],
    [
      "fail",
      "Signup headline, benefit vs urgency",
      'Experiment "Signup headline, benefit vs urgency": the service flags bot traffic ("Bot traffic detected: 18% of visitors were filtered out as bots"): ' +
        "visitors it took for bots are filtered out of the results, not dropped — make sure audit and QA traffic is tagged so the service excludes it, and look for crawlers on the experiment's pages.",
    ],
    [
      "fail",
      "Coupon field, open vs collapsed",
      'Experiment "Coupon field, open vs collapsed": the service reports dropped events ("Dropped events: 312 events were over the size limit"): ' +
        "events were lost and never counted, so conversions are missing — this is not bot filtering; check events.delivered on the audited pages and the events' payloads.",
    ],
  ]);
  expect(summary.runs.find((specRun) => specRun.spec === broken)?.checklist).toMatchObject({
    noWarnings: "fail",
    workspace: "pass",
  });
  expect(run.stdout).toContain(
    '✗ FAIL report.warnings [Signup headline, benefit vs urgency]: Experiment "Signup headline, benefit vs urgency": the service flags bot traffic',
  );

  expect(reportFindings(summary, exported)).toEqual([
    [
      "pass",
      "Pricing CTA copy, short vs long",
      expect.stringContaining(
        "the service reports no warning, and the visitors match the planned split (observed Short copy 4980, Long copy 5020;",
      ),
    ],
    [
      "fail",
      "Free-trial banner, 90/10 holdout",
      'Experiment "Free-trial banner, 90/10 holdout": a sample-ratio mismatch — its visitors do not match the planned split ' +
        `(observed Banner 9180, Holdout 820; expected 9000, 1000 for the planned 90% / 10%; χ² = 36.00, df = 1, p = 2.0e-9, below alpha 0.001): ${SRM_CAUSES}`,
    ],
    [
      "skip",
      "Footer newsletter form, inline vs modal",
      'Experiment "Footer newsletter form, inline vs modal": not judged yet: 105 visitors, needs 200 (100 per variation at the planned split) before a sample-ratio mismatch can be told from chance; the service reports no warning.',
    ],
  ]);
  expect(summary.runs.find((specRun) => specRun.spec === exported)?.checklist.noWarnings).toBe("fail");
});

test("the demo shop's clean report passes, read once with the project list", async ({}, testInfo) => {
  const out = testInfo.outputPath("out");
  const spec = e2eSpec("report-demo.yaml");
  const run = await runCli(["run", spec, "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toMatch(/^API report-demo › staging {2}projects 200 · report 200 {2}2 request\(s\)/m);
  expect(run.stdout).toMatch(/✓ No bot\/SRM or dropped-event warning\s+pass/);
  const summary = readSummary(out);
  expect(reportFindings(summary, spec)).toEqual([
    [
      "pass",
      "Pricing CTA copy, short vs long",
      'Experiment "Pricing CTA copy, short vs long": the service reports no warning, and the visitors match the planned split ' +
        "(observed Short copy 5012, Long copy 4988; expected 5000, 5000 for the planned 50% / 50%; χ² = 0.06, df = 1, p = 0.81).",
    ],
  ]);
});
