import { join } from "node:path";
import { expect, test } from "@playwright/test";
import type { RunSummary } from "../../src/results/summary.js";
import { allowRunOf, e2eSpec, findingOf, readSummary, runCli } from "./cli.js";
import { problemsOf } from "../../src/findings/finding.js";

/**
 * GrowthBook's own bundle sending its exposure through the service's SDK
 * (fixtures/sites/growthbook.ts): each planted exposure fault is reported with its check id, page,
 * experiment, variation, viewport and status, and nothing else; the correct page passes every
 * check on both viewports. `npm run stability -- --only growthbook` audits the same pages again
 * and again, some runs with twice as many browsers as cores and a busy loop per core.
 */
test.describe.configure({ mode: "serial" });

const VIEWPORTS = ["desktop", "mobile"] as const;
const FOR_VISITOR = "Long copy for its visitor";
const FORCED = "Long copy forced";
let summary: RunSummary;

test.beforeAll(async ({}, testInfo) => {
  allowRunOf(testInfo, [e2eSpec("growthbook-exposure.yaml")]);
  const out = join(testInfo.project.outputDir, "growthbook-exposure-run");
  const run = await runCli(["run", e2eSpec("growthbook-exposure.yaml"), "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  summary = readSummary(out);
});

test("each planted exposure fault, and nothing else, is reported on both viewports", () => {
  const reported = problemsOf(summary.findings);
  expect(
    reported
      .map(
        (finding) =>
          `${finding.check} ${finding.status} ${finding.page} ${finding.variation ?? "as it is"} ${finding.viewport}`,
      )
      .sort(),
  ).toEqual(
    VIEWPORTS.flatMap((viewport) => [
      `experiment.exposure fail exposure-twice as it is ${viewport}`,
      `experiment.exposure fail exposure-twice ${FOR_VISITOR} ${viewport}`,
      `experiment.exposure fail exposure-never as it is ${viewport}`,
      // On the page as it is any variation may be shown: the index it names is judged where the variation is known.
      `experiment.exposure fail exposure-wrong ${FOR_VISITOR} ${viewport}`,
      `experiment.exposure fail exposure-after-goal as it is ${viewport}`,
      `experiment.exposure fail exposure-after-goal ${FOR_VISITOR} ${viewport}`,
      `experiment.exposure fail exposure-rebucketed as it is ${viewport}`,
      // Judged on the variation's frames: the page as it is has none. The control held on screen
      // until the variation renders, or until the redirect, flickers.
      `experiment.exposure fail exposure-early ${FOR_VISITOR} ${viewport}`,
      `experiment.flicker fail exposure-early ${FOR_VISITOR} ${viewport}`,
      `experiment.exposure fail exposure-lost ${FOR_VISITOR} ${viewport}`,
      `experiment.flicker fail exposure-lost ${FOR_VISITOR} ${viewport}`,
      // The page as it is redirects too: its exposure never left.
      `events.delivered fail exposure-lost as it is ${viewport}`,
    ]).sort(),
  );
});

test("each fault says what happened", () => {
  for (const viewport of VIEWPORTS) {
    const asIs = (page: string) =>
      summary.findings.find(
        (finding) =>
          finding.check === "experiment.exposure" &&
          finding.page === page &&
          finding.viewport === viewport &&
          finding.variation === null,
      )!;
    expect(asIs("exposure-twice").message).toContain('it fired 2 times on one page ("cta-long", "cta-long")');
    expect(asIs("exposure-never").message).toContain("it did not fire");
    expect(asIs("exposure-after-goal").message).toContain("it came after the goal's event `pricing_viewed`");
    expect(asIs("exposure-rebucketed").message).toContain(
      'it named another variation after a reload in the same browser ("cta-long", then "control")',
    );
    expect(
      findingOf(summary, "experiment.exposure", { page: "exposure-wrong", viewport, variation: FOR_VISITOR }).message,
    ).toContain('it named "1" instead of the variation\'s id "cta-long"');
    // Sent, then the control kept on screen for 12 frames before the page renders the variation.
    const early = findingOf(summary, "experiment.exposure", {
      page: "exposure-early",
      viewport,
      variation: FOR_VISITOR,
    });
    expect(early.message).toContain("it was exposed before it rendered: made at");
    expect(early.message).toContain("while the target still showed the control's content (frame at");
    expect(early.evidence.controlFrameMs as number).toBeLessThan(early.evidence.appliedAtMs as number);
    // Made on the first document, which left for /cta-long with it still in the SDK's batch.
    const lost = findingOf(summary, "experiment.exposure", { page: "exposure-lost", viewport, variation: FOR_VISITOR });
    expect(lost.message).toContain("it was lost: made at");
    expect(lost.evidence).toMatchObject({ documentStartsMs: [0, expect.any(Number)], lostAtMs: expect.any(Number) });
    expect(lost.evidence.lostAtMs as number).toBeLessThan((lost.evidence.documentStartsMs as number[])[1]!);
  }
});

test("the correct page passes every check on both viewports; GrowthBook's forced preview sends no exposure and is skipped", () => {
  for (const viewport of VIEWPORTS) {
    const findings = summary.findings.filter((finding) => finding.page === "exposure" && finding.viewport === viewport);
    expect(findings.filter((finding) => finding.status !== "pass" && finding.status !== "skip")).toEqual([]);
    const exposure = findings.filter((finding) => finding.check === "experiment.exposure");
    expect(exposure.map((finding) => [finding.variation, finding.status])).toEqual([
      [null, "pass"],
      [FOR_VISITOR, "pass"],
      [FORCED, "skip"],
    ]);
    expect(exposure[0]!.evidence).toMatchObject({ fired: 1, variations: ["cta-long"], afterReload: ["cta-long"] });
    expect(exposure[2]!.message).toContain("sent no `Experiment Viewed` for the forced preview");
    for (const check of [
      "page.load",
      "page.errors",
      "sdk.present",
      "sdk.order",
      "events.expected",
      "events.delivered",
    ]) {
      expect(findingOf(summary, check, { page: "exposure", viewport }).status, `${check} on ${viewport}`).toBe("pass");
    }
    // The reload's exposure is listed as the reload unit's, answered by the audit: the reload is no visit.
    const exposures = summary.calls.filter(
      (call) =>
        call.page === "exposure" &&
        call.viewport === viewport &&
        call.variation === null &&
        call.name === "Experiment Viewed",
    );
    expect(exposures.map((call) => [call.unit, call.delivery])).toEqual([
      ["page", "accepted"],
      ["reload", "intercepted"],
    ]);
  }
});
