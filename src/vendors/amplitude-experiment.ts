import type { ExperimentPreset } from "./experiment-vendor.js";

/**
 * Amplitude Experiment's browser SDK, `@amplitude/experiment-js-client` 1 (its UMD build,
 * `dist/experiment-browser.min.js`, whose global is `Experiment`), beside Amplitude Analytics:
 * `Experiment.initializeWithAmplitudeAnalytics(deploymentKey, config)` (or `initialize`) returns
 * the client at once; `await client.fetch()` (or `start()`) gets the visitor's variants, and
 * settles even when the fetch failed. `variant(flagKey)` returns `{ key, value, payload, expKey }`
 * (`metadata.default: true` on the deployment's default variant, served to a visitor outside the
 * experiment), or `{}` (the fallback) for a flag the deployment does not have, before the variants are in, or
 * after a failed fetch: the SDK never says why.
 */
export const amplitudeExperiment: ExperimentPreset = {
  vendor: "Amplitude Experiment (@amplitude/experiment-js-client)",
  global: "Experiment",
  init: ["initializeWithAmplitudeAnalytics", "initialize"],
  evaluate: ["variant"],
  ready: { awaits: ["fetch", "start"] },
  result: {
    variation: ["key", "value"],
    // No reason ever; only the deployment's default variant (a visitor outside the experiment) says so, in `metadata.default`.
    reason: ["metadata.default"],
    // A variant with a key and no `default` mark was served; the empty one and the default are fallbacks.
    assigned: /^$/,
    servedWithoutReason: true,
    fallbacks: [
      {
        reason: /^true$/,
        means:
          "it is the deployment's default variant (metadata.default): the visitor is outside the experiment's audience or rollout, or the flag is off here",
      },
    ],
    unexplained:
      "the deployment has no such flag (a typo, or a flag of another project or deployment), or the variants could not be fetched",
  },
};
