import { join } from "node:path";
import { expect, test } from "@playwright/test";
import type { RunSummary } from "../../src/results/summary.js";
import { allowRunOf, e2eSpec, findingOf, readSummary, runCli } from "./cli.js";
import { problemsOf } from "../../src/findings/finding.js";

/**
 * GrowthBook's own bundle applying a visual experiment (fixtures/sites/growthbook.ts): each planted
 * flicker fault is reported with its check id, page, experiment, variation, viewport and status,
 * and nothing else, also a variation applied through the CSSOM or by a client-side redirect; a
 * target never on screen is skipped; the page with the SDK in <head> passes every check on both
 * viewports. The faults' timings are far from the thresholds, and the CSSOM and split-URL pages
 * hold the control on screen for a count of their own frames, not a timer: `npm run stability --
 * --only growthbook` shows the verdicts hold with twice as many browsers as cores and a busy loop
 * per core.
 */
test.describe.configure({ mode: "serial" });

const VIEWPORTS = ["desktop", "mobile"] as const;
let summary: RunSummary;

test.beforeAll(async ({}, testInfo) => {
  allowRunOf(testInfo, [e2eSpec("growthbook-flicker.yaml")]);
  const out = join(testInfo.project.outputDir, "growthbook-flicker-run");
  const run = await runCli(["run", e2eSpec("growthbook-flicker.yaml"), "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  summary = readSummary(out);
});

test("each planted flicker fault, and nothing else, is reported on both viewports", () => {
  const reported = problemsOf(summary.findings);
  expect(
    reported
      .map(
        (finding) =>
          `${finding.check} ${finding.status} ${finding.page} ${finding.experiment} · ${finding.variation} ${finding.viewport}`,
      )
      .sort(),
  ).toEqual(
    VIEWPORTS.flatMap((viewport) => [
      `experiment.flicker fail late CTA copy with the SDK loaded late · Long copy ${viewport}`,
      `experiment.flicker fail anti-flicker-timeout CTA copy past the anti-flicker timeout · Long copy ${viewport}`,
      `experiment.flicker warn hidden-after CTA copy hidden after it is applied · Long copy ${viewport}`,
      `experiment.flicker fail cssom-rule CTA colour by insertRule · Green ${viewport}`,
      `experiment.flicker fail cssom-adopted CTA colour by adoptedStyleSheets · Green ${viewport}`,
      `experiment.flicker fail redirect-painted CTA copy on its own URL · Long copy ${viewport}`,
      // A note no view shows: its change is nothing a visitor sees before the journey.
      `experiment.variation fail never-shown Plan note in closed terms · Long note ${viewport}`,
    ]).sort(),
  );
});

test("the evidence says what each page did: the control painted, the page hidden, and hidden after the variation", () => {
  for (const viewport of VIEWPORTS) {
    const flicker = (page: string) =>
      findingOf(summary, "experiment.flicker", { page, viewport, variation: "Long copy" });
    // The tag is inserted 500 ms after the first frame after load: the control shows until then.
    expect(flicker("late").evidence).toMatchObject({ controlPaintedMs: expect.any(Number), hiddenMs: 0 });
    expect(flicker("late").evidence.controlPaintedMs).toBeGreaterThan(400);
    // The anti-flicker timeout (800 ms) runs out before the payload, which the page releases only
    // after 12 frames of the control: hidden, then the control.
    expect(flicker("anti-flicker-timeout").evidence.hiddenMs).toBeGreaterThan(0);
    expect(flicker("anti-flicker-timeout").evidence.controlPaintedMs).toBeGreaterThan(100);
    expect(flicker("anti-flicker-timeout").message).toContain("The anti-flicker timeout ran out");
    // The inline payload is applied as the bundle runs: hidden from its snippet only until then,
    // before the first frame on a busy machine, no control frame.
    expect(flicker("anti-flicker")).toMatchObject({
      status: "pass",
      evidence: { controlPaintedMs: 0, hiddenAfterAppliedMs: 0 },
    });
    // A snippet that its own count of 90 frames ends: hidden long after the variation is in place.
    expect(flicker("hidden-after").evidence).toMatchObject({ controlPaintedMs: 0 });
    expect(flicker("hidden-after").evidence.hiddenAfterAppliedMs).toBeGreaterThanOrEqual(1000);
    expect(flicker("hidden-after").message).toContain("End the anti-flicker snippet when the variation is in place");
  }
});

test("a variation through the CSSOM or a client-side redirect counts the control painted before it", () => {
  for (const viewport of VIEWPORTS) {
    const flicker = (page: string, variation: string) =>
      findingOf(summary, "experiment.flicker", { page, viewport, variation });
    // Applied by insertRule or adoptedStyleSheets once the control has been on screen for 12
    // frames, without a mutation: the control shows until then.
    for (const page of ["cssom-rule", "cssom-adopted"]) {
      const cssom = flicker(page, "Green");
      expect(cssom.evidence, page).toMatchObject({ hiddenMs: 0, documents: 1 });
      expect(cssom.message, page).toContain(
        `the target showed the control's content for ${cssom.evidence.controlPaintedMs as number} ms before the variation replaced it`,
      );
    }
    // The site's navigate sends the visitor to /cta-long once the control has been on screen for
    // 12 frames: the first document paints it.
    const redirected = flicker("redirect-painted", "Long copy");
    expect(redirected.evidence).toMatchObject({ hiddenMs: 0, documents: 2 });
    expect(redirected.message).toContain(
      `the target showed the control's content for ${redirected.evidence.controlPaintedMs as number} ms before the variation replaced it`,
    );
  }
});

test("a target on screen in no frame before the journey (a note in closed <details>) is skipped for flicker, saying how the frames missed it", () => {
  for (const viewport of VIEWPORTS) {
    const neverShown = findingOf(summary, "experiment.flicker", {
      page: "never-shown",
      viewport,
      variation: "Long note",
    });
    expect(neverShown).toMatchObject({
      status: "skip",
      evidence: { controlPaintedMs: 0, hidden: expect.any(Number), pageHidden: 0 },
    });
    expect(neverShown.message).toContain("not judged, its target was on screen in none of the");
    expect(neverShown.message).toContain("the target was hidden in");
  }
});

test("the page with GrowthBook in <head> passes every check on both viewports, its filmstrip kept", () => {
  for (const viewport of VIEWPORTS) {
    const findings = summary.findings.filter((finding) => finding.page === "head" && finding.viewport === viewport);
    expect(findings.filter((finding) => finding.status !== "pass" && finding.status !== "skip")).toEqual([]);
    for (const check of [
      "page.load",
      "page.errors",
      "sdk.present",
      "sdk.order",
      "events.expected",
      "events.delivered",
      "experiment.selector",
    ]) {
      expect(findingOf(summary, check, { page: "head", viewport }).status, `${check} on ${viewport}`).toBe("pass");
    }
    expect(findingOf(summary, "experiment.variation", { page: "head", viewport, variation: "Long copy" }).status).toBe(
      "pass",
    );
    const flicker = findingOf(summary, "experiment.flicker", { page: "head", viewport, variation: "Long copy" });
    expect(flicker).toMatchObject({ status: "pass", evidence: { controlPaintedMs: 0, hiddenMs: 0 } });
    expect((flicker.evidence.filmstrip as unknown[]).length).toBeGreaterThan(0);
  }
});
