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
  "browser/visitor.test.ts",
  "gather/{consent,experiment-sdk,flicker,key-places,login,login-state,page,page-done,picture-masks,reload,routes,sdk-model,site-access,traffic,variation}.test.ts",
  "init/{first-look,key-discovery,sdk-detection,service-project,site-look,spec-draft}.test.ts",
  "report/{overview-phone,side-by-side}.test.ts",
];

/** The browser-free tier: runs in seconds, and unit.config.ts runs it with no browser to be found. */
export const UNIT_PROJECT: Project = { name: "unit", testIgnore: ["e2e/**", ...INTEGRATION_TESTS] };

/** The project's own test suite: every test exactly once, in the unit, integration and end-to-end projects. */
export default defineConfig({
  testDir: ".",
  outputDir: "../reports/test-output",
  fullyParallel: true,
  // Most tests wait on pages, SDK batch timers and deadlines, not on the cores: one and a half
  // workers per core, of which the end-to-end audits (each with browsers of its own) take at most
  // one per core; the rest run the browser-free and integration tests beside them. The audits keep
  // both cores busy: three end-to-end workers instead of two did the same tests in the same time.
  workers: "150%",
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"], ["./summary-reporter.ts"]],
  globalSetup: "./e2e/global-setup.ts",
  // The end-to-end tests first, the longest part: the others then run beside them from the start.
  projects: [
    // The time limits catch hangs; they judge nothing. A test's verdict comes from the product's own
    // deadlines and the fixtures' timers, and its speed is the benchmark's (npm run bench). An
    // end-to-end test runs whole audits beside another on two cores; an integration test opens a
    // few pages in a browser beside two audits. On a 2-core machine several times slower than usual
    // (a shared host's busy day) the longest took 3 and 1.5 minutes: the limits are three times that.
    { name: "e2e", testMatch: "e2e/**/*.test.ts", timeout: 600_000, workers: "100%" },
    UNIT_PROJECT,
    { name: "integration", testMatch: INTEGRATION_TESTS, timeout: 240_000 },
  ],
});
