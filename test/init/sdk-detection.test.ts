import { expect, test } from "@playwright/test";
import { detectSdk, genericSdks, matchingPresets } from "../../src/init/sdk-detection.js";
import { globalWith, LOOK_PAGE as PAGE, lookWith, requestWith } from "../support/first-look.js";

/** Which SDK a page installs, judged on first looks written out as data. */

const SEGMENT_SCRIPT = "https://cdn.segment.com/analytics.js/v1/wk1/analytics.min.js";
const segmentGlobal = globalWith({
  name: "analytics",
  methods: ["track", "identify", "page", "load"],
  definedBy: SEGMENT_SCRIPT,
});
const serviceGlobal = globalWith({
  name: "expsvc",
  methods: ["track", "identify", "ready"],
  definedBy: "https://service.example.test/sdk/v1/sdk.js",
});

test("a preset matches by its script and its global with its track method", () => {
  const look = lookWith({
    globals: [segmentGlobal],
    requests: [requestWith(SEGMENT_SCRIPT)],
    readyPresets: ["segment"],
  });
  const [found] = matchingPresets(look);
  expect(found).toMatchObject({ preset: "segment", scriptUrls: [SEGMENT_SCRIPT], ready: true });
  expect(found?.global?.name).toBe("analytics");
});

test("a snippet's stub stands for the preset while its script was requested, not without it", () => {
  const stub = globalWith({
    name: "analytics",
    type: "array",
    methods: ["track", "identify", "page", "load"],
    definedBy: null,
  });
  expect(matchingPresets(lookWith({ globals: [stub], requests: [requestWith(SEGMENT_SCRIPT)] }))[0]).toMatchObject({
    preset: "segment",
    scriptUrls: [SEGMENT_SCRIPT],
  });
  expect(matchingPresets(lookWith({ globals: [stub], requests: [] }))).toEqual([]);
});

test("a self-hosted preset SDK matches by its global and ready marker, without its script glob", () => {
  const selfHosted = globalWith({
    name: "mixpanel",
    methods: ["track", "identify", "people.set", "init"],
    definedBy: "https://shop.example.test/js/mp.js",
  });
  const [found] = matchingPresets(
    lookWith({
      globals: [selfHosted],
      requests: [requestWith("https://shop.example.test/js/mp.js")],
      readyPresets: ["mixpanel"],
    }),
  );
  expect(found).toMatchObject({ preset: "mixpanel", scriptUrls: [], ready: true });
});

test("a global of another name is a preset's only when the preset's script defines it", () => {
  const renamed = globalWith({ name: "segmentAnalytics", methods: ["track", "identify"], definedBy: SEGMENT_SCRIPT });
  expect(
    matchingPresets(lookWith({ globals: [renamed], requests: [requestWith(SEGMENT_SCRIPT)] }))[0]?.global?.name,
  ).toBe("segmentAnalytics");
  const unrelated = globalWith({ name: "tracker", methods: ["track"], definedBy: "https://other.example.test/t.js" });
  expect(matchingPresets(lookWith({ globals: [unrelated], requests: [requestWith(SEGMENT_SCRIPT)] }))).toEqual([]);
});

test("a preset's global name alone, without its script or ready marker, matches no preset", () => {
  const lookalike = globalWith({
    name: "analytics",
    methods: ["track", "identify"],
    definedBy: "https://shop.example.test/own.js",
  });
  expect(matchingPresets(lookWith({ globals: [lookalike] }))).toEqual([]);
  expect(genericSdks(lookWith({ globals: [lookalike] }))[0]?.global.name).toBe("analytics");
});

test("a generic SDK is a global a script defines, with a track-like method; its identify and init methods are named", () => {
  const [found, ...rest] = genericSdks(
    lookWith({
      globals: [
        serviceGlobal,
        globalWith({ name: "helpers", methods: ["format"], definedBy: "https://shop.example.test/app.js" }),
      ],
    }),
  );
  expect(found).toMatchObject({ track: "track", identify: "identify", init: [], thirdParty: true });
  expect(rest).toEqual([]);
  const mixpanelLike = globalWith({
    name: "mp",
    methods: ["init", "track", "people.set"],
    definedBy: "https://cdn.example.test/mp.js",
  });
  expect(genericSdks(lookWith({ globals: [mixpanelLike] }))[0]).toMatchObject({
    track: "track",
    identify: "people.set",
    init: ["init"],
  });
});

test("a stub the page's own inline script defines, or an array, is no SDK", () => {
  const stub = globalWith({ name: "expsvc", type: "array", methods: ["track", "identify", "push"], definedBy: PAGE });
  const inline = globalWith({ name: "queue", methods: ["track"], definedBy: PAGE });
  expect(genericSdks(lookWith({ globals: [stub, inline] }))).toEqual([]);
});

test("an SDK from another origin comes before one the site serves itself", () => {
  const own = globalWith({
    name: "siteTracker",
    methods: ["track", "identify"],
    definedBy: "https://shop.example.test/tracker.js",
  });
  expect(genericSdks(lookWith({ globals: [own, serviceGlobal] })).map((found) => found.global.name)).toEqual([
    "expsvc",
    "siteTracker",
  ]);
});

test("with a preset and another SDK, the preset is chosen and the other is listed, but not the preset's own globals", () => {
  const segmentHelper = globalWith({ name: "AnalyticsNext", methods: ["track"], definedBy: SEGMENT_SCRIPT });
  const detection = detectSdk(
    lookWith({
      globals: [segmentGlobal, segmentHelper, serviceGlobal],
      requests: [requestWith(SEGMENT_SCRIPT)],
      readyPresets: ["segment"],
    }),
  );
  expect(detection.preset?.preset).toBe("segment");
  expect(detection.generic.map((found) => found.global.name)).toEqual(["expsvc"]);
});

test("a page without any SDK gives neither", () => {
  expect(
    detectSdk(
      lookWith({
        globals: [globalWith({ name: "app", methods: ["render"], definedBy: "https://shop.example.test/app.js" })],
      }),
    ),
  ).toEqual({ preset: null, generic: [] });
});

test("a preset whose global the page never defines matches by collect requests that carry events: an npm install without a global", () => {
  const page = requestWith("https://api.segment.io/v1/p", "fetch", {
    method: "POST",
    body: Buffer.from(JSON.stringify({ type: "page", writeKey: "wk_1" })),
  });
  const [found] = matchingPresets(lookWith({ requests: [page] }));
  expect(found).toMatchObject({ preset: "segment", global: null, collectUrls: ["https://api.segment.io/v1/p"] });
  // A request to the collect URL that carried nothing is no sign of the SDK.
  expect(
    matchingPresets(lookWith({ requests: [requestWith("https://api.segment.io/v1/p", "fetch", { method: "POST" })] })),
  ).toEqual([]);
  // With the global there, the global decides: a stub without its script is no match.
  const stub = globalWith({ name: "analytics", type: "array", methods: ["track", "identify"] });
  expect(matchingPresets(lookWith({ globals: [stub], requests: [page] }))).toEqual([]);
});
