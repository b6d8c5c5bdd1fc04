import { playwrightTest } from "../browser/playwright.js";
import { auditLaunchOptions } from "../browser/visitor.js";
import { PLAN_ENV } from "../schedule/plan.js";
import { readLookPlan } from "./site-look.js";

/**
 * The Playwright configuration of `setup-audit init`'s look at a site: one test in one worker,
 * with no time limit of its own (each page's load and delivery waits are bounded). It runs
 * compiled (dist/), hence the `.js` names.
 */
const plan = readLookPlan(process.env[PLAN_ENV]!);

export default playwrightTest().defineConfig({
  testDir: ".",
  testMatch: "site-look.audit.js",
  outputDir: `${plan.workDir}/playwright-init`,
  retries: 0,
  timeout: 0,
  workers: 1,
  reporter: [["./look-reporter.js"]],
  // A visitor's browser, as the run's: consent managers that hide their banner from automated ones show it, and init answers it.
  use: {
    browserName: "chromium",
    launchOptions: auditLaunchOptions(plan.browserExecutable),
    trace: "off",
    screenshot: "off",
    video: "off",
  },
});
