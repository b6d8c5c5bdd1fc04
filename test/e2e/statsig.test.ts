import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { SLOW_INIT_MS } from "../../fixtures/sites/statsig.js";
import type { RunSummary } from "../../src/results/summary.js";
import { e2eSpec, findingOf, readSummary, runCli } from "./cli.js";

/**
 * Statsig's own browser SDK assigning the visitor (fixtures/sites/statsig.ts): the correct shop
 * pages (its values late, or the SDK bundled into the site's code) pass experiment.assignment and
 * every other check on both viewports; each planted fault is reported by experiment.assignment
 * alone, naming the key, the flag or the SDK's reason.
 */
test.describe.configure({ mode: "serial" });

const VIEWPORTS = ["desktop", "mobile"] as const;
let summary: RunSummary;

test.beforeAll(async ({}, testInfo) => {
  const out = join(testInfo.project.outputDir, "statsig-run");
  const run = await runCli(["run", e2eSpec("statsig.yaml"), "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  summary = readSummary(out);
});

test("each planted assignment fault, and nothing else, is reported on both viewports", () => {
  const reported = summary.findings.filter((finding) => finding.status === "fail" || finding.status === "warn");
  expect(
    reported.map((finding) => `${finding.check} ${finding.status} ${finding.page} ${finding.viewport}`).sort(),
  ).toEqual(
    VIEWPORTS.flatMap((viewport) => [
      `experiment.assignment fail other-key ${viewport}`,
      `experiment.assignment fail unknown-flag ${viewport}`,
      `experiment.assignment fail too-early ${viewport}`,
    ]).sort(),
  );
});

test("each fault names the key, the flag or the SDK's reason", () => {
  for (const viewport of VIEWPORTS) {
    const on = (page: string) => findingOf(summary, "experiment.assignment", { page, viewport });
    expect(on("other-key").message).toContain(
      "was initialised with production's key client-statsig-production instead of staging's client-statsig-staging",
    );
    expect(on("unknown-flag").message).toContain(
      '"checkout_cta" got the SDK\'s fallback, not a variation (reason Network:Unrecognized)',
    );
    // Evaluated as the client was made, before initializeAsync: Statsig's own reason says so.
    expect(on("too-early")).toMatchObject({
      message: expect.stringContaining('"pricing_cta" got the SDK\'s fallback, not a variation (reason Uninitialized)'),
      evidence: { key: "client-statsig-staging", value: null, reason: "Uninitialized" },
    });
  }
});

test("the correct pages' visitor is assigned a variation of the experiment with staging's key, its values late or not, the SDK bundled or not, and the pages pass every check", () => {
  for (const viewport of VIEWPORTS) {
    for (const page of ["shop", "slow-shop", "bundled-shop"]) {
      const assignment = findingOf(summary, "experiment.assignment", { page, viewport });
      expect(assignment).toMatchObject({
        status: "pass",
        evidence: { key: "client-statsig-staging", value: "cta-long", reason: "Network:Recognized" },
      });
      const findings = summary.findings.filter((finding) => finding.page === page && finding.viewport === viewport);
      expect(findings.filter((finding) => finding.status !== "pass" && finding.status !== "skip")).toEqual([]);
    }
    // The page waited for the client's values, answered SLOW_INIT_MS after it asked, before it was done.
    const late = findingOf(summary, "experiment.assignment", { page: "slow-shop", viewport });
    expect(late.evidence.atMs as number).toBeGreaterThan(SLOW_INIT_MS);
  }
});
