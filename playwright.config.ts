import { cpus } from "node:os";
import { playwrightTest } from "./src/browser/playwright.js";
import { auditLaunchOptions } from "./src/browser/visitor.js";
import { gatheringSecrets } from "./src/cli/run-secrets.js";
import { readPlan } from "./src/schedule/plan.js";

/**
 * The audit's own Playwright configuration, driven by the plan `setup-audit run` writes: the
 * gather phase, which loads the pages. It runs compiled (dist/), hence the `.js` names. One
 * project for every viewport: each test sets its device (a project per viewport would restart
 * every worker and its browser when the viewport changes).
 * A run with a closed site's login walks it first, in a project the pages' project depends on.
 */
const plan = readPlan();
const logsIn = plan.targets.some((target) => target.spec.environments[target.environment]?.auth?.login !== undefined);
// A visitor's browser on every run (src/browser/visitor.ts); a browser server's contexts are made one in gather/audit-test.ts.
const use = {
  browserName: "chromium" as const,
  launchOptions: auditLaunchOptions(plan.browserExecutable),
  ...(plan.browserEndpoint ? { connectOptions: { wsEndpoint: plan.browserEndpoint } } : {}),
};

export default playwrightTest().defineConfig({
  testDir: "./src",
  outputDir: `${plan.workDir}/playwright-gather`,
  fullyParallel: true,
  retries: 0,
  timeout: 180_000,
  // Gathering waits on the network far more than on the CPU: two browsers even on two cores.
  workers: Math.max(2, Math.floor(cpus().length / 2)),
  // Its lines hide the run's secrets, those the logins yielded included, as they stand at each line.
  reporter: [
    ["./src/report/progress-reporter.js", { secrets: gatheringSecrets(plan.targets, process.env, plan.workDir) }],
  ],
  // The gatherer opens its own contexts (gather/pages.audit.ts) and traces them itself with --trace.
  use: { trace: "off", screenshot: "off", video: "off" },
  projects: [
    ...(logsIn ? [{ name: "login", testMatch: "gather/login.audit.js", use }] : []),
    { name: "gather", testMatch: "gather/pages.audit.js", dependencies: logsIn ? ["login"] : [], use },
  ],
});
