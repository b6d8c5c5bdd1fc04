import { expect, test } from "@playwright/test";
import { detectExperimentSdk, loggingExperimentSdk, withoutExperimentSdk } from "../../src/init/experiment-draft.js";

/** Which experimentation SDK init takes a page's globals for. */
test("an experimentation SDK is told by its global, or by its registry of clients where it is bundled; none by neither, nor by the analytics SDK's own", () => {
  const globals = (...names: string[]) => names.map((name) => ({ name }));
  expect(detectExperimentSdk(globals("expsvc", "Statsig", "__STATSIG__"), [])).toBe("statsig");
  expect(detectExperimentSdk(globals("__STATSIG__"), [])).toBe("statsig");
  expect(detectExperimentSdk(globals("LDClient"), [])).toBe("launchdarkly");
  expect(detectExperimentSdk(globals("growthbook"), [])).toBe("growthbook");
  // GrowthBook's auto bundle, which makes its instance itself, is not the SDK's flags.
  expect(detectExperimentSdk(globals("_growthbook"), [])).toBeNull();
  expect(detectExperimentSdk(globals("expsvc", "analytics"), [])).toBeNull();
  // PostHog's global is its analytics SDK's: a PostHog site is no experimentation SDK by its global.
  expect(detectExperimentSdk(globals("posthog"), [])).toBeNull();
});

test("an SDK bundled with no global or registry (LaunchDarkly or Optimizely from npm) is told by its request for its flags", () => {
  const requests = (...urls: string[]) => urls.map((url) => ({ url }));
  const evalx = "https://shop.example.test/ld/sdk/evalx/ld-client-staging/contexts/eyJraW5kIjoidXNlciJ9";
  expect(detectExperimentSdk([{ name: "expsvc" }], requests("https://shop.example.test/app.js", evalx))).toBe(
    "launchdarkly",
  );
  expect(detectExperimentSdk([], requests("https://clientsdk.launchdarkly.com/sdk/evalx/ld-client/context"))).toBe(
    "launchdarkly",
  );
  // Given its flags by the page, it asks for none: its diagnostics and events carry the ID.
  expect(detectExperimentSdk([], requests("https://shop.example.test/ld-events/events/diagnostic/ld-client"))).toBe(
    "launchdarkly",
  );
  expect(detectExperimentSdk([], requests("https://events.launchdarkly.com/events/bulk/ld-client"))).toBe(
    "launchdarkly",
  );
  // The goals request names the environment too, but no flags were asked for.
  expect(detectExperimentSdk([], requests("https://app.launchdarkly.com/sdk/goals/ld-client-staging"))).toBeNull();
  // Optimizely's datafile names its key, from Optimizely's CDN or a first-party path.
  expect(detectExperimentSdk([], requests("https://cdn.optimizely.com/datafiles/opt-staging-4fJ2.json"))).toBe(
    "optimizely",
  );
  expect(detectExperimentSdk([], requests("https://shop.example.test/optimizely/0/datafiles/opt-1.json?v=2"))).toBe(
    "optimizely",
  );
  expect(detectExperimentSdk([], requests("https://shop.example.test/datafiles/readme.txt"))).toBeNull();
  // A global comes first.
  expect(detectExperimentSdk([{ name: "__STATSIG__" }], requests(evalx))).toBe("statsig");
});

test("the experimentation SDK's globals, and those its script defines (the page's client), are no analytics SDK", () => {
  const ld = "https://shop.example.test/cdn/ldclient.min.js";
  const globals = [
    { name: "LDClient", definedBy: ld },
    { name: "client", definedBy: ld },
    { name: "analytics", definedBy: "https://cdn.segment.com/analytics.js/v1/wk/analytics.min.js" },
    { name: "inline", definedBy: null },
  ];
  expect(withoutExperimentSdk(globals, "launchdarkly").map((global) => global.name)).toEqual(["analytics", "inline"]);
  expect(withoutExperimentSdk(globals, null)).toEqual(globals);
});

test("a bundled SDK's registry takes nothing else of its script: the analytics SDK the same bundle defines stays", () => {
  const bundle = "https://shop.example.test/assets/app.js";
  const globals = [
    { name: "__STATSIG__", definedBy: bundle },
    { name: "analytics", definedBy: bundle },
  ];
  expect(withoutExperimentSdk(globals, "statsig").map((global) => global.name)).toEqual(["analytics"]);
});

test("an analytics SDK that logs flags of its own is looked at for them: PostHog's global, and no other", () => {
  expect(loggingExperimentSdk("posthog")).toBe("posthog");
  expect(loggingExperimentSdk("analytics")).toBeNull();
  expect(loggingExperimentSdk(null)).toBeNull();
});
