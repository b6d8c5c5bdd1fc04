import { cpus } from "node:os";
import { defineConfig, type Project } from "@playwright/test";
import { LAUNCH_ARGS } from "./src/browser.js";
import { readPlan } from "./src/plan.js";
import { runSecrets } from "./src/redact.js";
import { viewportTag } from "./src/titles.js";
import { deviceFor } from "./src/viewports.js";

/**
 * The audit's own Playwright configuration, driven by the plan `setup-audit run` writes. The
 * gather phase loads the pages; the report phase turns the findings into Allure results, scrubbing
 * the run's secrets (the API key from this environment, the journeys' typed values), which it gets
 * from here as the `secrets` option.
 */
const plan = readPlan();
const phase = process.env.SETUP_AUDIT_PHASE === "report" ? "report" : "gather";
const viewports = [...new Set(plan.targets.flatMap((target) => target.viewports))];

const browser: Project["use"] = {
  browserName: "chromium",
  launchOptions: { executablePath: plan.browserExecutable ?? undefined, args: LAUNCH_ARGS },
  ...(plan.browserEndpoint ? { connectOptions: { wsEndpoint: plan.browserEndpoint } } : {}),
};

// Gathering: one project, each test sets its device (a project per viewport would restart every
// worker and its browser when the viewport changes). Reporting: a project per viewport, named
// after it (`desktop`, `mobile`), since Allure keys history on it.
const projects: Project[] =
  phase === "gather"
    ? [{ name: "gather", use: browser }]
    : viewports.map((viewport) => ({ name: viewport, grep: new RegExp(`(^|\\s)${viewportTag(viewport)}(\\s|$)`), use: { ...deviceFor(viewport), ...browser } }));

export default defineConfig<{ secrets: readonly string[] }>({
  testDir: "./src",
  testMatch: phase === "gather" ? "gather/pages.audit.ts" : "report/allure.audit.ts",
  outputDir: `${plan.workDir}/playwright-${phase}`,
  // Report tests take milliseconds: in declaration order within each viewport's project, so
  // each spec's checklist comes first; the viewports' projects run side by side.
  fullyParallel: phase === "gather",
  retries: 0,
  timeout: 180_000,
  // Gathering waits on the network far more than on the CPU: two browsers even on two cores.
  workers: phase === "gather" ? Math.max(2, Math.floor(cpus().length / 2)) : Math.min(viewports.length, cpus().length),
  reporter:
    phase === "gather"
      ? [["./src/report/progress-reporter.ts"]]
      : [["./src/report/quiet-reporter.ts"], ["./src/report/allure-reporter.ts", allureOptions()]],
  // The gatherer opens its own contexts (gather/pages.audit.ts) and traces them itself with --trace.
  use: {
    trace: "off",
    screenshot: "off",
    video: "off",
    ...(phase === "report" ? { secrets: runSecrets(plan.targets, process.env) } : {}),
  },
  projects,
});

function allureOptions() {
  return { resultsDir: `${plan.outDir}/allure-results`, detail: false, suiteTitle: false };
}
