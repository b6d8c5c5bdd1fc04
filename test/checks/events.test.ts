import { expect, test } from "@playwright/test";
import { eventsDelivered, eventsExpected } from "../../src/checks/events.js";
import { callWith, collectOf, contextOf, pageWith, specWithApi } from "../support/artifacts.js";

const signup = (overrides: Parameters<typeof pageWith>[0] = {}) => pageWith({ page: "signup", ...overrides });
const identify = callWith({ kind: "identify", name: "u_1", properties: { plan: "pro", account_type: "business" } });

test.describe("events.expected", () => {
  test("passes when every expected call was made", () => {
    const [finding] = eventsExpected.evaluate(contextOf([signup({ calls: [callWith(), identify] })]));
    expect(finding).toMatchObject({ check: "events.expected", status: "pass", page: "signup" });
  });

  test("fails on a missing event and names the near miss", () => {
    const [finding] = eventsExpected.evaluate(contextOf([signup({ calls: [callWith({ name: "Signup Success" }), identify] })]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("did you mean `Signup Success`");
  });

  test("a call lost before the SDK existed satisfies nothing: the near miss the page did make is named", () => {
    const calls = [callWith({ state: "lost" }), callWith({ name: "Signup Success" }), identify, callWith({ kind: "identify", state: "lost" })];
    const [finding] = eventsExpected.evaluate(contextOf([signup({ calls })]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("`signup_success` did not fire (did you mean `Signup Success`, which did?)");
    const [onlyLostIdentify] = eventsExpected.evaluate(contextOf([signup({ calls: [callWith(), callWith({ kind: "identify", state: "lost" })] })]));
    expect(onlyLostIdentify?.message).toContain("no identify call was made");
  });

  test("fails when an expected identify never happened", () => {
    const [finding] = eventsExpected.evaluate(contextOf([signup({ calls: [callWith()] })]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("no identify call");
  });

  test("judges each viewport on its own", () => {
    const findings = eventsExpected.evaluate(
      contextOf([signup({ calls: [callWith(), identify] }), signup({ viewport: "mobile", mobile: true, calls: [identify] })]),
    );
    expect(findings.map((finding) => [finding.viewport, finding.status])).toEqual([["desktop", "pass"], ["mobile", "fail"]]);
  });

  test("skips a page with no expectations", () => {
    const [finding] = eventsExpected.evaluate(contextOf([pageWith()]));
    expect(finding?.status).toBe("skip");
  });
});

test.describe("events.delivered", () => {
  test("passes when every call was accepted", () => {
    const calls = [callWith(), identify];
    const [finding] = eventsDelivered.evaluate(contextOf([signup({ calls, collect: [collectOf(calls, 202)] })]));
    expect(finding?.status).toBe("pass");
  });

  test("fails on a call the collector rejected", () => {
    const calls = [callWith({ name: "coupon_applied" })];
    const [finding] = eventsDelivered.evaluate(contextOf([pageWith({ calls, collect: [collectOf(calls, 400)] })]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain('track("coupon_applied") was rejected by the collector (HTTP 400)');
  });

  test("fails on a call that was never delivered", () => {
    const [finding] = eventsDelivered.evaluate(contextOf([pageWith({ calls: [callWith({ name: "cta_clicked" })] })]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain('track("cta_clicked") was never delivered');
  });

  test("fails on a request that was aborted", () => {
    const calls = [callWith({ name: "cta_clicked" })];
    const [finding] = eventsDelivered.evaluate(contextOf([pageWith({ calls, collect: [collectOf(calls, null, "net::ERR_ABORTED")] })]));
    expect(finding?.message).toContain("net::ERR_ABORTED");
  });

  test("leaves calls lost before the SDK to sdk.order", () => {
    const [finding] = eventsDelivered.evaluate(contextOf([pageWith({ calls: [callWith({ state: "lost" })] })]));
    expect(finding?.status).toBe("skip");
  });
});

test.describe("events.delivered with traffic.collect: intercept", () => {
  const intercepted = (calls: Parameters<typeof collectOf>[0], status: number) => ({ ...collectOf(calls, status), intercepted: true });
  const unreadable = { ...intercepted([], 400), decodeError: "the body could not be decoded: neither JSON, form-encoded JSON nor base64 JSON" };

  test("passes on calls the audit answered inside the browser, saying nothing was sent", () => {
    const calls = [callWith(), identify];
    const [finding] = eventsDelivered.evaluate(contextOf([signup({ calls, collect: [intercepted(calls, 200)] })]));
    expect(finding).toMatchObject({
      status: "pass",
      message: "All 2 call(s) were delivered and accepted by the audit inside the browser (traffic.collect: intercept); nothing was sent to the service.",
      evidence: { deliveries: [expect.objectContaining({ delivery: "intercepted" }), expect.objectContaining({ delivery: "intercepted" })] },
    });
  });

  test("fails on a body the audit could not decode, with the reason and what to do", () => {
    const [finding] = eventsDelivered.evaluate(contextOf([pageWith({ calls: [callWith({ name: "cta_clicked" })], collect: [unreadable] })]));
    expect(finding).toMatchObject({
      status: "fail",
      message:
        "A collect request to /v1/collect could not be read (the body could not be decoded: neither JSON, form-encoded JSON nor base64 JSON), so the audit answered it HTTP 400; " +
        'track("cta_clicked") was never delivered. Make the SDK send JSON, text/plain JSON, form-encoded JSON or gzip, or audit with traffic.collect: send so that the collector judges the payload.',
    });
  });

  test("fails on an undecodable body even when the page made no call", () => {
    const [finding] = eventsDelivered.evaluate(contextOf([pageWith({ collect: [unreadable] })]));
    expect(finding?.status).toBe("fail");
  });

  test("does not warn about unverified ingestion: nothing was sent to ingest", () => {
    const calls = [callWith(), identify];
    const spec = specWithApi({ recentEventsPath: "/v1/projects/{project}/events" });
    const [finding] = eventsDelivered.evaluate(
      contextOf([signup({ calls, collect: [intercepted(calls, 200)] })], { ...spec, traffic: { ...spec.traffic, collect: "intercept" } }),
    );
    expect(finding?.status).toBe("pass");
  });
});
