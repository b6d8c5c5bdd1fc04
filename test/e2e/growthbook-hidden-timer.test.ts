import { type ChildProcess, spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { HIDDEN_TIMER_MS } from "../../fixtures/sites/growthbook.js";
import type { RunSummary } from "../../src/results/summary.js";
import { e2eSpec, findingOf, readSummary, runCli } from "./cli.js";

/**
 * A page hidden by an anti-flicker snippet held to its own 1.5 s timer (fixtures/sites/growthbook.ts,
 * `/hidden-timer`) warns on both viewports with the page idle and with a CPU-bound loop per core
 * beside the audit: the hidden time counts from when the snippet hid the page, not from the first
 * frame, which a busy machine renders late.
 */
test.describe.configure({ mode: "serial" });

const VIEWPORTS = ["desktop", "mobile"] as const;
/** The busy loops end by themselves after this long, should the test never kill them. */
const BUSY_LOOP_MAX_MS = 300_000;

/** Audits the hidden-timer page into `out` and reads its summary. */
async function auditHiddenTimer(out: string): Promise<RunSummary> {
  const run = await runCli(["run", e2eSpec("growthbook-hidden-timer.yaml"), "--out", out]);
  // A warn is no failure.
  expect(run.code, run.stdout + run.stderr).toBe(0);
  return readSummary(out);
}

/** Runs `work` with a CPU-bound `node` loop per core beside it, killed once it is done. */
async function withBusyCores<T>(work: () => Promise<T>): Promise<T> {
  const loops: ChildProcess[] = [];
  try {
    for (let core = 0; core < availableParallelism(); core++)
      loops.push(
        spawn(process.execPath, ["-e", "for (;;) {}"], {
          stdio: "ignore",
          timeout: BUSY_LOOP_MAX_MS,
          killSignal: "SIGKILL",
        }),
      );
    return await work();
  } finally {
    for (const loop of loops) loop.kill("SIGKILL");
  }
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
    // The snippet hid the page, then set its timer: it cannot have been shown any sooner.
    expect(flicker.evidence.hiddenMs as number, `${label} ${viewport}`).toBeGreaterThanOrEqual(HIDDEN_TIMER_MS);
    expect(flicker.evidence.controlPaintedMs).toBe(0);
    expect(flicker.message).toContain(`the page was hidden for ${flicker.evidence.hiddenMs as number} ms in all`);
  }
}

test("idle, the page hidden by its snippet's timer warns on both viewports, hidden for the timer's time", async ({}, testInfo) => {
  testInfo.setTimeout(300_000);
  expectHiddenWarn(await auditHiddenTimer(join(testInfo.project.outputDir, "hidden-timer-idle")), "idle");
});

test("with a CPU-bound loop per core beside the audit, the same page gives the same verdict: a late first frame does not shorten the hidden time", async ({}, testInfo) => {
  testInfo.setTimeout(300_000);
  const out = join(testInfo.project.outputDir, "hidden-timer-busy");
  expectHiddenWarn(await withBusyCores(() => auditHiddenTimer(out)), "busy");
});
