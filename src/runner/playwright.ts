import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { PACKAGE_ROOT } from "../package/package-root.js";
import { PLAN_ENV } from "../schedule/plan.js";

const require = createRequire(import.meta.url);

/**
 * The Playwright configuration of the audit's gathering, as compiled beside this module (the
 * package runs compiled JavaScript: npm run build).
 */
const GATHER_CONFIG = fileURLToPath(new URL("../../playwright.config.js", import.meta.url));

/**
 * The runner's own loader, which compiles TypeScript imported from ESM, left out: the gathering loads
 * compiled JavaScript only. On Node 20 that loader runs on a thread of its own through which every
 * import passes; without it the runner and each worker start about 0.7 s sooner.
 */
const WITHOUT_TS_LOADER = { PW_DISABLE_TS_ESM: "1" };

/** Runs the audit's gathering in Playwright's test runner; resolves to its exit code. */
export function runGathering(planFile: string, extraArgs: readonly string[]): Promise<number> {
  const cli = require.resolve("@playwright/test/cli");
  const args = [cli, "test", "--config", GATHER_CONFIG, ...extraArgs];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: PACKAGE_ROOT,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, ...WITHOUT_TS_LOADER, [PLAN_ENV]: planFile, FORCE_COLOR: "0" },
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(signal ? 130 : (code ?? 1)));
  });
}
