import { join } from "node:path";
import { expect, test } from "@playwright/test";
import type { RunSummary } from "../../src/results/summary.js";
import { allowRunOf, e2eSpec, findingOf, readSummary, runCli } from "./cli.js";
import { problemsOf } from "../../src/findings/finding.js";

/** The broken shop: every planted fault is reported with its check id, page, viewport and status. */
test.describe.configure({ mode: "serial" });

let summary: RunSummary;
let stdout: string;

test.beforeAll(async ({}, testInfo) => {
  allowRunOf(testInfo, [e2eSpec("broken-shop.yaml")]);
  const out = join(testInfo.project.outputDir, "broken-shop-run");
  const run = await runCli(["run", e2eSpec("broken-shop.yaml"), "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  stdout = run.stdout;
  summary = readSummary(out);
});

const viewports = ["desktop", "mobile"] as const;

test("the run fails and says what to do next", () => {
  expect(summary.verdict).toBe("fail");
  expect(summary.runs[0]?.verdict).toBe("fail");
  expect(stdout).toContain("Next: fix the failed checks above");
});

test("the correct home page passes every check", () => {
  for (const viewport of viewports) {
    for (const check of ["page.load", "page.errors", "sdk.present", "sdk.order"]) {
      expect(findingOf(summary, check, { page: "home", viewport }).status, `${check} on ${viewport}`).toBe("pass");
    }
  }
});

test("a call before the SDK loaded is lost: sdk.order fails, and the call is listed by name", () => {
  for (const viewport of viewports) {
    const finding = findingOf(summary, "sdk.order", { page: "early-call", viewport });
    expect(finding.status).toBe("fail");
    expect(finding.message).toContain('track("page_viewed_early")');
    expect(findingOf(summary, "page.errors", { page: "early-call", viewport }).status).toBe("warn");
    const call = summary.calls.find((candidate) => candidate.page === "early-call" && candidate.viewport === viewport);
    expect(call).toMatchObject({ kind: "track", name: "page_viewed_early", beforeSdk: true, delivery: "dropped" });
  }
});

test("a call queued by the stub snippet warns and is still delivered", () => {
  for (const viewport of viewports) {
    const finding = findingOf(summary, "sdk.order", { page: "queued-call", viewport });
    expect(finding.status).toBe("warn");
    expect(finding.message).toContain("hero_seen");
    expect(findingOf(summary, "events.delivered", { page: "queued-call", viewport }).status).toBe("pass");
    expect(findingOf(summary, "events.expected", { page: "queued-call", viewport }).status).toBe("pass");
  }
});

test("an event-name near miss fails the goal and the expectation, naming the event that fired", () => {
  for (const viewport of viewports) {
    const goal = findingOf(summary, "goals.match", { goal: "Signup completed", viewport });
    expect(goal.status).toBe("fail");
    expect(goal.message).toContain("`Signup Success`");
    expect(goal.evidence.nearMisses).toEqual(["Signup Success"]);
    const expected = findingOf(summary, "events.expected", { page: "near-miss", viewport });
    expect(expected.status).toBe("fail");
    expect(expected.message).toContain("did you mean `Signup Success`");
  }
});

test("a call lost when the page navigates away is dropped", () => {
  for (const viewport of viewports) {
    expect(findingOf(summary, "events.expected", { page: "navigate-away", viewport }).status).toBe("pass");
    const delivered = findingOf(summary, "events.delivered", { page: "navigate-away", viewport });
    expect(delivered.status).toBe("fail");
    expect(delivered.message).toContain('track("cta_clicked") was never delivered');
    const call = summary.calls.find(
      (candidate) => candidate.page === "navigate-away" && candidate.viewport === viewport,
    );
    expect(call).toMatchObject({ name: "cta_clicked", beforeSdk: false, delivery: "dropped" });
  }
});

test("a call the collector rejects fails events.delivered", () => {
  for (const viewport of viewports) {
    const delivered = findingOf(summary, "events.delivered", { page: "rejected-call", viewport });
    expect(delivered.status).toBe("fail");
    expect(delivered.message).toContain('track("coupon_applied") was rejected by the collector (HTTP 400)');
    expect(findingOf(summary, "page.errors", { page: "rejected-call", viewport }).status).toBe("pass");
  }
});

test("an event that fires on desktop only fails on mobile and passes on desktop", () => {
  expect(findingOf(summary, "events.expected", { page: "desktop-only", viewport: "desktop" }).status).toBe("pass");
  const mobile = findingOf(summary, "events.expected", { page: "desktop-only", viewport: "mobile" });
  expect(mobile.status).toBe("fail");
  expect(mobile.message).toContain("`menu_viewed` did not fire");
});

test("calls made in the SDK's ready callback on a page without expect are waited for: accepted, or rejected where the collector refuses them", () => {
  for (const viewport of viewports) {
    const accepted = summary.calls.find((call) => call.page === "ready-callback" && call.viewport === viewport);
    expect(accepted).toMatchObject({ kind: "track", name: "offers_ready", beforeSdk: false, delivery: "accepted" });
    expect(findingOf(summary, "events.delivered", { page: "ready-callback", viewport }).status).toBe("pass");
    const rejected = summary.calls.find(
      (call) => call.page === "ready-callback-rejected" && call.viewport === viewport,
    );
    expect(rejected).toMatchObject({ name: "coupon_ready", delivery: "rejected" });
    expect(findingOf(summary, "events.delivered", { page: "ready-callback-rejected", viewport }).message).toContain(
      'track("coupon_ready") was rejected by the collector (HTTP 400)',
    );
  }
});

test("a call on a hand-written object stub is queued, though the SDK script was preloaded before the stub ran", () => {
  for (const viewport of viewports) {
    const order = findingOf(summary, "sdk.order", { page: "object-stub", viewport });
    expect(order.status).toBe("warn");
    expect(order.message).toContain('track("offer_seen")');
    expect(findingOf(summary, "events.delivered", { page: "object-stub", viewport }).status).toBe("pass");
  }
});

test("a redirect to a dead host on another domain fails page.domain and page.load, both naming the target", () => {
  for (const viewport of viewports) {
    const domain = findingOf(summary, "page.domain", { page: "offsite-dead", viewport });
    expect(domain.status).toBe("fail");
    expect(domain.message).toContain("for http://localhost:47410/landing");
    const load = findingOf(summary, "page.load", { page: "offsite-dead", viewport });
    expect(load.status).toBe("fail");
    expect(load.message).toContain(
      "it redirected to http://localhost:47410/landing, which failed (net::ERR_CONNECTION_REFUSED)",
    );
  }
});

test("each faulty variation fails (or warns, for overflow) on its viewport, naming why, and passes where it is sound", () => {
  const variation = (name: string, viewport: string) =>
    findingOf(summary, "experiment.variation", { page: "cta-variations", viewport, variation: name });
  for (const viewport of viewports) {
    for (const name of ["Throws on mobile", "Rewritten markup", "Wide banner", "No visible change"]) {
      expect(variation(name, viewport).experiment).toBe("CTA button wording");
    }
    expect(variation("Rewritten markup", viewport).message).toContain(
      "the journey no longer fires `cta_clicked`, which the control fires",
    );
    expect(variation("No visible change", viewport).message).toContain("it changes nothing visible in the target");
    // Only the variation's own finding judges it: the page as it is passes everything.
    expect(findingOf(summary, "events.expected", { page: "cta-variations", viewport }).status).toBe("pass");
    expect(findingOf(summary, "experiment.selector", { page: "cta-variations", viewport }).status).toBe("pass");
  }
  expect(variation("Throws on mobile", "mobile").message).toContain(
    "its js throws \"Cannot set properties of null (setting 'textContent')\" at line 2",
  );
  expect(variation("Throws on mobile", "desktop").status).toBe("pass");
  expect(variation("Wide banner", "mobile").message).toContain(
    "it makes the page wider than the viewport, which the control is not",
  );
  expect(variation("Wide banner", "desktop").status).toBe("pass");
  // The preview's calls are listed with their variation; the faulty markup's journey made none.
  const previewCalls = summary.calls.filter((call) => call.variation !== null);
  expect(previewCalls.every((call) => call.page === "cta-variations" && call.experiment === "CTA button wording")).toBe(
    true,
  );
  // A preview never reaches the service: the audit answers its collect requests.
  expect(new Set(previewCalls.map((call) => call.delivery))).toEqual(new Set(["intercepted"]));
  expect(previewCalls.filter((call) => call.variation === "Rewritten markup")).toEqual([]);
  expect(
    previewCalls
      .filter((call) => call.variation === "Throws on mobile" && call.name === "cta_clicked")
      .map((call) => call.viewport)
      .sort(),
  ).toEqual(["desktop", "mobile"]);
});

test("nothing but the planted faults is reported", () => {
  const reported = problemsOf(summary.findings)
    .map(
      (finding) =>
        `${finding.check} ${finding.status} ${finding.page ?? finding.goal} ${finding.viewport}${finding.variation === null ? "" : ` ${finding.variation}`}`,
    )
    .sort();
  const planted = viewports.flatMap((viewport) => [
    `sdk.order fail early-call ${viewport}`,
    `page.errors warn early-call ${viewport}`,
    `sdk.order warn queued-call ${viewport}`,
    `events.expected fail near-miss ${viewport}`,
    `goals.match fail Signup completed ${viewport}`,
    `events.delivered fail navigate-away ${viewport}`,
    `events.delivered fail rejected-call ${viewport}`,
    `events.delivered fail ready-callback-rejected ${viewport}`,
    `sdk.order warn object-stub ${viewport}`,
    `page.domain fail offsite-dead ${viewport}`,
    `page.load fail offsite-dead ${viewport}`,
    `experiment.variation fail cta-variations ${viewport} Rewritten markup`,
    `experiment.variation fail cta-variations ${viewport} No visible change`,
  ]);
  const mobileOnly = [
    "events.expected fail desktop-only mobile",
    "experiment.variation fail cta-variations mobile Throws on mobile",
    "experiment.variation warn cta-variations mobile Wide banner",
  ];
  expect(reported).toEqual([...planted, ...mobileOnly].sort());
});

test("the checklist shows the goal mismatch and the dropped events", () => {
  expect(summary.runs[0]?.checklist).toMatchObject({
    goalEventMatch: "fail",
    mobileAndDesktop: "pass",
    noWarnings: "fail",
  });
});
