import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { HIDDEN_TIMER_MS } from "../../fixtures/sites/growthbook.js";
import type { RunSummary } from "../../src/results/summary.js";
import { e2eSpec, findingOf, readSummary, runCli } from "./cli.js";

/**
 * A page hidden by an anti-flicker snippet held to its own 1.5 s timer (fixtures/sites/growthbook.ts,
 * `/hidden-timer`) warns on both viewports, beside the suite's other audits: the hidden time counts
 * from when the snippet hid the page, not from the first frame, which a busy machine renders late.
 * `npm run stability -- --only growthbook` audits it again with a CPU-bound loop per core beside it.
 */
const VIEWPORTS = ["desktop", "mobile"] as const;

/** Audits the hidden-timer page into `out` and reads its summary. */
async function auditHiddenTimer(out: string): Promise<RunSummary> {
  const run = await runCli(["run", e2eSpec("growthbook-hidden-timer.yaml"), "--out", out]);
  // A warn is no failure.
  expect(run.code, run.stdout + run.stderr).toBe(0);
  return readSummary(out);
}

/** On both viewports: experiment.flicker warns, the page hidden at least for the snippet's timer. */
function expectHiddenWarn(summary: RunSummary, label: string): void {
  for (const viewport of VIEWPORTS) {
    const flicker = findingOf(summary, "experiment.flicker", {
      page: "hidden-timer",
      viewport,
      variation: "Long copy",
    });
    test.info().annotations.push({
      type: `${label} ${viewport}`,
      description: `firstFrameMs ${flicker.evidence.firstFrameMs}, hiddenMs ${flicker.evidence.hiddenMs}`,
    });
    expect(flicker.status, `${label} ${viewport}: ${flicker.message}`).toBe("warn");
    // The audit saw the page hidden before its snippet set its timer (a microtask after the script
    // that hid it): it cannot have been shown any sooner.
    expect(flicker.evidence.hiddenMs as number, `${label} ${viewport}`).toBeGreaterThanOrEqual(HIDDEN_TIMER_MS);
    expect(flicker.evidence.controlPaintedMs).toBe(0);
    expect(flicker.message).toContain(`the page was hidden for ${flicker.evidence.hiddenMs as number} ms in all`);
  }
}

test("the page hidden by its snippet's timer warns on both viewports, hidden for the timer's time", async ({}, testInfo) => {
  expectHiddenWarn(await auditHiddenTimer(join(testInfo.project.outputDir, "hidden-timer")), "run");
});
