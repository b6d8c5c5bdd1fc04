import { expect, test } from "@playwright/test";
import type { ExperimentSdkSeen, FlagEvaluation } from "../../../src/artifacts/types.js";
import { experimentAssignment } from "../../../src/checks/experiment/assignment.js";
import type { ExperimentPresetName } from "../../../src/vendors/experiment-presets.js";
import { contextOf, pageWith, specWith } from "../../support/artifacts.js";

/** A shop whose experiment runs on Statsig, its client keys per environment; the visitor lands in cta-long. */
const SPEC = specWith({
  environments: {
    staging: { key: "prj_demo_staging", experimentKey: "client-staging", baseUrl: "http://127.0.0.1:47412" },
    production: { key: "prj_demo_prod", experimentKey: "client-production", baseUrl: "https://shop.example.test" },
  },
  defaultEnvironment: "staging",
  experimentSdk: { preset: "statsig" },
  pages: [{ id: "pricing", path: "/pricing" }],
  experiments: [
    {
      name: "Pricing CTA copy",
      page: "pricing",
      selector: "#cta",
      flag: "pricing_cta",
      variations: [{ name: "Long copy", css: "#cta { color: green }", id: "cta-long" }],
    },
  ],
});

const init = (key: string | null, readyAtMs: number | null = 900) => ({
  method: "Statsig.StatsigClient",
  key,
  atMs: 120,
  readyAtMs,
});

const evaluation = (overrides: Partial<FlagEvaluation> = {}): FlagEvaluation => ({
  method: "getExperiment",
  flag: "pricing_cta",
  variation: "cta-long",
  reason: "Network:Recognized",
  atMs: 910,
  ...overrides,
});

/** experiment.assignment's findings on the pricing page, desktop, with what the SDK did there. */
function judged(seen: ExperimentSdkSeen | null | undefined, spec = SPEC) {
  const page = pageWith({ page: "pricing", viewport: "desktop", experimentSdk: seen });
  return experimentAssignment.evaluate(contextOf([page], spec));
}

/** experiment.assignment's finding on the pricing page when `preset`'s client, ready with staging's key, evaluated the flag once (no reason unless `overrides` give one). */
function judgedOn(preset: ExperimentPresetName, overrides: Partial<FlagEvaluation>) {
  const spec = { ...SPEC, experimentSdk: { ...SPEC.experimentSdk!, preset } };
  const evaluations = [evaluation({ method: "evaluate", reason: null, clientReady: true, ...overrides })];
  return judged({ inits: [init("client-staging")], evaluations }, spec)[0]!;
}

test("passes when the client has the environment's key and the flag evaluated to one of the experiment's variations, the control included", () => {
  expect(judged({ inits: [init("client-staging")], evaluations: [evaluation()] })).toEqual([
    expect.objectContaining({
      check: "experiment.assignment",
      status: "pass",
      page: "pricing",
      viewport: "desktop",
      experiment: "Pricing CTA copy",
      message: '"pricing_cta" evaluated to `cta-long` (Network:Recognized) at 910 ms, with the key client-staging.',
      evidence: { key: "client-staging", value: "cta-long", reason: "Network:Recognized", atMs: 910 },
    }),
  ]);
  const control = judged({ inits: [init("client-staging")], evaluations: [evaluation({ variation: "control" })] });
  expect(control[0]!.status).toBe("pass");
  // A fallback first (evaluated while loading), then the real value: the visitor was assigned.
  const late = [evaluation({ variation: null, reason: "Loading:Unrecognized", atMs: 300 }), evaluation()];
  expect(judged({ inits: [init("client-staging")], evaluations: late })[0]!.status).toBe("pass");
});

test("fails on another environment's key, naming both, and on a key of no environment", () => {
  const [other] = judged({ inits: [init("client-production")], evaluations: [evaluation()] });
  expect(other).toMatchObject({
    status: "fail",
    message: expect.stringContaining(
      "was initialised with production's key client-production instead of staging's client-staging",
    ),
    evidence: { key: "client-production", expected: "client-staging" },
  });
  const [unknown] = judged({ inits: [init("client-typo")], evaluations: [evaluation()] });
  expect(unknown).toMatchObject({
    status: "fail",
    message: expect.stringContaining(
      "was initialised with the key client-typo, not staging's experimentKey client-staging",
    ),
  });
});

test("fails when no client was made, or the flag was never evaluated", () => {
  expect(judged({ inits: [], evaluations: [] })[0]).toMatchObject({
    status: "fail",
    message: expect.stringContaining("made no client on this page (StatsigClient never called)"),
  });
  expect(
    judged({ inits: [init("client-staging", null)], evaluations: [evaluation({ flag: "other" })] })[0],
  ).toMatchObject({
    status: "fail",
    message: expect.stringContaining(
      'never evaluated "pricing_cta" on this page (its initialisation never finished): no visitor is assigned',
    ),
  });
});

test("a flag never evaluated by a client read from the wire (the SDK bundled) says the SDK sends nothing for a flag it could not serve; a watched client's does not", () => {
  const spec = { ...SPEC, experimentSdk: { ...SPEC.experimentSdk!, preset: "launchdarkly" as const } };
  const never = (method: string) =>
    judged({ inits: [{ ...init("client-staging"), method }], evaluations: [] }, spec)[0]!.message;
  const wire =
    "; the SDK is bundled into the site's code, so the audit reads its evaluations from the exposures it sends, and it sends none for a flag it could not serve (one it does not know, or one evaluated before its flags came).";
  expect(never("values request")).toMatch(/^LaunchDarkly .* never evaluated "pricing_cta" on this page: /);
  expect(never("values request").endsWith(wire)).toBe(true);
  expect(never("events request").endsWith(wire)).toBe(true);
  expect(never("LDClient.initialize")).not.toContain("bundled");
});

test("fails on the SDK's fallback with its reason and what it means, and on a variation that is none of the experiment's", () => {
  const fallback = (reason: string) =>
    judged({ inits: [init("client-staging")], evaluations: [evaluation({ variation: null, reason })] })[0]!;
  expect(fallback("Network:Unrecognized")).toMatchObject({
    status: "fail",
    message: expect.stringContaining(
      "(reason Network:Unrecognized): the project has no such gate or experiment, or does not serve it to client SDKs",
    ),
    evidence: { key: "client-staging", value: null, reason: "Network:Unrecognized", atMs: 910 },
  });
  expect(fallback("Uninitialized").message).toContain("evaluated before the client's initialisation finished");
  expect(fallback("NoValues").message).toContain("the client's initialisation failed or timed out");
  // An experiment that lists no variation takes whichever the SDK served.
  const unlisted = { ...SPEC, experiments: [{ ...SPEC.experiments[0]!, variations: [] }] };
  const served = { inits: [init("client-staging")], evaluations: [evaluation({ variation: "cta-short" })] };
  expect(judged(served, unlisted)[0]!.status).toBe("pass");
  const [stranger] = judged({ inits: [init("client-staging")], evaluations: [evaluation({ variation: "cta-short" })] });
  expect(stranger).toMatchObject({
    status: "fail",
    message: expect.stringContaining(
      "evaluated to `cta-short` (Network:Recognized), which is none of the experiment's variations (control, cta-long)",
    ),
  });
});

test("skips a page gathered without the SDK recorded, and judges nothing for an experiment without a flag", () => {
  expect(judged(undefined)[0]).toMatchObject({ status: "skip", message: expect.stringContaining("saved before") });
  expect(judged(null)[0]).toMatchObject({
    status: "skip",
    message: expect.stringContaining("without the spec's experimentSdk"),
  });
  const unflagged = specWith({ experiments: [{ name: "Copy", page: "home", selector: "#cta" }] });
  expect(experimentAssignment.evaluate(contextOf([pageWith({ page: "home" })], unflagged))).toEqual([]);
});

test("on LaunchDarkly, a value served without a reason passes, and the one reason of its fallback says before or after the flags came", () => {
  const ld = (overrides: Partial<FlagEvaluation>) => judgedOn("launchdarkly", overrides);
  expect(ld({})).toMatchObject({
    status: "pass",
    message:
      '"pricing_cta" evaluated to `cta-long` (served; the SDK gave no reason) at 910 ms, with the key client-staging.',
  });
  expect(ld({ reason: "RULE_MATCH" }).status).toBe("pass");
  // The fallback: the page's default value, with FLAG_NOT_FOUND whatever the cause.
  expect(ld({ variation: "control", reason: "FLAG_NOT_FOUND" })).toMatchObject({
    status: "fail",
    message: expect.stringContaining(
      "(reason FLAG_NOT_FOUND): the environment has no such flag, or does not make it available to client-side SDKs",
    ),
  });
  expect(ld({ variation: "control", reason: "FLAG_NOT_FOUND", clientReady: false }).message).toContain(
    "(reason FLAG_NOT_FOUND): it was evaluated before the client's initialisation finished",
  );
  expect(ld({ variation: "control", reason: "OFF" }).message).toContain("the flag is off in this environment");
  // Statsig always gives a reason: none is no served value there.
  expect(judged({ inits: [init("client-staging")], evaluations: [evaluation({ reason: null })] })[0]!.status).toBe(
    "fail",
  );
});

test("on Optimizely, the rule that served the decision passes but the Everyone Else rule's, and a decision it could not make says its first reason", () => {
  const decided = (overrides: Partial<FlagEvaluation>) =>
    judgedOn("optimizely", { reason: "pricing_cta_test", ...overrides });
  expect(decided({}).status).toBe("pass");
  expect(decided({ variation: "off", reason: "default-rollout-27001" })).toMatchObject({
    status: "fail",
    message: expect.stringContaining('no rule served it but the flag\'s "Everyone Else" one'),
  });
  expect(decided({ variation: null, reason: 'No flag was found for key "pricing_cta".' }).message).toContain(
    "the datafile has no such flag",
  );
});

test("on Amplitude Experiment, which never gives a reason, a variant with a key passes and the empty one says what it can mean", () => {
  const variant = (overrides: Partial<FlagEvaluation>) => judgedOn("amplitude-experiment", overrides);
  expect(variant({}).status).toBe("pass");
  expect(variant({ variation: null })).toMatchObject({
    status: "fail",
    message: expect.stringContaining(
      "(reason none given): the deployment has no such flag (a typo, or a flag of another project or deployment), or the variants could not be fetched",
    ),
  });
  // The deployment's default variant is served, but to a visitor outside the experiment.
  expect(variant({ variation: "off", reason: "true" })).toMatchObject({
    status: "fail",
    message: expect.stringContaining("(reason true): it is the deployment's default variant (metadata.default)"),
  });
  expect(variant({ variation: null, clientReady: false }).message).toContain(
    "(reason none given): it was evaluated before the client's initialisation finished",
  );
});

test("on PostHog's flags, the reason its flags endpoint gave passes, flag_missing and a rollout that left the visitor out fail, and an evaluation never logged says why it may not have been", () => {
  const called = (overrides: Partial<FlagEvaluation>) =>
    judgedOn("posthog", { method: "$feature_flag_called", reason: "Matched condition set 1", ...overrides });
  expect(called({}).status).toBe("pass");
  // An older flags endpoint gives no reasons: a value is served.
  expect(called({ reason: null }).status).toBe("pass");
  expect(called({ variation: null, reason: "flag_missing" })).toMatchObject({
    status: "fail",
    message: expect.stringContaining("(reason flag_missing): the project has no such flag"),
  });
  // A flags request that timed out leaves every flag missing: the failure is what it means.
  expect(called({ variation: null, reason: "timeout,flag_missing" }).message).toContain(
    "(reason timeout,flag_missing): the flags endpoint failed to answer the flags",
  );
  expect(called({ variation: "false", reason: "Out of rollout bound" }).message).toContain(
    "the flag's conditions or rollout left the visitor out of the experiment",
  );
  const spec = { ...SPEC, experimentSdk: { ...SPEC.experimentSdk!, preset: "posthog" as const } };
  // PostHog is the analytics SDK too: without an experimentKey, its key is the environment's.
  const onKeys = {
    ...spec,
    environments: {
      staging: { ...SPEC.environments.staging!, experimentKey: undefined },
      production: { ...SPEC.environments.production!, experimentKey: undefined },
    },
  };
  const served = [evaluation({ reason: "Matched condition set 1" })];
  expect(judged({ inits: [init("prj_demo_staging")], evaluations: served }, onKeys)[0]!.status).toBe("pass");
  expect(judged({ inits: [init("prj_demo_prod")], evaluations: served }, onKeys)[0]!.message).toContain(
    "was initialised with production's key prj_demo_prod instead of staging's prj_demo_staging",
  );
  expect(judged({ inits: [init("client-staging")], evaluations: [] }, spec)[0]!.message).toContain(
    "PostHog logs no evaluation made before its flags are in (it returns undefined then): evaluate the flag in posthog.onFeatureFlags(…)",
  );
});

test("a flag never evaluated because the SDK's request for its flags failed says so, with the browser's error, not that it was asked too early", () => {
  const spec = { ...SPEC, experimentSdk: { ...SPEC.experimentSdk!, preset: "posthog" as const } };
  const aborted = { ...init("client-staging", 3010), valuesFailed: "net::ERR_ABORTED" };
  const [finding] = judged({ inits: [aborted], evaluations: [] }, spec);
  expect(finding).toMatchObject({
    status: "fail",
    message:
      "PostHog feature flags (posthog-js) never got its flags: its request for them failed (net::ERR_ABORTED, 3010 ms into the page), so \"pricing_cta\" was never evaluated and no visitor is assigned to the experiment here. Make sure the SDK's flags endpoint (its host, or the site's path that proxies it) answers within the SDK's timeout.",
    evidence: { key: "client-staging", valuesFailed: "net::ERR_ABORTED" },
  });
  // A fallback the SDK logged once the request failed (or not, as the page's timing goes) is the same finding, with its reason.
  const fallback = evaluation({ variation: null, reason: "timeout,flag_missing", method: "$feature_flag_called" });
  expect(judged({ inits: [aborted], evaluations: [fallback] }, spec)[0]).toMatchObject({
    status: "fail",
    message: expect.stringContaining(
      'never got its flags: its request for them failed (net::ERR_ABORTED, 3010 ms into the page), so "pricing_cta" got the SDK\'s fallback (reason timeout,flag_missing) and no visitor',
    ),
    evidence: { key: "client-staging", valuesFailed: "net::ERR_ABORTED" },
  });
  // A variation served after all (a later request answered) is judged as served.
  expect(
    judged({ inits: [aborted], evaluations: [fallback, evaluation({ reason: "Matched condition set 1" })] }, spec)[0]!
      .status,
  ).toBe("pass");
});

test("a value the page bootstrapped the SDK with is served; one its flags endpoint then contradicts, or any second variation, fails naming both", () => {
  const spec = { ...SPEC, experimentSdk: { ...SPEC.experimentSdk!, preset: "posthog" as const } };
  const bootstrapped = evaluation({ method: "$feature_flag_called", reason: null, bootstrapped: true, atMs: 300 });
  const [kept] = judged({ inits: [init("client-staging")], evaluations: [bootstrapped] }, spec);
  expect(kept).toMatchObject({
    status: "pass",
    message:
      '"pricing_cta" evaluated to `cta-long` (from the page\'s bootstrap) at 300 ms, with the key client-staging.',
  });

  const contradicted = evaluation({ variation: "control", reason: "Matched condition set 1", atMs: 1200 });
  const [switched] = judged({ inits: [init("client-staging")], evaluations: [bootstrapped, contradicted] }, spec);
  expect(switched).toMatchObject({
    status: "fail",
    message:
      "\"pricing_cta\" was served `cta-long` (from the page's bootstrap) at 300 ms, then `control` (Matched condition set 1) at 1200 ms: the visitor changes variation on this page and is counted in both, a cause of a sample-ratio mismatch. Bootstrap the SDK with the values its flags endpoint gives the visitor's final identity, or keep the flag's value across identify (PostHog: persist it across authentication steps).",
    evidence: { values: ["cta-long", "control"], atMs: [300, 1200] },
  });
  // Any SDK: a second identity's variation is the same fault, with the fix for it.
  const [reassigned] = judged({
    inits: [init("client-staging")],
    evaluations: [evaluation(), evaluation({ variation: "control", atMs: 1500 })],
  });
  expect(reassigned!.status).toBe("fail");
  expect(reassigned!.message).toContain("Evaluate the flag once the visitor's identity is final");
  // The same variation served again, and a fallback beside a served value, are no switch.
  expect(
    judged({ inits: [init("client-staging")], evaluations: [evaluation(), evaluation({ atMs: 1500 })] })[0]!.status,
  ).toBe("pass");
});
