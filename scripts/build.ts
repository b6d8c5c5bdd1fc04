/**
 * `npm run build`: compiles what the package runs into dist/ — the CLI, the audit's Playwright
 * phases and the demo's shop and mock service (fixtures/demo.ts and what it imports) — with the
 * demo SDK beside its server. dist/ is emptied first, so that no module deleted from the sources
 * lingers in the package.
 */
import { spawnSync } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const root = join(import.meta.dirname, "..");
const dist = join(root, "dist");
const require = createRequire(import.meta.url);
const tsc = join(dirname(require.resolve("typescript/package.json")), "bin/tsc");

rmSync(dist, { recursive: true, force: true });
const compiled = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);
cpSync(join(root, "fixtures/service/sdk.js"), join(dist, "fixtures/service/sdk.js"));
cpSync(join(root, "src/browser/devices.json"), join(dist, "src/browser/devices.json"));
