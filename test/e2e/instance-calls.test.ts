import { join } from "node:path";
import { expect, test } from "@playwright/test";
import type { RunSummary } from "../../src/results/summary.js";
import { allowRunOf, e2eSpec, findingOf, readSummary, runCli } from "./cli.js";
import { problemsOf } from "../../src/findings/finding.js";

/**
 * PostHog pages that call the SDK on its instance rather than through `window.posthog`
 * (fixtures/vendors/instance-calls.ts), on the real bundle with its defaults, both viewports. The
 * page that calls only through the instance its `loaded` callback receives has its calls read from
 * the collect requests and judged like any other, and sdk.present says so; the page that kept the
 * global's instance has its calls watched on the global, each once. The SDK's own events (its page
 * views, autocapture) and the properties it adds to every event are no call of the page's.
 */
test.describe.configure({ mode: "serial" });

const VIEWPORTS = ["desktop", "mobile"] as const;

let summary: RunSummary;

test.beforeAll(async ({}, testInfo) => {
  allowRunOf(testInfo, [e2eSpec("instance-posthog.yaml")]);
  const out = join(testInfo.project.outputDir, "instance-calls-run");
  const run = await runCli(["run", e2eSpec("instance-posthog.yaml"), "--out", out, "--workers", "2"]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  summary = readSummary(out);
});

/** The page's track and identify calls on a viewport, as summary.json lists them. */
function callsOf(page: string, viewport: string) {
  return summary.calls
    .filter((call) => call.page === page && call.viewport === viewport && call.kind !== "page")
    .map(({ kind, name, step, delivery, seenOn }) => ({ kind, name, step, delivery, seenOn }));
}

test("calls made only on the instance the `loaded` callback receives are read from the network and judged: the goal, the expected track and identify, the plan", () => {
  for (const viewport of VIEWPORTS) {
    expect(callsOf("loaded", viewport)).toEqual([
      { kind: "identify", name: null, step: null, delivery: "accepted", seenOn: "network" },
      { kind: "track", name: "signup_success", step: 0, delivery: "accepted", seenOn: "network" },
    ]);
    for (const check of [
      "events.expected",
      "identify.attributes",
      "events.duplicate",
      "plan.properties",
      "plan.events",
    ] as const) {
      const found = findingOf(summary, check, { page: "loaded", viewport });
      expect(found.status, `${check} ${viewport}: ${found.message}`).toBe("pass");
    }
    const goal = findingOf(summary, "goals.match", { goal: "Signup completed", viewport });
    expect(goal.status).toBe("pass");
    expect(goal.evidence.pages).toEqual(["loaded", "kept"]);
    const present = findingOf(summary, "sdk.present", { page: "loaded", viewport });
    expect(present.status).toBe("pass");
    expect(present.message).toContain("2 call(s) were made outside `window.posthog`");
  }
});

test("calls on an instance kept from the global are watched on the global, each once", () => {
  for (const viewport of VIEWPORTS) {
    expect(callsOf("kept", viewport)).toEqual([
      { kind: "identify", name: null, step: 0, delivery: "accepted", seenOn: "global" },
      { kind: "track", name: "signup_success", step: 0, delivery: "accepted", seenOn: "global" },
    ]);
    expect(findingOf(summary, "sdk.present", { page: "kept", viewport }).message).not.toContain("outside");
  }
});

test("no check warns or fails on either page", () => {
  expect(
    problemsOf(summary.findings).map(
      (finding) => `${finding.check} ${finding.page} ${finding.viewport}: ${finding.message}`,
    ),
  ).toEqual([]);
});
