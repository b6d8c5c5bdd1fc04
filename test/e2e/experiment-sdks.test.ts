import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { SLOW_INIT_MS as AMPLITUDE_SLOW_INIT_MS } from "../../fixtures/sites/amplitude-experiment.js";
import { SLOW_INIT_MS as GROWTHBOOK_SLOW_INIT_MS } from "../../fixtures/sites/growthbook-flags.js";
import { SLOW_INIT_MS as LAUNCHDARKLY_SLOW_INIT_MS } from "../../fixtures/sites/launchdarkly.js";
import { SLOW_INIT_MS as OPTIMIZELY_SLOW_INIT_MS } from "../../fixtures/sites/optimizely.js";
import { SLOW_FLAGS_MS as POSTHOG_SLOW_FLAGS_MS } from "../../fixtures/sites/posthog-flags.js";
import { SLOW_INIT_MS as STATSIG_SLOW_INIT_MS } from "../../fixtures/sites/statsig.js";
import type { RunSummary } from "../../src/results/summary.js";
import { e2eSpec, findingOf, readSummary, runCli } from "./cli.js";

/**
 * Each experimentation SDK's own browser bundle assigning the visitor (fixtures/sites/statsig.ts,
 * launchdarkly.ts, growthbook-flags.ts, optimizely.ts, amplitude-experiment.ts, and posthog-flags.ts,
 * where the analytics SDK logs its flags): the correct shop pages (their values late, or the SDK
 * bundled into the site's code) pass experiment.assignment and every other check on both viewports; each planted fault is
 * reported by experiment.assignment alone, naming the key, the flag or the SDK's reason.
 */
const VIEWPORTS = ["desktop", "mobile"] as const;

/** A vendor's shop: its spec, its correct pages and what they are assigned, and each faulty page's message and evidence. */
interface VendorShop {
  spec: string;
  correct: string[];
  served: { key: string; value: string; reason: string | null };
  /** Correct pages served otherwise (from the page's bootstrap): their evidence. */
  servedOtherwise?: Record<string, { key: string; value: string; reason: null }>;
  /** How late the slow page's values come. */
  slowInitMs: number;
  /** Each faulty page's experiment.assignment message and evidence, and the other findings the fault brings (`page.errors warn`). */
  faults: Record<string, { message: string; evidence?: Record<string, unknown>; also?: string[] }>;
}

/** The fault of a visitor served `pricing_cta`'s first variation, then another: each as [value, reason]. */
function switchedFault(key: string, first: [string, string], then: [string, string]): VendorShop["faults"][string] {
  return {
    message: `"pricing_cta" was served \`${first[0]}\` (${first[1]}) at `,
    evidence: { key, values: [first[0], then[0]], reasons: [first[1], then[1]] },
  };
}

const SHOPS: Record<string, VendorShop> = {
  statsig: {
    spec: "statsig.yaml",
    correct: ["shop", "slow-shop", "bundled-shop"],
    served: { key: "client-statsig-staging", value: "cta-long", reason: "Network:Recognized" },
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
    },
  },
  launchdarkly: {
    spec: "launchdarkly.yaml",
    correct: ["shop", "slow-shop"],
    served: { key: "ld-client-staging", value: "cta-long", reason: "FALLTHROUGH" },
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
    },
  },
  optimizely: {
    spec: "optimizely.yaml",
    correct: ["shop", "slow-shop"],
    // Optimizely names the rule that served the flag, here the experiment's.
    served: { key: "opt-staging-4fJ2", value: "cta_long", reason: "pricing_cta_test" },
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
    },
  },
  "amplitude-experiment": {
    spec: "amplitude-experiment.yaml",
    correct: ["shop", "slow-shop"],
    // Amplitude Experiment never gives a reason.
    served: { key: "client-amp-staging-3Kp8", value: "cta_long", reason: null },
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
    },
  },
  // PostHog is the analytics SDK too: its key is the environment's, and each evaluation an event it logs.
  posthog: {
    spec: "posthog-flags.yaml",
    correct: ["shop", "slow-shop"],
    served: { key: "phc_flagshop_staging_5Tq", value: "cta_long", reason: "Matched condition set 1" },
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
      // The flags request hung: posthog-js aborted it and logged nothing; the audit saw the request fail.
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
    },
  },
};

for (const [vendor, shop] of Object.entries(SHOPS)) {
  test.describe(vendor, () => {
    test.describe.configure({ mode: "serial" });
    let summary: RunSummary;

    test.beforeAll(async ({}, testInfo) => {
      const out = join(testInfo.project.outputDir, `${vendor}-run`);
      const run = await runCli(["run", e2eSpec(shop.spec), "--out", out]);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      summary = readSummary(out);
    });

    test("each planted assignment fault, and nothing else, is reported on both viewports", () => {
      const reported = summary.findings.filter((finding) => finding.status === "fail" || finding.status === "warn");
      expect(
        reported.map((finding) => `${finding.check} ${finding.status} ${finding.page} ${finding.viewport}`).sort(),
      ).toEqual(
        VIEWPORTS.flatMap((viewport) =>
          Object.entries(shop.faults).flatMap(([page, fault]) =>
            ["experiment.assignment fail", ...(fault.also ?? [])].map((finding) => `${finding} ${page} ${viewport}`),
          ),
        ).sort(),
      );
    });

    test("each fault names the key, the flag or the SDK's reason", () => {
      for (const viewport of VIEWPORTS)
        for (const [page, fault] of Object.entries(shop.faults))
          expect(findingOf(summary, "experiment.assignment", { page, viewport })).toMatchObject({
            message: expect.stringContaining(fault.message),
            ...(fault.evidence ? { evidence: fault.evidence } : {}),
          });
    });

    test("the correct pages' visitor is assigned a variation of the experiment with staging's key, and the pages pass every check", () => {
      const correct = [
        ...shop.correct.map((page) => [page, shop.served] as const),
        ...Object.entries(shop.servedOtherwise ?? {}),
      ];
      for (const viewport of VIEWPORTS) {
        for (const [page, served] of correct) {
          expect(findingOf(summary, "experiment.assignment", { page, viewport })).toMatchObject({
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
  });
}
