import { expect, test } from "@playwright/test";
import { answeredFromBootstrap } from "../../src/gather/experiment-sdk.js";
import { EXPERIMENT_PRESETS } from "../../src/vendors/experiment-presets.js";

/** Which of PostHog's `$feature_flag_called` events were answered from the page's bootstrap, as posthog-js 1.449.2 logs them. */
const logged = EXPERIMENT_PRESETS.posthog.logged!;
const called = (properties: Record<string, unknown>) => ({
  event: "$feature_flag_called",
  properties: { $feature_flag: "pricing_cta", ...properties },
});

test("an evaluation answered from the page's bootstrap is one; a failed flags request's fallback, which PostHog marks the same way, is not", () => {
  const bootstrapped = called({
    $feature_flag_response: "control",
    $feature_flag_bootstrapped_response: "control",
    $used_bootstrap_value: true,
  });
  expect(answeredFromBootstrap(bootstrapped, logged)).toBe(true);
  // A boolean flag bootstrapped off is bootstrapped all the same.
  expect(
    answeredFromBootstrap(
      called({
        $feature_flag_response: false,
        $feature_flag_bootstrapped_response: false,
        $used_bootstrap_value: true,
      }),
      logged,
    ),
  ).toBe(true);
  const timedOut = called({
    $feature_flag_error: "timeout,flag_missing",
    $feature_flag_bootstrapped_response: null,
    $used_bootstrap_value: true,
  });
  expect(answeredFromBootstrap(timedOut, logged)).toBe(false);
  // Once its own flags are in, PostHog answers from them, whatever the page bootstrapped.
  const served = called({
    $feature_flag_response: "cta_long",
    $feature_flag_bootstrapped_response: "control",
    $used_bootstrap_value: false,
    $feature_flag_reason: "Matched condition set 1",
  });
  expect(answeredFromBootstrap(served, logged)).toBe(false);
});
