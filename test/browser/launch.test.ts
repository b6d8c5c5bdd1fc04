import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { type BrowserServer, chromium } from "playwright";
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

/** The renderer processes below the process `pid` (Chromium forks them through its zygotes). */
function rendererProcessesBelow(pid: number): number[] {
  const processes = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return [{ pid: Number(entry), parent, commandLine: readFileSync(`/proc/${entry}/cmdline`, "utf8") }];
      } catch {
        return []; // ended meanwhile
      }
    });
  const below = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const { pid: child, parent } of processes)
      if (below.has(parent) && !below.has(child)) grew = below.add(child).size > 0;
  }
  return processes
    .filter((process) => process.pid !== pid && below.has(process.pid))
    .filter((process) => process.commandLine.includes("--type=renderer"))
    .map((process) => process.pid);
}

test("a page the audit's browser navigated to a site runs in one renderer, where Chromium's default starts a spare beside it", async () => {
  test.skip(process.platform !== "linux", "reads the browser's processes from /proc");
  const site = createServer((_request, response) => response.end("<title>A site</title><p>A page</p>"));
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const audits = auditLaunchOptions(testBrowserPath() ?? null);
  const withSpare = {
    ...audits,
    args: audits.args!.map((arg) => arg.replace(",SpareRendererForSitePerProcess", "")),
  };
  expect(withSpare.args).not.toEqual(audits.args);
  const servers = [await chromium.launchServer(audits), await chromium.launchServer(withSpare)];
  try {
    const navigated = async (server: BrowserServer) => {
      const browser = await chromium.connect(server.wsEndpoint());
      await (await (await browser.newContext()).newPage()).goto(url);
      return server.process().pid!;
    };
    // The audit's browser navigates first: by the time the default's spare is running, the audit's
    // own would be too.
    const audit = await navigated(servers[0]!);
    const control = await navigated(servers[1]!);
    await expect.poll(() => rendererProcessesBelow(control).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
    expect(rendererProcessesBelow(audit)).toHaveLength(1);
  } finally {
    for (const server of servers) await server.close();
    site.close();
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
