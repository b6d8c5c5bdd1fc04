import { test as base } from "@playwright/test";
import { chromium, type Browser } from "playwright";
import { EPHEMERAL_PORTS, startFixtures, type FixtureServer } from "../../fixtures/server.js";
import { findBrowser, LAUNCH_ARGS } from "../../src/browser/launch.js";
import { auditLaunchOptions } from "../../src/browser/visitor.js";

/** The executable the suite drives: the one the audit itself finds (undefined for Playwright's own Chromium). */
export function testBrowserPath(): string | undefined {
  const choice = findBrowser();
  if (!choice.found) throw new Error(`No browser for the tests: ${choice.problem}. Run \`npm run install-browser\`.`);
  return choice.executablePath ?? undefined;
}

/**
 * Tests with the bundled fixtures on ephemeral ports and a real Chromium, all per worker: `browser`
 * says it is automated (`navigator.webdriver` true), `visitorBrowser` is launched as the audit's.
 */
export const test = base.extend<object, { fixtures: FixtureServer; browser: Browser; visitorBrowser: Browser }>({
  fixtures: [
    async ({}, use) => {
      const server = await startFixtures({ ports: EPHEMERAL_PORTS });
      await use(server);
      await server.close();
    },
    { scope: "worker" },
  ],
  browser: [
    async ({}, use) => {
      const browser = await chromium.launch({ executablePath: testBrowserPath(), args: LAUNCH_ARGS });
      await use(browser);
      await browser.close();
    },
    { scope: "worker" },
  ],
  visitorBrowser: [
    async ({}, use) => {
      const browser = await chromium.launch(auditLaunchOptions(testBrowserPath() ?? null));
      await use(browser);
      await browser.close();
    },
    { scope: "worker" },
  ],
});
