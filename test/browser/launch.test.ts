import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { chromium } from "playwright";
import { auditLaunchOptions } from "../../src/browser/visitor.js";
import { testBrowserPath } from "../support/browser.js";

/**
 * The audit's browser turns off the address bar's preloaded popups, and nothing Playwright turns off
 * comes back on: Chromium reads only the last `--disable-features` of its command line.
 */

/** The feature names of each `--disable-features` switch on a command line, in order. */
function disabledFeatureLists(commandLine: readonly string[]): string[][] {
  return commandLine
    .filter((arg) => arg.startsWith("--disable-features="))
    .map((arg) => arg.slice("--disable-features=".length).split(","));
}

test("the browser's last --disable-features holds every feature Playwright turns off, and the address bar's popups", async () => {
  test.skip(process.platform !== "linux", "reads the browser's command line from /proc");
  const server = await chromium.launchServer(auditLaunchOptions(testBrowserPath() ?? null));
  try {
    const commandLine = readFileSync(`/proc/${server.process().pid}/cmdline`, "utf8").split("\0");
    const lists = disabledFeatureLists(commandLine);
    expect(lists.length).toBeGreaterThan(1);
    const effective = lists.at(-1)!;
    for (const earlier of lists.slice(0, -1)) expect(effective).toEqual(expect.arrayContaining(earlier));
    expect(effective).toEqual(expect.arrayContaining(["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]));
  } finally {
    await server.close();
  }
});

test("a page of the audit's browser comes without the address bar's popups: no browser UI target beside it", async () => {
  const browser = await chromium.launch(auditLaunchOptions(testBrowserPath() ?? null));
  try {
    for (let index = 0; index < 2; index++) {
      const page = await (await browser.newContext()).newPage();
      await page.goto("data:text/html,<title>A page</title>");
    }
    const session = await browser.newBrowserCDPSession();
    const { targetInfos } = await session.send("Target.getTargets");
    expect(targetInfos.filter((target) => target.type === "page")).toHaveLength(2);
    expect(targetInfos.filter((target) => target.type === "browser_ui").map((target) => target.url)).toEqual([]);
  } finally {
    await browser.close();
  }
});

test("the package depends on exactly the Playwright whose list it repeats: an install never brings a later one", () => {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  const installed = JSON.parse(
    readFileSync(new URL("../../node_modules/playwright/package.json", import.meta.url), "utf8"),
  );
  expect(manifest.dependencies.playwright).toBe(installed.version);
  expect(manifest.dependencies["@playwright/test"]).toBe(installed.version);
  // The docs' install command fetches that version's Chromium, whatever Playwright the project has.
  for (const doc of ["../../README.md", "../../docs/getting-started.md"])
    expect(readFileSync(new URL(doc, import.meta.url), "utf8")).toContain(
      `npx playwright@${installed.version} install chromium`,
    );
});
