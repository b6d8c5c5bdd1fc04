/**
 * The floor the audit is measured against: bare Playwright, the same browsers in parallel, a
 * fresh context per page × viewport, load the page and wait for its collect response.
 * Usage: tsx scripts/bench/bare.ts BASE_URL PAGES WORKERS
 */
import { chromium, devices } from "playwright";
import { findBrowser } from "../../src/browser/launch.js";
import { auditLaunchOptions } from "../../src/browser/visitor.js";

const [baseUrl, pageCount, workerCount] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4] ?? 2)];
const browserChoice = findBrowser();
if (!browserChoice.found) throw new Error(browserChoice.problem);
const jobs = ["Desktop Chrome", "Pixel 7"].flatMap((device) =>
  Array.from({ length: pageCount }, (_, index) => ({ device, index })),
);

async function worker(): Promise<void> {
  const browser = await chromium.launch(auditLaunchOptions(browserChoice.found ? browserChoice.executablePath : null));
  for (let job = jobs.shift(); job; job = jobs.shift()) {
    const context = await browser.newContext(devices[job.device]);
    const page = await context.newPage();
    const collected = page.waitForResponse("**/v1/collect", { timeout: 30_000 });
    await page.goto(`${baseUrl}/bench/${job.index}`, { waitUntil: "load" });
    await collected;
    await context.close();
  }
  await browser.close();
}

await Promise.all(Array.from({ length: workerCount }, worker));
