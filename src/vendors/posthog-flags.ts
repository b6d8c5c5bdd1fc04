import type { ExperimentPreset } from "./experiment-vendor.js";

/**
 * PostHog's feature flags, in posthog-js itself (the analytics SDK's global, `posthog`): the
 * flags come from its `/flags` endpoint with the project token `posthog.init` was given. Each
 * `getFeatureFlag`, `isFeatureEnabled` or `getFeatureFlagResult` of a flag, once the flags are
 * in, logs a `$feature_flag_called` event (once per flag and value in a session) with the value
 * (`$feature_flag_response`, absent for a flag the project does not have), the reason the flags
 * endpoint gave (`$feature_flag_reason`: "Matched condition set 1") and what went wrong
 * (`$feature_flag_error`: `flag_missing`, `errors_while_computing_flags`, `timeout`…). Asked before
 * the flags are in, it returns `undefined` and logs nothing.
 */
export const posthogFlags: ExperimentPreset = {
  vendor: "PostHog feature flags (posthog-js)",
  global: "posthog",
  init: ["init"],
  evaluate: ["getFeatureFlag", "isFeatureEnabled", "getFeatureFlagResult"],
  logged: {
    event: "$feature_flag_called",
    name: ["event"],
    flag: ["properties.$feature_flag"],
    visitor: ["properties.distinct_id", "distinct_id"],
    values: /\/(flags|decide)\/?(\?|$)/,
    // A flag asked before the flags came, answered from the page's bootstrap. $used_bootstrap_value
    // alone is true of a failed flags request's fallback too.
    bootstrapped: {
      withoutOwnValues: ["properties.$used_bootstrap_value"],
      value: ["properties.$feature_flag_bootstrapped_response"],
    },
    // Its request queue flushes every 3 s.
    flushMs: 5000,
    unseen:
      "PostHog logs no evaluation made before its flags are in (it returns undefined then): evaluate the flag in posthog.onFeatureFlags(…)",
  },
  result: {
    // A multivariate flag's variant; a boolean flag's true or false.
    variation: ["properties.$feature_flag_response"],
    reason: ["properties.$feature_flag_error", "properties.$feature_flag_reason"],
    // The flags endpoint's reason for a value its conditions served (its code, or its description).
    assigned: /^(condition_match|Matched condition set \d+|super_condition_value|Super condition value)$/i,
    // A flags endpoint that gives no reasons (the older /decide) gives a served value none, and the
    // missing flag its error.
    servedWithoutReason: true,
    fallbacks: [
      // A failed answer says so beside flag_missing ("timeout,flag_missing"): the failure first.
      {
        reason: /errors_while_computing_flags|timeout|connection_error|quota_limited|api_error|unknown_error/,
        means: "the flags endpoint failed to answer the flags (the SDK says which way)",
      },
      {
        reason: /flag_missing/,
        means: "the project has no such flag, or it is not active for this environment's project token",
      },
      {
        reason: /^(no_condition_match|No matching condition set|out_of_rollout_bound|Out of rollout bound)/i,
        means: "the flag's conditions or rollout left the visitor out of the experiment",
      },
      { reason: /holdout/i, means: "the visitor is in the flag's holdout group, outside the experiment" },
    ],
  },
};
