import { defineConfig, type Project } from "@playwright/test";

/**
 * The tests that start a browser or one of the bundled fixture servers (the shops, the vendor
 * pages, the closed sites, the mock service), outside the end-to-end runs: the `integration`
 * project. Every other test outside e2e/ judges values in the test's own process and is the
 * browser-free `unit` project (`npm run test:unit`, through unit.config.ts).
 */
const INTEGRATION_TESTS = [
  "api/faults.test.ts",
  "contributing.test.ts",
  "cli/pictures.test.ts",
  "fixtures/**/*.test.ts",
  "browser/{launch,visitor}.test.ts",
  "gather/{consent,experiment-sdk,flicker,key-places,login,login-state,page,page-done,picture-masks,reload,routes,sdk-model,site-access,traffic,variation}.test.ts",
  "init/{first-look,key-discovery,sdk-detection,service-project,site-look,spec-draft}.test.ts",
  "report/{overview-phone,side-by-side,single-file-open}.test.ts",
];

/** The browser-free tier: runs in seconds, and unit.config.ts runs it with no browser to be found. */
export const UNIT_PROJECT: Project = { name: "unit", testIgnore: ["e2e/**", ...INTEGRATION_TESTS] };

/**
 * The end-to-end files whose audits take longest (a packed install, every vendor bundle, init's
 * look at each kind of site, whole GrowthBook and experimentation-SDK shops): they start first, so
 * that no long file is left to run alone at the end.
 */
const LONGEST_E2E_TESTS = [
  "e2e/package.test.ts",
  "e2e/init.test.ts",
  "e2e/vendors.test.ts",
  "e2e/{consent,experiment-sdks,growthbook-exposure,growthbook-flicker,tracking-plan,closed-sites}.test.ts",
];

/** An end-to-end project's limits: ten minutes a test (see below), at most two of its tests per core. */
const END_TO_END: Project = { timeout: 600_000, workers: "200%" };

/** The project's own test suite: every test exactly once, in the unit, integration and end-to-end projects. */
export default defineConfig({
  testDir: ".",
  outputDir: "../reports/test-output",
  fullyParallel: true,
  // Most tests wait on pages, SDK batch timers and deadlines, not on the cores: two and a half
  // workers per core, of which each end-to-end project (whole audits, with browsers of their own)
  // takes at most two per core and the integration tests one; the browser-free tests take what
  // comes free. Four end-to-end workers instead of two, the longest files first, took the suite
  // from 19.0 to 16.2 minutes on one day of a 2-core machine.
  workers: "250%",
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"], ["./summary-reporter.ts"]],
  globalSetup: "./e2e/global-setup.ts",
  // The longest end-to-end tests first, the integration tests beside them from the start; a worker
  // that comes free takes the browser-free tests, then the other end-to-end tests.
  projects: [
    // The time limits catch hangs; they judge nothing. A test's verdict comes from the product's own
    // deadlines and the fixtures' timers, and its speed is the benchmark's (npm run bench). An
    // end-to-end test runs whole audits beside three others on two cores; an integration test opens
    // a few pages in a browser beside four audits. On a 2-core machine several times slower than
    // usual (a shared host's busy day) the longest took 3 and 1.5 minutes: the limits are three times that.
    { name: "e2e-long", testMatch: LONGEST_E2E_TESTS, ...END_TO_END },
    { name: "integration", testMatch: INTEGRATION_TESTS, timeout: 240_000, workers: 1 },
    UNIT_PROJECT,
    { name: "e2e", testMatch: "e2e/**/*.test.ts", testIgnore: LONGEST_E2E_TESTS, ...END_TO_END },
  ],
});
