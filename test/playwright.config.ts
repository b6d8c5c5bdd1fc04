import { defineConfig } from "@playwright/test";

/** The project's own test suite: unit tests of every module, and end-to-end runs of the CLI. */
export default defineConfig({
  testDir: ".",
  outputDir: "../reports/test-output",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"], ["./summary-reporter.ts"]],
  globalSetup: "./e2e/global-setup.ts",
  projects: [
    { name: "unit", testIgnore: "e2e/**" },
    { name: "e2e", testMatch: "e2e/**/*.test.ts", timeout: 180_000 },
  ],
});
