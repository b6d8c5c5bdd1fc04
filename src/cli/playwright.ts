import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { PLAN_ENV } from "../plan.js";

const require = createRequire(import.meta.url);

/** The package root, where playwright.config.ts lives. */
export const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The Playwright configuration of each phase: the audit's gathering, or `setup-audit init`'s look at a site. */
const PHASE_CONFIGS = { gather: "playwright.config.ts", init: "src/init/playwright.config.ts" } as const;

/** Runs the audit's gathering (or init's look) in Playwright's test runner; resolves to its exit code. */
export function runPlaywrightPhase(phase: keyof typeof PHASE_CONFIGS, planFile: string, extraArgs: readonly string[]): Promise<number> {
  const cli = require.resolve("@playwright/test/cli");
  const args = [cli, "test", "--config", `${PACKAGE_ROOT}${PHASE_CONFIGS[phase]}`, ...extraArgs];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: PACKAGE_ROOT,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, [PLAN_ENV]: planFile, FORCE_COLOR: "0" },
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(signal ? 130 : (code ?? 1)));
  });
}
