/**
 * Makes sure a Chromium is there to audit with: the one SETUP_AUDIT_BROWSER names, Playwright's
 * own, or a system one; else it downloads Playwright's, and where that is impossible (no
 * internet) installs Debian's `chromium` package when it can. Exit 3 with what to do otherwise.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { BROWSER_ENV, findBrowser } from "../src/browser/launch.js";

const require = createRequire(import.meta.url);

function run(command: string, args: string[]): boolean {
  process.stdout.write(`$ ${command} ${args.join(" ")}\n`);
  return spawnSync(command, args, { stdio: "inherit", timeout: 15 * 60_000 }).status === 0;
}

function report(): never {
  const choice = findBrowser();
  if (choice.found) {
    process.stdout.write(`Browser: ${choice.description}\n`);
    process.exit(0);
  }
  process.stderr.write(
    `No browser to audit with (${choice.problem}).\nInstall Chromium (e.g. \`apt-get install chromium\`) or set ${BROWSER_ENV} to a Chromium or Chrome executable.\n`,
  );
  process.exit(3);
}

if (findBrowser().found) report();
run(process.execPath, [require.resolve("@playwright/test/cli"), "install", "chromium"]);
if (findBrowser().found) report();
const canApt =
  process.platform === "linux" && process.getuid?.() === 0 && spawnSync("apt-get", ["--version"]).status === 0;
if (canApt) {
  process.stdout.write(
    "Playwright's Chromium could not be downloaded; installing Debian's chromium package instead.\n",
  );
  if (!run("apt-get", ["install", "-y", "--no-install-recommends", "chromium"])) {
    run("apt-get", ["update"]);
    run("apt-get", ["install", "-y", "--no-install-recommends", "chromium"]);
  }
}
report();
