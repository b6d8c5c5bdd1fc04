import { expect, test } from "@playwright/test";
import { knownViewports } from "../../src/browser/viewports.js";
import { formatSpecError, parseSpec, type SpecParseResult } from "../../src/audit-spec/load.js";
import { MINIMAL, minimalWith } from "../support/spec-text.js";

/** The errors of an invalid spec as the CLI prints them, the file always named spec.yaml. */
function printed(result: SpecParseResult): string[] {
  if (result.ok) throw new Error("expected the spec to be invalid");
  return result.errors.map((error) => formatSpecError({ ...error, file: "spec.yaml" }));
}

function parse(text: string): SpecParseResult {
  return parseSpec(text, "spec.yaml", knownViewports());
}

const EXPERIMENT = ["experiments:", "  - name: Pricing CTA copy", "    page: home", '    selector: "#cta"'];
const PRODUCTION = ["  production:", "    key: prj_demo_prod", "    baseUrl: https://shop.example.test"];

test("a preset fills the experimentation SDK's fields, and a field given beside it wins", () => {
  const result = parse(
    minimalWith({ 5: [MINIMAL[4]!, "    experimentKey: client-staging"] }, "experimentSdk:", "  preset: statsig"),
  );
  if (!result.ok) throw new Error(printed(result).join("\n"));
  expect(result.spec.experimentSdk).toEqual({
    preset: "statsig",
    global: "Statsig",
    init: ["StatsigClient"],
    evaluate: ["getFeatureGate", "getExperiment", "getDynamicConfig", "getLayer"],
    exposures: "**/v1/rgstr",
    // Statsig logs a visitor's exposure again on each load: the page is reloaded to see it.
    exposedOnEachLoad: true,
  });
  expect(result.spec.environments.staging!.experimentKey).toBe("client-staging");
  const overridden = parse(
    minimalWith(
      {},
      "experimentSdk:",
      "  preset: statsig",
      "  evaluate: getExperiment",
      '  exposures: "**/events/rgstr"',
    ),
  );
  expect(overridden.ok && overridden.spec.experimentSdk).toMatchObject({
    evaluate: ["getExperiment"],
    exposures: "**/events/rgstr",
  });
});

test("exposures is refused, at the field, for an SDK whose exposures are not read from requests of their own", () => {
  const text = minimalWith({}, "experimentSdk:", "  preset: growthbook", '  exposures: "**/events"');
  expect(printed(parse(text))).toEqual([
    "spec.yaml:18:14 experimentSdk.exposures: the audit reads no exposures of growthbook from requests of their own (it reads those of statsig, launchdarkly, optimizely, amplitude-experiment): remove exposures, or map the exposure call with the experiment's exposure",
  ]);
  const growthbook = parse(minimalWith({}, "experimentSdk:", "  preset: growthbook"));
  expect(growthbook.ok && growthbook.spec.experimentSdk?.exposures).toBeNull();
});

test("an unknown preset names the one meant", () => {
  expect(printed(parse(minimalWith({}, "experimentSdk:", "  preset: statsgi")))).toEqual([
    'spec.yaml:17:11 experimentSdk.preset: must be one of "statsig", "launchdarkly", "optimizely", "amplitude-experiment", "posthog", "growthbook", not text ("statsgi") — did you mean "statsig"?',
  ]);
  expect(printed(parse(minimalWith({}, "experimentSdk:", "  preset: launchdarkley")))[0]).toContain(
    'did you mean "launchdarkly"?',
  );
  expect(printed(parse(minimalWith({}, "experimentSdk:", "  preset: optimizly")))[0]).toContain(
    'did you mean "optimizely"?',
  );
});

test("a flag needs experimentSdk, at the flag", () => {
  expect(printed(parse(minimalWith({}, ...EXPERIMENT, "    flag: pricing_cta")))).toEqual([
    "spec.yaml:20:11 experiments[0].flag: needs experimentSdk: name the SDK that evaluates it (experimentSdk.preset), or leave it out",
  ]);
});

test("an experimentKey needs experimentSdk, and no two environments share one", () => {
  expect(printed(parse(minimalWith({ 5: [MINIMAL[4]!, "    experimentKey: client-staging"] })))).toEqual([
    "spec.yaml:6:20 environments.staging.experimentKey: needs experimentSdk: name the SDK it is the key of (experimentSdk.preset), or leave it out",
  ]);
  const shared = minimalWith(
    {
      5: [MINIMAL[4]!, "    experimentKey: client-staging"],
      6: [MINIMAL[5]!, ...PRODUCTION, "    experimentKey: client-staging"],
    },
    "defaultEnvironment: staging",
    "experimentSdk:",
    "  preset: statsig",
  );
  expect(printed(parse(shared))).toEqual([
    'spec.yaml:11:20 environments.production.experimentKey: is the same key as environment "staging": each environment\'s experimentation SDK must have its own key',
  ]);
});

test("an experimentation SDK on the analytics SDK's own global is refused at experimentSdk, unless it logs its flags through it", () => {
  expect(printed(parse(minimalWith({}, "experimentSdk:", "  preset: statsig", "  global: expsvc")))).toEqual([
    'spec.yaml:16:1 experimentSdk: has sdk\'s global "expsvc": only an experimentation SDK that logs its flags through the analytics SDK (posthog) may be the analytics SDK itself; leave experimentSdk out',
  ]);
});

test("PostHog's flags are read through PostHog itself: its preset needs sdk's to be PostHog", () => {
  expect(printed(parse(minimalWith({}, "experimentSdk:", "  preset: posthog")))).toEqual([
    'spec.yaml:17:11 experimentSdk.preset: "posthog" reads the flags from the analytics SDK\'s own events, but sdk\'s global is "expsvc", not "posthog": set sdk\'s preset to posthog, or pick the experimentation SDK the site runs',
  ]);
  const onPosthog = minimalWith(
    { 8: "  preset: posthog", 9: [], 10: [], 11: [], 12: [] },
    "experimentSdk:",
    "  preset: posthog",
  );
  const result = parse(onPosthog);
  if (!result.ok) throw new Error(printed(result).join("\n"));
  expect(result.spec.experimentSdk).toMatchObject({ preset: "posthog", global: "posthog", init: ["init"] });
  expect(result.spec.sdk.global).toBe("posthog");
});
