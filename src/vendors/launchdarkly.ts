import type { ExperimentPreset } from "./experiment-vendor.js";

/**
 * LaunchDarkly's browser SDK, `launchdarkly-js-client-sdk` (its UMD build, `dist/ldclient.min.js`):
 * `LDClient.initialize(clientSideId, context, options)` returns the client at once; `variation`
 * returns the value alone and `variationDetail` the value, its index and the reason, so each
 * evaluation is read through the client's `afterEvaluation` hook, which gets the detail for both.
 * The reason of a served value is null unless the page set `evaluationReasons`; the fallback's is
 * always `{kind: "ERROR", errorKind: "FLAG_NOT_FOUND"}`, whether the flag is unknown, not available
 * to client-side SDKs, or evaluated before the flags arrived (3.9.5 has no `CLIENT_NOT_READY`).
 * The client emits `initialized` (or `failed`) and then `ready` once its flags are fetched.
 */
export const launchdarkly: ExperimentPreset = {
  vendor: "LaunchDarkly (launchdarkly-js-client-sdk)",
  global: "LDClient",
  init: ["initialize"],
  evaluate: ["variation", "variationDetail"],
  ready: { on: "on", events: ["initialized", "failed"] },
  hook: { add: "addHook", stage: "afterEvaluation", flag: "flagKey" },
  result: {
    // The flag's value; its variation's index where the value is no string, number or boolean.
    variation: ["value", "variationIndex"],
    reason: ["reason.errorKind", "reason.kind"],
    assigned: /^(FALLTHROUGH|RULE_MATCH|TARGET_MATCH)$/,
    servedWithoutReason: true,
    fallbacks: [
      {
        reason: /^FLAG_NOT_FOUND$/,
        means:
          "the environment has no such flag, or does not make it available to client-side SDKs (the flag's 'SDKs using Client-side ID' setting)",
      },
      { reason: /^OFF$/, means: "the flag is off in this environment: every visitor gets its off variation" },
      { reason: /^PREREQUISITE_FAILED$/, means: "a prerequisite flag keeps the visitor out of the experiment" },
      { reason: /^(MALFORMED_FLAG|EXCEPTION|USER_NOT_SPECIFIED)$/, means: "the SDK could not evaluate the flag" },
    ],
  },
};
