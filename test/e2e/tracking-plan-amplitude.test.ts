import { join } from "node:path";
import { expect, test } from "@playwright/test";
import type { Finding } from "../../src/findings/finding.js";
import type { RunSummary } from "../../src/results/summary.js";
import { allowRunOf, e2eSpec, readSummary, runCli } from "./cli.js";

/**
 * The plan shop on the real Amplitude bundle (fixtures/vendors/plan-shop.ts), whose #buy tracks
 * with an event object, `amplitude.track({ event_type, event_properties })`: the preset's
 * `sdk.properties` reads the event's name and properties from it, so a fault planted in
 * `event_properties` is reported by plan.properties, with its pointer, on both viewports, and the
 * correct page passes. The identify through Amplitude's Identify builder is judged as well.
 */
test.describe.configure({ mode: "serial" });

const SPEC = e2eSpec("plan-shop-amplitude.yaml");
const VIEWPORTS = ["desktop", "mobile"] as const;

let summary: RunSummary;

test.beforeAll(async ({}, testInfo) => {
  allowRunOf(testInfo, [SPEC]);
  const out = join(testInfo.project.outputDir, "tracking-plan-amplitude-run");
  const run = await runCli(["run", SPEC, "--out", out, "--workers", "2"]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  summary = readSummary(out);
});

const planFindings = (page: string) =>
  summary.findings.filter((finding) => finding.page === page && finding.check.startsWith("plan."));

/** A plan.properties finding as `viewport status event call pointer rule…`. */
function described(finding: Finding): string {
  const violations = (
    finding.evidence as { violations?: { event: string; call: string; pointer: string; rule: string }[] }
  ).violations;
  const what = (violations ?? []).map(({ event, call, pointer, rule }) => `${event} ${call} ${pointer} ${rule}`);
  return [finding.viewport, finding.status, ...what].join(" ");
}

test("a fault in event_properties gives its plan.properties finding on both viewports, its pointer in evidence", () => {
  const faults = {
    "wrong-type": 'fail Order Completed track("Order Completed") /revenue type',
    "missing-key": 'fail Order Completed track("Order Completed") /order_id required',
    "extra-key": 'fail Order Completed track("Order Completed") /coupon additionalProperties',
    "identify-missing-trait": "fail identify traits identify(…) /plan required",
  };
  for (const [page, finding] of Object.entries(faults)) {
    const reported = planFindings(page).filter((found) => found.check === "plan.properties");
    expect(reported.map(described), page).toEqual(VIEWPORTS.map((viewport) => `${viewport} ${finding}`));
  }
});

test("the correct page's event object passes, named by its event_type", () => {
  expect(
    planFindings("correct")
      .map((finding) => `${finding.check} ${finding.viewport} ${finding.status} ${finding.message}`)
      .sort(),
  ).toEqual(
    VIEWPORTS.flatMap((viewport) => [
      `plan.events ${viewport} pass Every track (Order Completed) is in the plan.`,
      `plan.properties ${viewport} pass 2 planned calls (identify traits, Order Completed) carry what the plan says.`,
    ]).sort(),
  );
});
