import { expect, test } from "@playwright/test";
import { sdkKey } from "../../../src/checks/sdk/key.js";
import { sdkOrder } from "../../../src/checks/sdk/order.js";
import { sdkPresent } from "../../../src/checks/sdk/present.js";
import { callWith, collectOf, contextOf, pageWith, twoEnvironments } from "../../support/artifacts.js";

/** A page whose SDK never defined its global while its collect request carried a call (an npm install without one). */
function noGlobalPage(overrides: Parameters<typeof pageWith>[0] = {}) {
  return pageWith({
    sdkScripts: [],
    sdkReadyAtMs: null,
    sdkTagKey: null,
    keySightings: [],
    callsFromNetwork: { reason: "no-global", detail: "window.expsvc" },
    calls: [callWith()],
    collect: [collectOf([callWith()])],
    ...overrides,
  });
}

test.describe("sdk.present", () => {
  test("passes when the script loaded and the global became the SDK", () => {
    const [finding] = sdkPresent.evaluate(contextOf([pageWith()]));
    expect(finding).toMatchObject({ check: "sdk.present", status: "pass", page: "home", viewport: "desktop" });
  });

  test("fails when no request matched the script glob", () => {
    const [finding] = sdkPresent.evaluate(contextOf([pageWith({ sdkScripts: [], sdkReadyAtMs: null })]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("**/sdk/v1/sdk.js");
  });

  test("fails when the script answered an error", () => {
    const page = pageWith({
      sdkScripts: [{ url: "http://x.test/sdk/v1/sdk.js", status: 404, failure: null, atMs: 5 }],
      sdkReadyAtMs: null,
    });
    const [finding] = sdkPresent.evaluate(contextOf([page]));
    expect(finding).toMatchObject({ status: "fail" });
    expect(finding?.message).toContain("HTTP 404");
  });

  test("fails when the script loaded but never defined the global", () => {
    const [finding] = sdkPresent.evaluate(contextOf([pageWith({ sdkReadyAtMs: null })]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("window.expsvc");
  });

  test("warns when the page redefined the global beyond the audit's reach, though the SDK was ready", () => {
    const [finding] = sdkPresent.evaluate(
      contextOf([pageWith({ callsFromNetwork: { reason: "redefined", detail: "window.expsvc" } })]),
    );
    expect(finding?.status).toBe("warn");
    expect(finding?.message).toContain("the page redefined `window.expsvc` beyond the audit's reach");
    expect(finding?.message).toContain("judged from what the collect requests carried");
  });

  test("passes an SDK that became ready although no request matched the script glob: it is bundled with the page's code", () => {
    const [finding] = sdkPresent.evaluate(contextOf([pageWith({ sdkScripts: [] })]));
    expect(finding?.status).toBe("pass");
    expect(finding?.message).toContain("bundled with the page's code");
  });

  test("warns when no global was ever defined but the collect requests show the SDK at work, saying calls were judged from the network", () => {
    const [finding] = sdkPresent.evaluate(contextOf([noGlobalPage()]));
    expect(finding?.status).toBe("warn");
    expect(finding?.message).toContain("never defined `window.expsvc`, yet 1 collect request(s) carried its events");
    expect(finding?.message).toContain("judged from what the collect requests carried");
  });

  test("passes a ready SDK whose page also made calls outside the global, on its own instance, and names them as read from the network", () => {
    const page = pageWith({
      calls: [
        callWith({ kind: "identify", method: "identify", name: "user-123", properties: { plan: "pro" }, atMs: 900 }),
        callWith({ name: "signup_success", atMs: 3500, seenOn: "network" }),
        callWith({ kind: "page", name: "$pageview", atMs: 400, madeBy: "sdk" }),
      ],
    });
    const [finding] = sdkPresent.evaluate(contextOf([page]));
    expect(finding?.status).toBe("pass");
    expect(finding?.message).toContain(
      '1 call(s) were made outside `window.expsvc`, on the SDK\'s own instance (track("signup_success")): they were read from the collect requests that carried them',
    );
    expect(finding?.evidence.outsideGlobal).toEqual(['track("signup_success")']);
  });

  test("says nothing of calls outside the global when every call was read from the network (no global to watch)", () => {
    const [finding] = sdkPresent.evaluate(contextOf([noGlobalPage({ calls: [callWith({ seenOn: "network" })] })]));
    expect(finding?.message).not.toContain("outside");
    expect(finding?.evidence).not.toHaveProperty("outsideGlobal");
  });

  test("skips a page that did not load", () => {
    const [finding] = sdkPresent.evaluate(
      contextOf([pageWith({ loadError: "net::ERR_CONNECTION_REFUSED", sdkScripts: [] })]),
    );
    expect(finding?.status).toBe("skip");
  });
});

test.describe("sdk.order", () => {
  test("passes when every call ran on the ready SDK", () => {
    const [finding] = sdkOrder.evaluate(contextOf([pageWith({ calls: [callWith()] })]));
    expect(finding?.status).toBe("pass");
  });

  test("fails on a call lost before the SDK existed, naming it", () => {
    const page = pageWith({ calls: [callWith({ name: "page_viewed_early", state: "lost", atMs: 12 })] });
    const [finding] = sdkOrder.evaluate(contextOf([page]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain('track("page_viewed_early")');
  });

  test("a page view queued by a snippet (Segment's page()) is events.pageviews' business, not a queued call", () => {
    const pageView = callWith({ kind: "page", method: "page", name: null, properties: null, state: "queued" });
    const [finding] = sdkOrder.evaluate(contextOf([pageWith({ calls: [pageView, callWith()] })]));
    expect(finding).toMatchObject({ status: "pass", message: "All 1 call(s) ran after the SDK loaded." });
  });

  test("warns on a call only queued by the stub", () => {
    const [finding] = sdkOrder.evaluate(
      contextOf([pageWith({ calls: [callWith({ name: "hero_seen", state: "queued" })] })]),
    );
    expect(finding?.status).toBe("warn");
    expect(finding?.message).toContain("hero_seen");
  });

  test("names the method the spec calls the page's track by", () => {
    const page = pageWith({ calls: [callWith({ method: "capture", name: "signup_success", state: "lost" })] });
    const [finding] = sdkOrder.evaluate(contextOf([page]));
    expect(finding?.message).toContain('capture("signup_success")');
    expect(finding?.message).not.toContain("track(");
  });

  test("warns when calls could not be watched and were judged from the network, naming why", () => {
    const page = pageWith({ callsFromNetwork: { reason: "frozen", detail: "hostile.track" }, calls: [callWith()] });
    const [finding] = sdkOrder.evaluate(contextOf([page]));
    expect(finding?.status).toBe("warn");
    expect(finding?.message).toContain("`hostile.track` is frozen");
    expect(finding?.evidence).toMatchObject({ carried: ['track("signup_success")'] });
    const lost = pageWith({
      callsFromNetwork: { reason: "frozen", detail: "hostile.track" },
      calls: [callWith({ state: "lost" })],
    });
    expect(sdkOrder.evaluate(contextOf([lost]))[0]?.status).toBe("fail");
  });

  test("a lost call outweighs a queued one", () => {
    const calls = [callWith({ state: "queued" }), callWith({ state: "lost", name: null })];
    const [finding] = sdkOrder.evaluate(contextOf([pageWith({ calls })]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("track(?)");
  });
});

test.describe("an SDK at work without a global", () => {
  test("sdk.order warns that it could not watch the calls, and why", () => {
    const [finding] = sdkOrder.evaluate(contextOf([noGlobalPage()]));
    expect(finding?.status).toBe("warn");
    expect(finding?.message).toContain(
      "the page never defined `window.expsvc` (an npm install that keeps the SDK in its own scope)",
    );
  });

  test("sdk.key judges the keys its collect requests carried", () => {
    const sightings = (key: string) => [
      { key, where: "collect" as const, detail: "http://127.0.0.1:47411/v1/collect" },
    ];
    expect(
      sdkKey.evaluate(contextOf([noGlobalPage({ keySightings: sightings("prj_demo_staging") })], twoEnvironments))[0]
        ?.status,
    ).toBe("pass");
    const production = sdkKey.evaluate(
      contextOf([noGlobalPage({ keySightings: sightings("prj_demo_prod") })], twoEnvironments),
    )[0];
    expect(production?.status).toBe("fail");
    expect(production?.message).toContain('`prj_demo_prod` (environment "production"\'s key) is in a collect request');
  });
});
