import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { SLOW_INIT_MS as AMPLITUDE_SLOW_INIT_MS } from "../../fixtures/sites/amplitude-experiment.js";
import { SLOW_INIT_MS as GROWTHBOOK_SLOW_INIT_MS } from "../../fixtures/sites/growthbook-flags.js";
import { SLOW_INIT_MS as LAUNCHDARKLY_SLOW_INIT_MS } from "../../fixtures/sites/launchdarkly.js";
import { SLOW_INIT_MS as OPTIMIZELY_SLOW_INIT_MS, UNKNOWN_EVENT } from "../../fixtures/sites/optimizely.js";
import { SLOW_FLAGS_MS as POSTHOG_SLOW_FLAGS_MS } from "../../fixtures/sites/posthog-flags.js";
import { SLOW_INIT_MS as STATSIG_SLOW_INIT_MS } from "../../fixtures/sites/statsig.js";
import type { RunSummary } from "../../src/results/summary.js";
import { allowRunOf, e2eSpec, findingOf, readSummary, runCli } from "./cli.js";
import { problemsOf } from "../../src/findings/finding.js";

/**
 * Each experimentation SDK's own browser bundle assigning the visitor (fixtures/sites/statsig.ts,
 * launchdarkly.ts, growthbook-flags.ts, optimizely.ts, amplitude-experiment.ts, and posthog-flags.ts,
 * where the analytics SDK logs its flags): the correct shop pages (their values late, or the SDK
 * bundled into the site's code) pass experiment.assignment and every other check on both viewports; each planted fault is
 * reported by its check alone (experiment.assignment; experiment.exposure for a control that logs no exposure), naming
 * the key, the flag or the SDK's reason. Where the audit reads the SDK's own exposures, they pass on the correct pages,
 * and a visitor switched on identify is reported by experiment.exposure too. The events the page tracks through the
 * SDK are its calls, delivered as the SDK's requests were answered; one Optimizely refuses (its datafile lacks the
 * event) fails events.delivered with the SDK's reason, and goals.match for the goal it was to meet.
 */
const VIEWPORTS = ["desktop", "mobile"] as const;

const ASSIGNMENT = "experiment.assignment";

/** The fault of a goal's event the page tracks through the SDK for the visitor it signs in, after the exposure was logged for the anonymous one. */
const CONVERSION_OTHER_ID = (vendor: string): VendorShop["faults"][string] => ({
  check: "experiment.exposure",
  message: `the goal's event \`cta_clicked\` was sent through ${vendor} for user-4411 at `,
  evidence: { visitors: ["visitor-1"], conversions: [{ name: "cta_clicked", visitor: "user-4411" }] },
});

/** The fault of a page that shows no experiment and evaluates the flag at start-up: the visitor is exposed without seeing it. */
const EXPOSED_AT_START_UP: VendorShop["faults"][string] = {
  check: "experiment.exposure",
  status: "warn",
  message:
    'logged an exposure of "pricing_cta" on home, which shows none of its experiments ("Pricing CTA copy" on shop, ',
  evidence: { fired: 1 },
};

/** The fault of a page that evaluates the flag as it loads while the experiment's target is hidden: the visitor is exposed without seeing it. */
const EXPOSED_HIDDEN: VendorShop["faults"][string] = {
  check: "experiment.exposure",
  status: "warn",
  message: "but the experiment's target `#cta` was visible at no point the audit looked",
  evidence: { targetShown: false },
  // A target never visible is the selector's failure too.
  also: ["experiment.selector fail"],
};

/** The fault of a visitor served control whose exposure the page keeps the SDK from logging: `unlogged` begins the SDK's own advice. */
function controlUnlogged(unlogged: string): VendorShop["faults"][string] {
  return {
    check: "experiment.exposure",
    message: ` ms but logged no exposure of it: the visitor is not counted in the experiment. ${unlogged}`,
    evidence: { fired: 0 },
  };
}

/** A vendor's shop: its spec, its correct pages and what they are assigned, and each faulty page's message and evidence. */
interface VendorShop {
  spec: string;
  correct: string[];
  served: { key: string; value: string; reason: string | null };
  /** What its exposures on identify-switch say, and the visitor ids they name, before and after; absent where its exposures are not read. */
  switched?: { says: string; visitors: [RegExp, RegExp] };
  /** Correct pages served otherwise (from the page's bootstrap): their evidence. */
  servedOtherwise?: Record<string, { key: string; value: string; reason: null }>;
  /** How late the slow page's values come. */
  slowInitMs: number;
  /** Each faulty page's message and evidence of its check (default experiment.assignment), and the other findings the fault brings (`page.errors warn`). */
  faults: Record<
    string,
    { check?: string; status?: "warn"; message: string; evidence?: Record<string, unknown>; also?: string[] }
  >;
  /** Set where the SDK logs the visitor's exposure again on each load: the correct pages' reload logs the same visitor in the same variation. */
  logsOnEachLoad?: true;
  /** Each goal a planted fault keeps from being met: goals.match's message. */
  unmetGoals?: Record<string, string>;
}

/**
 * The fault of a visitor served `pricing_cta`'s first variation, then another: each as [value,
 * reason]. The SDK's own exposures name both ids: experiment.exposure reports it too.
 */
function switchedFault(
  key: string,
  first: [string, string],
  then: [string, string],
  flag = "pricing_cta",
): VendorShop["faults"][string] {
  return {
    message: `"${flag}" was served \`${first[0]}\` (${first[1]}) at `,
    evidence: { key, values: [first[0], then[0]], reasons: [first[1], then[1]] },
    also: ["experiment.exposure fail"],
  };
}

/** The exposures of a visitor identified as a user the experiment puts in another variation: both ids named. */
const CHANGED_GROUPS: NonNullable<VendorShop["switched"]> = {
  says: "the visitor changed groups on identify (",
  visitors: [/^visitor-1$/, /^user-4411$/],
};

const SHOPS: Record<string, VendorShop> = {
  statsig: {
    spec: "statsig.yaml",
    logsOnEachLoad: true,
    correct: ["shop", "slow-shop", "bundled-shop"],
    served: { key: "client-statsig-staging", value: "cta-long", reason: "Network:Recognized" },
    switched: CHANGED_GROUPS,
    slowInitMs: STATSIG_SLOW_INIT_MS,
    faults: {
      "other-key": {
        message:
          "was initialised with production's key client-statsig-production instead of staging's client-statsig-staging",
      },
      "unknown-flag": {
        message: '"checkout_cta" got the SDK\'s fallback, not a variation (reason Network:Unrecognized)',
      },
      // Evaluated as the client was made, before initializeAsync: Statsig's own reason says so.
      "too-early": {
        message: '"pricing_cta" got the SDK\'s fallback, not a variation (reason Uninitialized)',
        evidence: { key: "client-statsig-staging", value: null, reason: "Uninitialized" },
      },
      // Identified as a user the experiment puts in control: the visitor is counted in both groups.
      "identify-switch": switchedFault(
        "client-statsig-staging",
        ["cta-long", "Network:Recognized"],
        ["control", "Network:Recognized"],
      ),
      // Read with disableExposureLog, and logged only outside control: the control's visitors are never counted.
      home: EXPOSED_AT_START_UP,
      "hidden-target": EXPOSED_HIDDEN,
      "conversion-other-id": CONVERSION_OTHER_ID("Statsig (@statsig/js-client)"),
      "control-unlogged": controlUnlogged("Statsig logs no exposure for a value read with `disableExposureLog`"),
    },
  },
  launchdarkly: {
    spec: "launchdarkly.yaml",
    logsOnEachLoad: true,
    correct: ["shop", "slow-shop", "bundled-shop", "bundled-bootstrap"],
    served: { key: "ld-client-staging", value: "cta-long", reason: "FALLTHROUGH" },
    switched: CHANGED_GROUPS,
    slowInitMs: LAUNCHDARKLY_SLOW_INIT_MS,
    faults: {
      "other-key": {
        message: "was initialised with production's key ld-client-production instead of staging's ld-client-staging",
      },
      "unknown-flag": {
        message:
          '"checkout_cta" got the SDK\'s fallback, not a variation (reason FLAG_NOT_FOUND): the environment has no such flag, or does not make it available to client-side SDKs',
      },
      // The same reason as the unknown flag's: only when it was evaluated tells them apart.
      "too-early": {
        message:
          "\"pricing_cta\" got the SDK's fallback, not a variation (reason FLAG_NOT_FOUND): it was evaluated before the client's initialisation finished",
        evidence: { key: "ld-client-staging", value: "control", reason: "FLAG_NOT_FOUND" },
      },
      // Identified as a user the experiment serves control: the visitor is counted in both variations.
      "identify-switch": switchedFault("ld-client-staging", ["cta-long", "FALLTHROUGH"], ["control", "FALLTHROUGH"]),
      home: EXPOSED_AT_START_UP,
      // Signed in before the goal: LaunchDarkly itself logs the new context's exposure on identify,
      // so the conversion has an exposure of its own id, in the group the new context gets.
      "conversion-other-id": {
        check: "experiment.exposure",
        message: 'the visitor changed groups on identify (visitor-1 in "cta-long" at ',
        evidence: {
          visitors: ["visitor-1", "user-4411"],
          conversions: [{ name: "cta_clicked", visitor: "user-4411" }],
        },
      },
    },
  },
  optimizely: {
    spec: "optimizely.yaml",
    logsOnEachLoad: true,
    correct: ["shop", "slow-shop", "bundled-shop"],
    // Optimizely names the rule that served the flag, here the experiment's.
    served: { key: "opt-staging-4fJ2", value: "cta_long", reason: "pricing_cta_test" },
    switched: CHANGED_GROUPS,
    slowInitMs: OPTIMIZELY_SLOW_INIT_MS,
    faults: {
      // The key is the one the datafile names: production's, fetched with production's SDK key.
      "other-key": {
        message: "was initialised with production's key opt-production-9kQ7 instead of staging's opt-staging-4fJ2",
      },
      // The CDN refuses the key's datafile (the page's console says so): the key is read from the datafile's URL.
      "unknown-key": {
        message: "was initialised with the key opt-staging-4fJ2x, not staging's experimentKey opt-staging-4fJ2",
        evidence: { key: "opt-staging-4fJ2x", expected: "opt-staging-4fJ2" },
        also: ["page.errors warn"],
      },
      "unknown-flag": {
        message:
          '"checkout_cta" got the SDK\'s fallback, not a variation (reason No flag was found for key "checkout_cta".): the datafile has no such flag',
      },
      "too-early": {
        message:
          "\"pricing_cta\" got the SDK's fallback, not a variation (reason Optimizely SDK not configured properly yet.): it was evaluated before the client's initialisation finished",
        evidence: { key: "opt-staging-4fJ2", value: null, reason: "Optimizely SDK not configured properly yet." },
      },
      // Decided again for a signed-in user the experiment forces into control: the visitor is counted in both.
      "identify-switch": switchedFault(
        "opt-staging-4fJ2",
        ["cta_long", "pricing_cta_test"],
        ["control", "pricing_cta_test"],
      ),
      // Decided with DISABLE_DECISION_EVENT, and again only outside control: the control's visitors are never counted.
      home: EXPOSED_AT_START_UP,
      "hidden-target": EXPOSED_HIDDEN,
      "conversion-other-id": CONVERSION_OTHER_ID("Optimizely (@optimizely/optimizely-sdk)"),
      "control-unlogged": controlUnlogged(
        "Optimizely logs no decision event for a `decide` with `DISABLE_DECISION_EVENT`",
      ),
      // The visitor's id is made anew on each load: the page's reload logs another visitor.
      "new-id-per-load": {
        check: "experiment.exposure",
        message:
          "the visitor's id is not kept across page views, so each view counts as a new visitor. Keep the visitor's id across page views",
        evidence: { variations: ["cta_long"], afterReload: ["cta_long"] },
      },
      // The click tracks a goal's event the datafile does not list: Optimizely drops it, and says why.
      "unknown-event": {
        check: "events.delivered",
        message: `trackEvent("${UNKNOWN_EVENT}") through Optimizely (@optimizely/optimizely-sdk) was never sent: the SDK refused it ("Event key ${UNKNOWN_EVENT} is not in datafile.")`,
        evidence: {
          sdk: "experiment",
          // Beside the click's call of the service's SDK, delivered.
          deliveries: expect.arrayContaining([
            expect.objectContaining({ delivery: "dropped", refused: `Event key ${UNKNOWN_EVENT} is not in datafile.` }),
            expect.objectContaining({ call: 'track("cta_clicked")', delivery: "accepted" }),
          ]),
        },
      },
    },
    unmetGoals: {
      "Trial started": `expects \`${UNKNOWN_EVENT}\`, which the pages tracked only through the experimentation SDK on unknown-event, and it refused to send it`,
    },
  },
  "amplitude-experiment": {
    spec: "amplitude-experiment.yaml",
    correct: ["shop", "slow-shop"],
    // Amplitude Experiment never gives a reason.
    served: { key: "client-amp-staging-3Kp8", value: "cta_long", reason: null },
    // Amplitude's device id, then the user id the page fetched the variants for.
    // Fetched again for the user, but tracked for the same device (no Analytics user id): bucketed again.
    switched: {
      says: 'it named another variation for the same visitor ("cta_long", then "control")',
      visitors: [/^[\da-f-]{36}$/, /^[\da-f-]{36}$/],
    },
    slowInitMs: AMPLITUDE_SLOW_INIT_MS,
    faults: {
      "other-key": {
        message:
          "was initialised with production's key client-amp-production-7Wd2 instead of staging's client-amp-staging-3Kp8",
      },
      // The empty variant, with no reason: what it can mean is said.
      "unknown-flag": {
        message:
          '"checkout_cta" got the SDK\'s fallback, not a variation (reason none given): the deployment has no such flag',
      },
      "too-early": {
        message:
          "\"pricing_cta\" got the SDK's fallback, not a variation (reason none given): it was evaluated before the client's initialisation finished",
        evidence: { key: "client-amp-staging-3Kp8", value: null, reason: null },
      },
      // Fetched again for a user the experiment serves control: the visitor is counted in both variants.
      "identify-switch": switchedFault(
        "client-amp-staging-3Kp8",
        ["cta_long", "served; the SDK gave no reason"],
        ["control", "served; the SDK gave no reason"],
      ),
      home: EXPOSED_AT_START_UP,
      "control-unlogged": controlUnlogged(
        "Amplitude Experiment tracks no exposure with `automaticExposureTracking: false`, or without Amplitude Analytics beside it: keep it on, or call `exposure(flag)`",
      ),
    },
  },
  // PostHog is the analytics SDK too: its key is the environment's, and each evaluation an event it logs.
  posthog: {
    spec: "posthog-flags.yaml",
    correct: ["shop", "slow-shop"],
    served: { key: "phc_flagshop_staging_5Tq", value: "cta_long", reason: "Matched condition set 1" },
    // PostHog's anonymous id, then the identified user's.
    switched: { says: CHANGED_GROUPS.says, visitors: [/^[\da-f-]{36}$/, /^user_4411$/] },
    // Asked before the flags came, from the values the page bootstrapped PostHog with; the flags then agreed.
    servedOtherwise: { bootstrapped: { key: "phc_flagshop_staging_5Tq", value: "cta_long", reason: null } },
    slowInitMs: POSTHOG_SLOW_FLAGS_MS,
    faults: {
      // Bootstrapped with the anonymous visitor's control, then identified: the identified visitor's flags serve cta_long.
      "identify-switch": switchedFault(
        "phc_flagshop_staging_5Tq",
        ["control", "from the page's bootstrap"],
        ["cta_long", "Matched condition set 1"],
      ),
      home: EXPOSED_AT_START_UP,
      // The analytics SDK's key is production's too: sdk.key says so as well.
      "other-key": {
        message:
          "was initialised with production's key phc_flagshop_production_8Rm instead of staging's phc_flagshop_staging_5Tq",
        also: ["sdk.key fail"],
      },
      "unknown-flag": {
        message:
          '"checkout_cta" got the SDK\'s fallback, not a variation (reason flag_missing): the project has no such flag',
        evidence: { key: "phc_flagshop_staging_5Tq", reason: "flag_missing" },
      },
      // The flags request hung: posthog-js aborted it; the audit saw the request fail (and, when the page asked after that, its fallback).
      "flags-down": {
        message: "never got its flags: its request for them failed (net::ERR_ABORTED, ",
        evidence: { key: "phc_flagshop_staging_5Tq", valuesFailed: "net::ERR_ABORTED" },
      },
      // Asked before the flags came: PostHog returned undefined and logged nothing.
      "too-early": {
        message:
          'never evaluated "pricing_cta" on this page: no visitor is assigned to the experiment here. Evaluate the flag where the experiment runs (getFeatureFlag, isFeatureEnabled, getFeatureFlagResult); PostHog logs no evaluation made before its flags are in',
        evidence: { key: "phc_flagshop_staging_5Tq" },
      },
    },
  },
  growthbook: {
    spec: "growthbook-flags.yaml",
    correct: ["shop", "slow-shop"],
    served: { key: "sdk-gb-staging", value: "cta-long", reason: "experiment" },
    slowInitMs: GROWTHBOOK_SLOW_INIT_MS,
    faults: {
      "other-key": {
        message: "was initialised with production's key sdk-gb-production instead of staging's sdk-gb-staging",
      },
      "unknown-flag": {
        message:
          "\"checkout-cta\" got the SDK's fallback, not a variation (reason unknownFeature): the SDK connection's payload has no such feature",
      },
      // The same source as the unknown feature's: only when it was evaluated tells them apart.
      "too-early": {
        message:
          "\"pricing-cta\" got the SDK's fallback, not a variation (reason unknownFeature): it was evaluated before the client's initialisation finished",
        evidence: { key: "sdk-gb-staging", reason: "unknownFeature" },
      },
      // Signed in as a user the experiment's targeted rule puts in control: the visitor is counted in both variations.
      "identify-switch": {
        ...switchedFault("sdk-gb-staging", ["cta-long", "experiment"], ["control", "experiment"], "pricing-cta"),
        // GrowthBook logs no exposure of its own: the site's tracking callback does (growthbook-exposure.test.ts).
        also: [],
      },
    },
  },
};

for (const [vendor, shop] of Object.entries(SHOPS)) {
  test.describe(vendor, () => {
    test.describe.configure({ mode: "serial" });
    let summary: RunSummary;

    test.beforeAll(async ({}, testInfo) => {
      allowRunOf(testInfo, [e2eSpec(shop.spec)]);
      const out = join(testInfo.project.outputDir, `${vendor}-run`);
      const run = await runCli(["run", e2eSpec(shop.spec), "--out", out]);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      summary = readSummary(out);
    });

    test("each planted assignment fault, and nothing else, is reported on both viewports", () => {
      const reported = problemsOf(summary.findings);
      expect(
        reported
          .map((finding) => `${finding.check} ${finding.status} ${finding.page ?? finding.goal} ${finding.viewport}`)
          .sort(),
      ).toEqual(
        VIEWPORTS.flatMap((viewport) => [
          ...Object.entries(shop.faults).flatMap(([page, fault]) =>
            [`${fault.check ?? ASSIGNMENT} ${fault.status ?? "fail"}`, ...(fault.also ?? [])].map(
              (finding) => `${finding} ${page} ${viewport}`,
            ),
          ),
          ...Object.keys(shop.unmetGoals ?? {}).map((goal) => `goals.match fail ${goal} ${viewport}`),
        ]).sort(),
      );
    });

    test("each fault names the key, the flag or the SDK's reason", () => {
      for (const viewport of VIEWPORTS)
        for (const [page, fault] of Object.entries(shop.faults))
          expect(findingOf(summary, fault.check ?? ASSIGNMENT, { page, viewport, variation: null })).toMatchObject({
            message: expect.stringContaining(fault.message),
            ...(fault.evidence ? { evidence: fault.evidence } : {}),
          });
      for (const viewport of VIEWPORTS)
        for (const [goal, says] of Object.entries(shop.unmetGoals ?? {}))
          expect(findingOf(summary, "goals.match", { goal, viewport }).message).toContain(says);
    });

    test("the correct pages' visitor is assigned a variation of the experiment with staging's key, and the pages pass every check", () => {
      const correct = [
        ...shop.correct.map((page) => [page, shop.served] as const),
        ...Object.entries(shop.servedOtherwise ?? {}),
      ];
      for (const viewport of VIEWPORTS) {
        for (const [page, served] of correct) {
          expect(findingOf(summary, ASSIGNMENT, { page, viewport })).toMatchObject({
            status: "pass",
            evidence: served,
          });
          const findings = summary.findings.filter((finding) => finding.page === page && finding.viewport === viewport);
          expect(findings.filter((finding) => finding.status !== "pass" && finding.status !== "skip")).toEqual([]);
        }
        // The page waited for the client's values, answered slowInitMs after it asked, before it was done.
        const late = findingOf(summary, "experiment.assignment", { page: "slow-shop", viewport });
        expect(late.evidence.atMs as number).toBeGreaterThan(shop.slowInitMs);
      }
    });

    if (shop.faults["conversion-other-id"] !== undefined)
      test("the goal's event tracked through the SDK is one of the page's calls, the SDK's, delivered as its request was answered", () => {
        for (const viewport of VIEWPORTS)
          expect(
            summary.calls
              .filter((call) => call.page === "conversion-other-id" && call.viewport === viewport)
              .map((call) => `${call.sdk} ${call.name} ${call.delivery}`)
              .sort(),
          ).toEqual(["analytics cta_clicked accepted", "experiment cta_clicked accepted"]);
      });

    const { switched } = shop;
    if (switched !== undefined)
      test("the SDK's own exposures: the correct pages log the variation served, delivered (and again after a reload, where the SDK logs on each load); identify-switch logs the visitor in both groups", () => {
        for (const viewport of VIEWPORTS) {
          for (const page of shop.correct)
            expect(findingOf(summary, "experiment.exposure", { page, viewport, variation: null })).toMatchObject({
              status: "pass",
              evidence: {
                variations: [shop.served.value],
                statuses: [expect.any(Number)],
                ...(shop.logsOnEachLoad
                  ? { afterReload: [shop.served.value], visitorsAfterReload: [expect.any(String)] }
                  : {}),
              },
            });
          const reported = findingOf(summary, "experiment.exposure", {
            page: "identify-switch",
            viewport,
            variation: null,
          });
          expect(reported.message).toContain(switched.says);
          const visitors = reported.evidence.visitors as string[];
          expect(visitors[0]).toMatch(switched.visitors[0]);
          expect(visitors.at(-1)).toMatch(switched.visitors[1]);
        }
      });
  });
}
