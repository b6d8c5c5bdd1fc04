import { cpus } from "node:os";
import { defineConfig } from "@playwright/test";
import { LAUNCH_ARGS } from "./src/browser.js";
import { readPlan } from "./src/plan.js";

/**
 * The audit's own Playwright configuration, driven by the plan `setup-audit run` writes: the
 * gather phase, which loads the pages. It runs compiled (dist/), hence the `.js` names. One project: each test sets its device (a project per
 * viewport would restart every worker and its browser when the viewport changes).
 */
const plan = readPlan();

export default defineConfig({
  testDir: "./src",
  testMatch: "gather/pages.audit.js",
  outputDir: `${plan.workDir}/playwright-gather`,
  fullyParallel: true,
  retries: 0,
  timeout: 180_000,
  // Gathering waits on the network far more than on the CPU: two browsers even on two cores.
  workers: Math.max(2, Math.floor(cpus().length / 2)),
  reporter: [["./src/report/progress-reporter.js"]],
  // The gatherer opens its own contexts (gather/pages.audit.ts) and traces them itself with --trace.
  use: { trace: "off", screenshot: "off", video: "off" },
  projects: [
    {
      name: "gather",
      use: {
        browserName: "chromium",
        launchOptions: { executablePath: plan.browserExecutable ?? undefined, args: LAUNCH_ARGS },
        ...(plan.browserEndpoint ? { connectOptions: { wsEndpoint: plan.browserEndpoint } } : {}),
      },
    },
  ],
});
