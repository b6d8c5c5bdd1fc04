import { expect, test } from "@playwright/test";
import type { CapturedCall, ExperimentSdkSeen, SdkTrackedEvent } from "../../src/artifacts/types.js";
import { eventsDelivered } from "../../src/checks/events/delivered.js";
import { eventsDuplicate } from "../../src/checks/events/duplicate.js";
import { goalsMatch } from "../../src/checks/goals/match.js";
import { sdkOrder } from "../../src/checks/sdk/order.js";
import { callRecords } from "../../src/results/run-result.js";
import { callWith, collectOf, contextOf, pageWith, specWith } from "../support/artifacts.js";

/**
 * The calls a page makes through the experimentation SDK's track methods (Optimizely's
 * `trackEvent`): among the page's calls, delivered as the SDK's own requests were answered, judged
 * by goals.match and the events.* checks like the analytics SDK's, and named as that SDK's.
 */
const REFUSAL = "Event key trial_started is not in datafile.";

const spec = specWith({
  experimentSdk: { preset: "optimizely" },
  goals: [
    { name: "CTA clicked", event: "cta_clicked" },
    { name: "Trial started", event: "trial_started" },
  ],
});

const viaSdk = (name: string, overrides: Partial<CapturedCall> = {}): CapturedCall =>
  callWith({ method: "trackEvent", name, properties: null, sdk: "experiment", step: 0, ...overrides });

const sentBy = (name: string, status: number | null, atMs = 1500): SdkTrackedEvent => ({
  name,
  visitor: "visitor-1",
  atMs,
  request: { atMs, status, failure: status === null ? "net::ERR_FAILED" : null },
});

/** A page whose experimentation SDK made `calls` and whose requests carried `tracked`, beside the analytics SDK's `analytics` calls, all delivered. */
function pageOf(calls: CapturedCall[], tracked: SdkTrackedEvent[], analytics: CapturedCall[] = []) {
  const experimentSdk: ExperimentSdkSeen = { inits: [], evaluations: [], exposures: [], tracked, calls };
  const collect = analytics.length === 0 ? [] : [collectOf(analytics, 202)];
  return pageWith({ page: "pricing", calls: analytics, collect, experimentSdk });
}

test("a browser offline held the analytics SDK's call while the experimentation SDK's own request carried its: the offline cause is named on the analytics SDK's calls alone", () => {
  const offline = { webdriver: false, userAgent: "Mozilla/5.0 setup-audit/0.1.0", online: false };
  const held = [callWith({ name: "cta_clicked", atMs: 1300, step: 0 })];
  const experimentSdk = (tracked: SdkTrackedEvent[]): ExperimentSdkSeen => ({
    inits: [],
    evaluations: [],
    exposures: [],
    tracked,
    calls: [viaSdk("trial_started", { atMs: 1200 })],
  });
  const page = pageWith({
    page: "pricing",
    calls: held,
    experimentSdk: experimentSdk([sentBy("trial_started", 204)]),
    visitor: offline,
  });
  const [finding] = eventsDelivered.evaluate(contextOf([page], spec));
  expect(finding).toMatchObject({ status: "fail", evidence: { offline: true } });
  expect(finding?.message).toContain('track("cta_clicked") was never delivered');
  expect(finding?.message).toContain(
    "The page's browser reported itself offline (navigator.onLine was false), and SDKs such as Segment's and Amplitude's hold every call until the browser reports itself online",
  );
  // The experimentation SDK's call rejected beside it: that call's advice, and the held call's cause too.
  const rejected = pageWith({ ...page, experimentSdk: experimentSdk([sentBy("trial_started", 400)]) });
  const [both] = eventsDelivered.evaluate(contextOf([rejected], spec));
  expect(both).toMatchObject({ status: "fail", evidence: { offline: true } });
  expect(both?.message).toMatch(
    /Fix the call's arguments so the collector accepts them\. The page's browser reported itself offline \(navigator\.onLine was false\), and SDKs such as Segment's and Amplitude's hold every call until the browser reports itself online: audit from a machine with a network interface besides loopback\.$/,
  );
  // The experimentation SDK's call alone, never sent: it does not tell the browser's network.
  const alone = pageWith({ page: "pricing", experimentSdk: experimentSdk([]), visitor: offline });
  const [experimentOnly] = eventsDelivered.evaluate(contextOf([alone], spec));
  expect(experimentOnly?.status).toBe("fail");
  expect(experimentOnly?.evidence).not.toHaveProperty("offline");
});

test("a call the SDK's request carried is delivered as it was answered, in time order among the page's calls, and listed as the experimentation SDK's", () => {
  const analytics = [callWith({ name: "cta_clicked", atMs: 1300, step: 0 })];
  const context = contextOf(
    [pageOf([viaSdk("cta_clicked", { atMs: 1200 })], [sentBy("cta_clicked", 204)], analytics)],
    spec,
  );
  const [page] = context.pages;
  expect(page!.calls.map((call) => [call.sdk ?? "analytics", call.delivery])).toEqual([
    ["experiment", "accepted"],
    ["analytics", "accepted"],
  ]);
  // The judged page holds each call once.
  expect(page!.experimentSdk).not.toHaveProperty("calls");
  const records = callRecords({ spec: "audits/demo.yaml", environment: "staging", pages: [...context.pages] });
  expect(records.map((record) => [record.name, record.sdk, record.delivery])).toEqual([
    ["cta_clicked", "experiment", "accepted"],
    ["cta_clicked", "analytics", "accepted"],
  ]);
  expect(eventsDelivered.evaluate(context)[0]?.status).toBe("pass");
  // One event to each SDK for one click: no duplicate.
  expect(eventsDuplicate.evaluate(context)[0]?.status).toBe("pass");
  expect(sdkOrder.evaluate(context)[0]?.message).toBe("All 1 call(s) ran after the SDK loaded.");
});

test("a call the SDK refused fails events.delivered with its reason and advice, about the experimentation SDK", () => {
  const context = contextOf([pageOf([viaSdk("trial_started", { refused: REFUSAL })], [])], spec);
  const [finding] = eventsDelivered.evaluate(context);
  expect(finding?.status).toBe("fail");
  expect(finding?.message).toContain(
    `trackEvent("trial_started") through Optimizely (@optimizely/optimizely-sdk) was never sent: the SDK refused it ("${REFUSAL}")`,
  );
  expect(finding?.message).toContain("Optimizely sends only the events its datafile lists");
  expect(finding?.evidence).toMatchObject({
    sdk: "experiment",
    deliveries: [{ delivery: "dropped", status: null, refused: REFUSAL }],
  });
});

test("a call its requests never carried is dropped, and one its endpoint refused is rejected, with the endpoint's status", () => {
  const context = contextOf(
    [pageOf([viaSdk("cta_clicked"), viaSdk("plan_viewed")], [sentBy("plan_viewed", 400)])],
    spec,
  );
  const [finding] = eventsDelivered.evaluate(context);
  expect(finding?.message).toContain(
    'trackEvent("plan_viewed") through Optimizely (@optimizely/optimizely-sdk) was rejected by its endpoint (HTTP 400)',
  );
  expect(finding?.message).toContain(
    'trackEvent("cta_clicked") through Optimizely (@optimizely/optimizely-sdk) was never delivered',
  );
});

test("a goal's event the SDK refused meets no goal, and goals.match names the refusal; one it sent meets its goal", () => {
  const context = contextOf(
    [pageOf([viaSdk("trial_started", { refused: REFUSAL }), viaSdk("cta_clicked")], [sentBy("cta_clicked", 204)])],
    spec,
  );
  const findings = goalsMatch.evaluate(context);
  expect(findings.map((finding) => [finding.goal, finding.status])).toEqual([
    ["CTA clicked", "pass"],
    ["Trial started", "fail"],
  ]);
  expect(findings[1]?.message).toContain(
    `expects \`trial_started\`, which the pages tracked only through the experimentation SDK on pricing, and it refused to send it ("${REFUSAL}")`,
  );
  expect(findings[1]?.evidence).toMatchObject({ refused: [REFUSAL], pages: ["pricing"] });
});

test("a finding that fails a call of the analytics SDK is not the experimentation SDK's (the run names it the analytics SDK's)", () => {
  const analytics = [callWith({ name: "cta_clicked", step: 0 })];
  const page = pageOf([viaSdk("trial_started", { refused: REFUSAL })], [], []);
  const [finding] = eventsDelivered.evaluate(contextOf([{ ...page, calls: analytics }], spec));
  expect(finding?.status).toBe("fail");
  expect(finding?.evidence).not.toHaveProperty("sdk");
});
