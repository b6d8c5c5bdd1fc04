import { expect, test } from "@playwright/test";
import { EXPERIMENT_PRESETS } from "../../src/vendors/experiment-presets.js";
import { urlMatcher } from "../../src/url/glob.js";

/**
 * Each preset's reader of the exposures its SDK logs, on payloads its real bundle sent (the
 * fixtures' shops, trimmed to the fields read), and its glob on the vendor's host and a proxy.
 */

/** @statsig/js-client 3.33.5: a diagnostics event, an experiment's exposure naming its rule, a `logEvent`, a gate's exposure. */
const STATSIG_BATCH = {
  events: [
    { eventName: "statsig::diagnostics", user: { userID: "visitor-1" }, metadata: { context: "initialize" }, time: 1 },
    {
      eventName: "statsig::config_exposure",
      user: { userID: "visitor-1" },
      metadata: { config: "pricing_cta", ruleID: "rule-cta-long", reason: "Network:Recognized" },
      secondaryExposures: [],
      time: 1796377662630,
    },
    { eventName: "cta_clicked", user: { userID: "user-4411" }, value: null, metadata: null, time: 1796377663000 },
    {
      eventName: "statsig::gate_exposure",
      user: {},
      metadata: { gate: "new_nav", gateValue: "true", ruleID: "rule-on" },
      time: 1796377662640,
    },
  ],
  statsigMetadata: { stableID: "9dd3ef65", sdkType: "javascript-client" },
};

/** launchdarkly-js-client-sdk 3.9.5: identify, a flag's feature event, a `track` and the summary. */
const LAUNCHDARKLY_BATCH = [
  { kind: "identify", context: { key: "visitor-1", kind: "user" }, creationDate: 1796377677535 },
  {
    kind: "feature",
    key: "pricing_cta",
    context: { key: "visitor-1", kind: "user" },
    value: "cta-long",
    variation: 1,
    default: "control",
    creationDate: 1796377677566,
    reason: { kind: "FALLTHROUGH", inExperiment: true },
  },
  { kind: "custom", key: "cta_clicked", context: { key: "visitor-1", kind: "user" }, creationDate: 1796377678000 },
  { kind: "summary", features: { pricing_cta: { default: "control", counters: [] } } },
];

/** @optimizely/optimizely-sdk 6.6.1: one visitor's decision, timed by its campaign_activated event, and a conversion. */
const OPTIMIZELY_BATCH = {
  client_name: "javascript-sdk",
  visitors: [
    {
      visitor_id: "visitor-1",
      snapshots: [
        {
          decisions: [
            {
              campaign_id: "25001",
              experiment_id: "24001",
              variation_id: "26002",
              metadata: { flag_key: "pricing_cta", rule_key: "pricing_cta_test", variation_key: "cta_long" },
            },
          ],
          events: [{ entity_id: "25001", timestamp: 1796377685414, key: "campaign_activated" }],
        },
        { events: [{ entity_id: "31001", timestamp: 1796377689000, key: "purchase" }] },
      ],
    },
  ],
};

test("Statsig's exposures name the flag (a gate's value), the rule, and the user or the batch's stable id", () => {
  expect(EXPERIMENT_PRESETS.statsig.exposures!.read(STATSIG_BATCH)).toEqual([
    { flag: "pricing_cta", variation: null, rule: "rule-cta-long", visitor: "visitor-1", madeAt: 1796377662630 },
    { flag: "new_nav", variation: "true", rule: "rule-on", visitor: "9dd3ef65", madeAt: 1796377662640 },
  ]);
});

test("LaunchDarkly's exposures are its feature events: the flag, its value, its reason and the context", () => {
  expect(EXPERIMENT_PRESETS.launchdarkly.exposures!.read(LAUNCHDARKLY_BATCH)).toEqual([
    { flag: "pricing_cta", variation: "cta-long", reason: "FALLTHROUGH", visitor: "visitor-1", madeAt: 1796377677566 },
  ]);
});

test("a client read from the wire has the key its request for values carries: LaunchDarkly's client-side ID, Optimizely's SDK key", () => {
  const keyOf = (preset: "launchdarkly" | "optimizely", url: string) =>
    EXPERIMENT_PRESETS[preset].keyInUrl?.exec(url)?.[1] ?? null;
  const context = Buffer.from('{"kind":"user","key":"visitor-1"}').toString("base64url");
  expect(keyOf("launchdarkly", `https://clientsdk.launchdarkly.com/sdk/evalx/ld-client/contexts/${context}`)).toBe(
    "ld-client",
  );
  // The REPORT form, through a first-party proxy path, and with the reasons asked for.
  expect(keyOf("launchdarkly", "https://shop.example/ld/sdk/evalx/ld-client/context?withReasons=true")).toBe(
    "ld-client",
  );
  expect(keyOf("launchdarkly", "https://shop.example/ld/sdk/goals/ld-client")).toBeNull();
  expect(keyOf("optimizely", "https://cdn.optimizely.com/datafiles/opt-key.json")).toBe("opt-key");
});

test("Optimizely's exposures are its decisions, with the rule that served them, timed by their campaign_activated event; a conversion is none", () => {
  expect(EXPERIMENT_PRESETS.optimizely.exposures!.read(OPTIMIZELY_BATCH)).toEqual([
    {
      flag: "pricing_cta",
      variation: "cta_long",
      reason: "pricing_cta_test",
      visitor: "visitor-1",
      madeAt: 1796377685414,
    },
  ]);
});

/** @amplitude/experiment-js-client 1.23.1 through @amplitude/analytics-browser 2.48.1: Analytics' own events, then the exposure. */
const AMPLITUDE_BATCH = {
  api_key: "amp-analytics-shop-key",
  events: [
    { device_id: "b732a725", event_type: "session_start", time: 1796380770400 },
    {
      device_id: "b732a725",
      event_type: "$exposure",
      time: 1796380770420,
      event_properties: { flag_key: "pricing_cta", experiment_key: "exp-pricing-cta", variant: "cta_long" },
    },
    {
      device_id: "b732a725",
      user_id: "user-4411",
      event_type: "$exposure",
      time: 1796380770500,
      event_properties: { flag_key: "pricing_cta", metadata: { default: true } },
    },
  ],
};

test("Amplitude Experiment's exposures are Analytics' $exposure events: the variant (none on the default one), the user, else the device", () => {
  expect(EXPERIMENT_PRESETS["amplitude-experiment"].exposures!.read(AMPLITUDE_BATCH)).toEqual([
    { flag: "pricing_cta", variation: "cta_long", visitor: "b732a725", madeAt: 1796380770420 },
    { flag: "pricing_cta", variation: null, visitor: "user-4411", madeAt: 1796380770500 },
  ]);
});

test("the events the page tracked through the SDK are read with the id they were sent for; the SDK's own are none", () => {
  expect(EXPERIMENT_PRESETS.statsig.exposures!.tracked(STATSIG_BATCH)).toEqual([
    { name: "cta_clicked", visitor: "user-4411", madeAt: 1796377663000 },
  ]);
  expect(EXPERIMENT_PRESETS.launchdarkly.exposures!.tracked(LAUNCHDARKLY_BATCH)).toEqual([
    { name: "cta_clicked", visitor: "visitor-1", madeAt: 1796377678000 },
  ]);
  expect(EXPERIMENT_PRESETS.optimizely.exposures!.tracked(OPTIMIZELY_BATCH)).toEqual([
    { name: "purchase", visitor: "visitor-1", madeAt: 1796377689000 },
  ]);
});

test("a payload of another shape holds no exposure and no event", () => {
  const { statsig, launchdarkly, optimizely } = EXPERIMENT_PRESETS;
  for (const preset of [statsig, launchdarkly, optimizely, EXPERIMENT_PRESETS["amplitude-experiment"]])
    for (const payload of [null, "text", { events: "none" }, [{ kind: "index", key: "x" }], { visitors: [{}] }])
      expect([preset.exposures!.read(payload), preset.exposures!.tracked(payload)]).toEqual([[], []]);
});

test("each preset's glob matches the vendor's own host and a first-party path that proxies it", () => {
  const urls = {
    statsig: [
      "https://prodregistryv2.org/v1/rgstr?k=client-x&st=javascript-client",
      "https://shop.example/statsig-api/v1/rgstr",
    ],
    launchdarkly: [
      "https://events.launchdarkly.com/events/bulk/ld-client",
      "https://shop.example/ld-events/events/bulk/ld-client",
    ],
    optimizely: ["https://logx.optimizely.com/v1/events", "https://shop.example/optimizely/logx/v1/events"],
    "amplitude-experiment": ["https://api2.amplitude.com/2/httpapi", "https://shop.example/amp-api/2/httpapi"],
  } as const;
  for (const [name, [vendor, proxy]] of Object.entries(urls)) {
    const matches = urlMatcher(EXPERIMENT_PRESETS[name as keyof typeof urls].exposures!.url);
    expect([matches(vendor), matches(proxy)], name).toEqual([true, true]);
  }
});
