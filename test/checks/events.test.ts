import { expect, test } from "@playwright/test";
import { eventsDelivered } from "../../src/checks/events/delivered.js";
import { eventsExpected } from "../../src/checks/events/expected.js";
import { callWith, collectOf, contextOf, pageWith, specWith, specWithApi } from "../support/artifacts.js";

const signup = (overrides: Parameters<typeof pageWith>[0] = {}) => pageWith({ page: "signup", ...overrides });
const identify = callWith({ kind: "identify", name: "u_1", properties: { plan: "pro", account_type: "business" } });

test.describe("events.expected", () => {
  test("passes when every expected call was made", () => {
    const [finding] = eventsExpected.evaluate(contextOf([signup({ calls: [callWith(), identify] })]));
    expect(finding).toMatchObject({ check: "events.expected", status: "pass", page: "signup" });
  });

  test("fails on a missing event and names the near miss", () => {
    const [finding] = eventsExpected.evaluate(
      contextOf([signup({ calls: [callWith({ name: "Signup Success" }), identify] })]),
    );
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("did you mean `Signup Success`");
  });

  test("a call lost before the SDK existed satisfies nothing: the near miss the page did make is named", () => {
    const calls = [
      callWith({ state: "lost" }),
      callWith({ name: "Signup Success" }),
      identify,
      callWith({ kind: "identify", state: "lost" }),
    ];
    const [finding] = eventsExpected.evaluate(contextOf([signup({ calls })]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("`signup_success` did not fire (did you mean `Signup Success`, which did?)");
    const [onlyLostIdentify] = eventsExpected.evaluate(
      contextOf([signup({ calls: [callWith(), callWith({ kind: "identify", state: "lost" })] })]),
    );
    expect(onlyLostIdentify?.message).toContain("no identify call was made");
  });

  test("fails when an expected identify never happened", () => {
    const [finding] = eventsExpected.evaluate(contextOf([signup({ calls: [callWith()] })]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("no identify call");
  });

  test("judges each viewport on its own", () => {
    const findings = eventsExpected.evaluate(
      contextOf([
        signup({ calls: [callWith(), identify] }),
        signup({ viewport: "mobile", mobile: true, calls: [identify] }),
      ]),
    );
    expect(findings.map((finding) => [finding.viewport, finding.status])).toEqual([
      ["desktop", "pass"],
      ["mobile", "fail"],
    ]);
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
    const [finding] = eventsDelivered.evaluate(
      contextOf([pageWith({ calls, collect: [collectOf(calls, null, "net::ERR_ABORTED")] })]),
    );
    expect(finding?.message).toContain("net::ERR_ABORTED");
  });

  test("a call whose request had no answer yet says so, apart from one no request carried", () => {
    const calls = [callWith({ name: "cta_clicked" })];
    const pending = { ...collectOf(calls, null), atMs: 1200 };
    const [finding] = eventsDelivered.evaluate(contextOf([pageWith({ calls, collect: [pending] })]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain(
      'track("cta_clicked") was never delivered (its request, sent 1200 ms after the page started, had no answer when the page was done)',
    );
  });

  test("leaves calls lost before the SDK to sdk.order", () => {
    const [finding] = eventsDelivered.evaluate(contextOf([pageWith({ calls: [callWith({ state: "lost" })] })]));
    expect(finding?.status).toBe("skip");
  });
});

test.describe("events.delivered when no call left the page: an SDK's bot filter, a browser offline", () => {
  const DESKTOP_UA =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/159.0.8154.6 Safari/537.36";
  const visitor = { webdriver: false, userAgent: `${DESKTOP_UA} setup-audit/0.1.0` };
  const posthog = specWith({ sdk: { preset: "posthog" } });
  const calls = [callWith({ method: "capture" }), identify];
  const FLUSH = "Let the SDK flush before the page navigates away (or use its beacon transport).";

  test("PostHog's filter reads navigator.webdriver: the finding says the calls were dropped as a bot's and names the setting", () => {
    const [finding] = eventsDelivered.evaluate(
      contextOf([signup({ calls, visitor: { ...visitor, webdriver: true } })], posthog),
    );
    expect(finding).toMatchObject({ status: "fail", evidence: { botFilter: "navigator.webdriver was true" } });
    expect(finding?.message).toContain(
      "PostHog (posthog-js) drops the calls of a browser it takes for a bot's, and took the audit's for one (navigator.webdriver was true): set `opt_out_useragent_filter: true` in `posthog.init` where the audit runs",
    );
    expect(finding?.message).not.toContain(FLUSH);
  });

  test("PostHog's filter reads the user agent: a suffix with `bot/` is named, and how to keep it out", () => {
    const [finding] = eventsDelivered.evaluate(
      contextOf([signup({ calls, visitor: { ...visitor, userAgent: `${DESKTOP_UA} qa-bot/2` } })], posthog),
    );
    expect(finding?.message).toContain(
      `(its user agent \`${DESKTOP_UA} qa-bot/2\` has \`bot/\`): set \`opt_out_useragent_filter: true\``,
    );
    expect(finding?.message).toContain(
      "keep `bot/` out of the audit's user agent (its suffix is traffic.userAgentSuffix)",
    );
  });

  test("Mixpanel's crawler list has no setting that keeps the calls, and the finding says so", () => {
    const [finding] = eventsDelivered.evaluate(
      contextOf(
        [signup({ calls, visitor: { ...visitor, userAgent: `${DESKTOP_UA} Chrome-Lighthouse` } })],
        specWith({ sdk: { preset: "mixpanel" } }),
      ),
    );
    expect(finding?.message).toContain(
      "Mixpanel (mixpanel-browser) drops the calls of a browser it takes for a bot's, and took the audit's for one (its user agent",
    );
    expect(finding?.message).toContain(
      "has `chrome-lighthouse`): no setting of the SDK keeps them, or keep `chrome-lighthouse` out of",
    );
  });

  test("without a preset, navigator.webdriver or a headless user agent is named as what bot filters read", () => {
    const headless = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36`;
    const [finding] = eventsDelivered.evaluate(
      contextOf([signup({ calls, visitor: { webdriver: false, userAgent: headless } })]),
    );
    expect(finding?.message).toContain("The page's browser looked automated (its user agent");
    expect(finding?.message).toContain("has `HeadlessChrome`), and SDKs with a bot filter drop such calls");
    const [automated] = eventsDelivered.evaluate(
      contextOf([signup({ calls, visitor: { ...visitor, webdriver: true } })]),
    );
    expect(automated?.evidence).toMatchObject({ botFilter: "navigator.webdriver was true" });
  });

  test("a browser that said it was offline: named when no request carried a call and the SDK holds its calls then", () => {
    const offline = { ...visitor, online: false };
    const segment = specWith({ sdk: { preset: "segment" } });
    const OFFLINE = "The page's browser reported itself offline (navigator.onLine was false), and";
    const [held] = eventsDelivered.evaluate(contextOf([signup({ calls, visitor: offline })], segment));
    expect(held).toMatchObject({ status: "fail", evidence: { offline: true } });
    expect(held?.message).toContain(
      `${OFFLINE} Segment (analytics.js / analytics-next) holds every call until the browser reports itself online: audit from a machine with a network interface besides loopback.`,
    );
    expect(held?.message).not.toContain(FLUSH);
    // Without a preset, the SDK may be one that holds them.
    const [own] = eventsDelivered.evaluate(contextOf([signup({ calls, visitor: offline })]));
    expect(own?.message).toContain(
      `${OFFLINE} SDKs such as Segment's and Amplitude's hold every call until the browser reports itself online`,
    );
    // PostHog sends while offline: its bot filter is what kept the calls of an automated browser.
    const [filtered] = eventsDelivered.evaluate(
      contextOf([signup({ calls, visitor: { ...offline, webdriver: true } })], posthog),
    );
    expect(filtered?.evidence).toMatchObject({ botFilter: "navigator.webdriver was true" });
    expect(filtered?.evidence).not.toHaveProperty("offline");
    // A request carried a call, failed or answered: the calls left the page, and the SDK did not hold them.
    for (const collect of [collectOf([identify], null, "net::ERR_CONNECTION_REFUSED"), collectOf([identify], 202)]) {
      const [sent] = eventsDelivered.evaluate(
        contextOf([signup({ calls, visitor: offline, collect: [collect] })], segment),
      );
      expect(sent?.status).toBe("fail");
      expect(sent?.message).not.toContain(OFFLINE);
      expect(sent?.evidence).not.toHaveProperty("offline");
    }
  });

  test("a visitor's browser, an SDK without a filter, a call that did leave, or artifacts without the signals: the flush advice stays", () => {
    const pages = [
      signup({ calls, visitor }),
      signup({ calls, visitor: { ...visitor, online: true } }),
      signup({ calls }),
      signup({ calls, visitor: null }),
      signup({ calls, visitor: { ...visitor, webdriver: true }, collect: [collectOf([identify], 202)] }),
      signup({
        calls,
        visitor: { ...visitor, webdriver: true },
        collect: [collectOf([identify], null, "net::ERR_CONNECTION_REFUSED")],
      }),
    ];
    for (const page of pages) {
      const [finding] = eventsDelivered.evaluate(contextOf([page], posthog));
      expect(finding?.message).toContain(FLUSH);
      expect(finding?.evidence).not.toHaveProperty("botFilter");
      expect(finding?.evidence).not.toHaveProperty("offline");
    }
    const [segment] = eventsDelivered.evaluate(
      contextOf(
        [signup({ calls, visitor: { ...visitor, webdriver: true } })],
        specWith({ sdk: { preset: "segment" } }),
      ),
    );
    expect(segment?.message).toContain(FLUSH);
  });
});

test.describe("events.delivered with traffic.collect: intercept", () => {
  const intercepted = (calls: Parameters<typeof collectOf>[0], status: number) => ({
    ...collectOf(calls, status),
    intercepted: true,
  });
  const unreadable = {
    ...intercepted([], 400),
    decodeError: "the body could not be decoded: neither JSON, form-encoded JSON nor base64 JSON",
  };

  test("passes on calls the audit answered inside the browser, saying nothing was sent", () => {
    const calls = [callWith(), identify];
    const [finding] = eventsDelivered.evaluate(contextOf([signup({ calls, collect: [intercepted(calls, 200)] })]));
    expect(finding).toMatchObject({
      status: "pass",
      message:
        "All 2 call(s) were delivered and accepted by the audit inside the browser (traffic.collect: intercept); nothing was sent to the service.",
      evidence: {
        deliveries: [
          expect.objectContaining({ delivery: "intercepted" }),
          expect.objectContaining({ delivery: "intercepted" }),
        ],
      },
    });
  });

  test("fails on a body the audit could not decode, with the reason and what to do", () => {
    const [finding] = eventsDelivered.evaluate(
      contextOf([pageWith({ calls: [callWith({ name: "cta_clicked" })], collect: [unreadable] })]),
    );
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
      contextOf([signup({ calls, collect: [intercepted(calls, 200)] })], {
        ...spec,
        traffic: { ...spec.traffic, collect: "intercept" },
      }),
    );
    expect(finding?.status).toBe("pass");
  });
});
