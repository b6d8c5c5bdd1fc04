import type { ExperimentPreset } from "./experiment-vendor.js";

/**
 * Optimizely Feature Experimentation's JavaScript SDK, `@optimizely/optimizely-sdk` 6 (its UMD
 * build, `dist/optimizely.browser.umd.min.js`, whose global is `optimizelySdk`):
 * `createInstance({ projectConfigManager: createPollingProjectConfigManager({ sdkKey }), … })`
 * makes the client, its key inside a config manager that keeps nothing readable, so the key is the
 * one its datafile names once it is in (`getOptimizelyConfig().sdkKey`). Flags are decided on a
 * user context, `client.createUserContext(userId).decide(flagKey)`, whose decision names the
 * variation (`variationKey`) and the rule that served it (`ruleKey`: an experiment's or a
 * delivery's key, `default-rollout-<id>` for the "Everyone Else" rule); a decision the SDK could not
 * make has no rule and says why in its first `reasons` entry (`No flag was found for key "…".`,
 * `Optimizely SDK not configured properly yet.`). `onReady()` settles once the datafile is in, or
 * the SDK gave up.
 */
export const optimizely: ExperimentPreset = {
  vendor: "Optimizely (@optimizely/optimizely-sdk)",
  global: "optimizelySdk",
  init: ["createInstance"],
  keyOnReady: { method: "getOptimizelyConfig", property: "sdkKey" },
  // The polling manager's default URL template, `https://cdn.optimizely.com/datafiles/%s.json`, or a proxy's that keeps its path.
  keyInUrl: /\/datafiles\/([^/?#]+)\.json(?:[?#]|$)/,
  userContext: "createUserContext",
  evaluate: ["decide"],
  ready: { settles: "onReady" },
  result: {
    variation: ["variationKey"],
    // The rule that served the flag; the SDK's first reason where none did.
    reason: ["ruleKey", "reasons.0"],
    assigned: /^(?!default-rollout-)[\w-]+$/,
    fallbacks: [
      {
        reason: /^No flag was found/,
        means: "the datafile has no such flag (a typo, or a flag of another project or environment)",
      },
      {
        reason: /^default-rollout-/,
        means:
          'no rule served it but the flag\'s "Everyone Else" one: its experiment is not running in this environment, or the visitor is outside its audience',
      },
      { reason: /not configured properly|not ready/i, means: "it was evaluated before the client had its datafile" },
    ],
  },
};
