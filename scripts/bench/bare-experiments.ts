/**
 * The floor the audit of the experimentation-SDK pages is measured against: bare Playwright, one
 * browser, a fresh context per page × viewport, both viewports of a page at once (as one worker of
 * the audit gathers them); load the page and wait until the SDK's evaluation changed the CTA's copy
 * and, where the SDK logs its exposures to its own endpoint (a part of its URL after `~`), until
 * the SDK's request with them was answered, as the SDK sends it; then, where the page's spec clicks
 * it, click it and wait for the response of the collect its call goes to (the reference SDK's, or
 * the one a part of its URL names: PostHog's batch); then, where the SDK logs the exposure again on
 * each load (`^reload` after the exposures' part), load the page once more and wait for its
 * exposures again.
 * Prints the sum of the page × viewports' own times (from the context's opening to its closing) in ms.
 * Usage: tsx scripts/bench/bare-experiments.ts URL[~EXPOSURES[^reload]][!click[=COLLECT]]…
 */
import { chromium, devices, type Page } from "playwright";
import { findBrowser } from "../../src/browser/launch.js";
import { auditLaunchOptions } from "../../src/browser/visitor.js";

/** The copy the experiment's variation gives the CTA, once the SDK evaluated its flag. */
const ASSIGNED_COPY = "Start your free trial";

/** The reference SDK's collect, where a click's call goes unless its argument names another. */
const REFERENCE_COLLECT = "/v1/collect";

const pages = process.argv.slice(2).map((arg) => {
  const [target = arg, click] = arg.split("!click");
  const [url = target, logged = null] = target.split("~");
  const [exposures = null, reload] = logged === null ? [null] : logged.split("^");
  const collect = click === undefined ? null : click.replace(/^=/, "") || REFERENCE_COLLECT;
  return { url, exposures, reload: reload === "reload", collect };
});
/** Waits for the answer of the SDK's request with the page's exposures, as the SDK sends it; null where it logs none to its own endpoint. */
const exposedOn = (page: Page, exposures: string | null) =>
  exposures === null
    ? null
    : page.waitForResponse((response) => response.url().includes(exposures), { timeout: 30_000 });
const browserChoice = findBrowser();
if (!browserChoice.found) throw new Error(browserChoice.problem);
const browser = await chromium.launch(auditLaunchOptions(browserChoice.executablePath));
let unitsMs = 0;
for (const { url, exposures, reload, collect } of pages) {
  await Promise.all(
    ["Desktop Chrome", "Pixel 7"].map(async (device) => {
      const started = Date.now();
      const context = await browser.newContext(devices[device]);
      const page = await context.newPage();
      const exposed = exposedOn(page, exposures);
      await page.goto(url, { waitUntil: "load" });
      await page.locator("#cta", { hasText: ASSIGNED_COPY }).waitFor({ timeout: 30_000 });
      await exposed;
      if (collect !== null) {
        const collected = page.waitForResponse((response) => response.url().includes(collect), { timeout: 30_000 });
        await page.click("#cta");
        await collected;
      }
      if (reload) {
        const exposedAgain = exposedOn(page, exposures);
        await page.goto(url, { waitUntil: "load" });
        await exposedAgain;
      }
      await context.close();
      unitsMs += Date.now() - started;
    }),
  );
}
await browser.close();
process.stdout.write(`${unitsMs}\n`);
