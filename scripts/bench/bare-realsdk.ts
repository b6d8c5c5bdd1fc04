/**
 * The floor the audit of the real-SDK pages is measured against: bare Playwright, one browser, a
 * fresh context per page × viewport; load the page, wait for the SDK's own ready flag, click
 * #signup and wait until the stand-in collector received the calls.
 * Usage: tsx scripts/bench/bare-realsdk.ts VENDORS_ORIGIN PATH…
 */
import { chromium, devices } from "playwright";
import { drivePage } from "../../fixtures/vendors/drive.js";
import { findVendorPage } from "../../fixtures/vendors/manifest.js";
import { findBrowser } from "../../src/browser/launch.js";
import { auditLaunchOptions } from "../../src/browser/visitor.js";

const [baseUrl, ...paths] = process.argv.slice(2);
const browserChoice = findBrowser();
if (!browserChoice.found) throw new Error(browserChoice.problem);
// Launched as the audit's browser is: a visitor's, whose calls PostHog's bot filter keeps.
const browser = await chromium.launch(auditLaunchOptions(browserChoice.executablePath));
for (const device of ["Desktop Chrome", "Pixel 7"]) {
  for (const path of paths) {
    const context = await browser.newContext(devices[device]);
    const result = await drivePage(await context.newPage(), findVendorPage(path)!, { baseUrl: baseUrl! });
    if (!result.delivered)
      throw new Error(`${path} on ${device}: the collector never received ${JSON.stringify(result.missing)}`);
    await context.close();
  }
}
await browser.close();
