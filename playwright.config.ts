import { cpus } from "node:os";
import { defineConfig } from "@playwright/test";
import { LAUNCH_ARGS, VISITOR_ARGS } from "./src/browser/launch.js";
import { runSecretLists } from "./src/cli/run-secrets.js";
import { readPlan } from "./src/plan/plan.js";

/**
 * The audit's own Playwright configuration, driven by the plan `setup-audit run` writes: the
 * gather phase, which loads the pages. It runs compiled (dist/), hence the `.js` names. One
 * project for every viewport: each test sets its device (a project per viewport would restart
 * every worker and its browser when the viewport changes).
 * A run with a closed site's login walks it first, in a project the pages' project depends on.
 */
const plan = readPlan();
const logsIn = plan.targets.some((target) => target.spec.environments[target.environment]?.auth?.login !== undefined);
// Consent managers show their banners to visitors, and some hide them from automated browsers.
const asksConsent = plan.targets.some((target) => target.spec.consent !== undefined);
const use = {
  browserName: "chromium" as const,
  launchOptions: { executablePath: plan.browserExecutable ?? undefined, args: asksConsent ? [...LAUNCH_ARGS, ...VISITOR_ARGS] : LAUNCH_ARGS },
  ...(plan.browserEndpoint ? { connectOptions: { wsEndpoint: plan.browserEndpoint } } : {}),
};

export default defineConfig({
  testDir: "./src",
  outputDir: `${plan.workDir}/playwright-gather`,
  fullyParallel: true,
  retries: 0,
  timeout: 180_000,
  // Gathering waits on the network far more than on the CPU: two browsers even on two cores.
  workers: Math.max(2, Math.floor(cpus().length / 2)),
  // Its lines hide the run's secrets, those the logins yielded included, as they stand at each line.
  reporter: [["./src/report/progress-reporter.js", { secrets: () => runSecretLists(plan.targets, process.env, plan.workDir).secrets }]],
  // The gatherer opens its own contexts (gather/pages.audit.ts) and traces them itself with --trace.
  use: { trace: "off", screenshot: "off", video: "off" },
  projects: [
    ...(logsIn ? [{ name: "login", testMatch: "gather/login.audit.js", use }] : []),
    { name: "gather", testMatch: "gather/pages.audit.js", dependencies: logsIn ? ["login"] : [], use },
  ],
});
