import type { ExperimentPreset } from "./experiment-vendor.js";

/**
 * GrowthBook's JavaScript SDK for feature flags, `@growthbook/growthbook` (its UMD build,
 * `dist/bundles/index.min.js`, whose global is `growthbook`): `new growthbook.GrowthBook({ apiHost,
 * clientKey, attributes, trackingCallback })`, then `await gb.init()`. `isOn`, `isOff`,
 * `getFeatureValue` and `evalFeature` all evaluate through the instance's `evalFeature`, whose
 * result says why in `source`: `experiment` where an experiment rule assigned the visitor, `force`
 * for a rollout or targeting rule, `defaultValue` where no rule served, `unknownFeature` for a key
 * the payload does not have (every key before the features are loaded), `prerequisite` and
 * `cyclicPrerequisite` where a prerequisite blocks it. `gb.ready` turns true once the features are
 * in. The auto bundle (`auto.min.js`), which makes its instance itself, is not watched here.
 */
export const growthbook: ExperimentPreset = {
  vendor: "GrowthBook (@growthbook/growthbook)",
  global: "growthbook",
  init: ["GrowthBook"],
  keyProperty: "clientKey",
  evaluate: ["evalFeature"],
  ready: { property: "ready", equals: true },
  result: {
    // The experiment's variation key where an experiment assigned it; the feature's value otherwise.
    variation: ["experimentResult.key", "value"],
    reason: ["source"],
    assigned: /^experiment$/,
    fallbacks: [
      {
        reason: /^unknownFeature$/,
        means: "the SDK connection's payload has no such feature (a typo, or another environment's connection)",
      },
      {
        reason: /^defaultValue$/,
        means:
          "no rule served it: its experiment is not running in this environment, or the visitor is outside its targeting",
      },
      { reason: /^force$/, means: "a rollout or targeting rule served its value before the experiment's rule" },
      { reason: /^(prerequisite|cyclicPrerequisite)$/, means: "a prerequisite feature keeps the visitor out" },
      { reason: /^override$/, means: "an override forced its value" },
    ],
  },
};
