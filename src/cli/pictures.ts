import type { Page } from "playwright";
import { findBrowser, LAUNCH_ARGS } from "../browser/launch.js";
import { playwright } from "../browser/playwright.js";
import type { AuditPlan } from "../schedule/plan.js";
import type { PicturePage } from "../report/side-by-side.js";
import { variationPictures, type PictureSources, type VariationPictures } from "../report/variation-pictures.js";
import { firstLine } from "../text/wording.js";

/**
 * The report's pictures are rendered by a browser in the CLI's own process, after the checks (the
 * run's browsers are gone by then, and `merge` has none): the run's executable with its launch
 * arguments, or its browser server. It starts with the first picture, so a run with none starts
 * no browser, and is closed once the pictures are made.
 */

/** Where the pictures' browser comes from. */
export type PictureBrowserSource = Pick<AuditPlan, "browserExecutable" | "browserEndpoint">;

/** The browser a run on this machine would find: the pictures' of a command that runs no browsers of its own (`merge`, a replay). */
export function localPictureBrowser(): PictureBrowserSource {
  const browser = findBrowser();
  return { browserExecutable: browser.found ? browser.executablePath : null, browserEndpoint: null };
}

/**
 * The run's variation pictures; none when they cannot be made (no browser, a broken screenshot),
 * said on stderr: like the rest of the report, they never change the verdict.
 */
export async function makeVariationPictures(
  run: PictureSources,
  source: PictureBrowserSource,
): Promise<VariationPictures> {
  let opened: Promise<Page> | undefined;
  try {
    return await variationPictures(run, async (picture) => renderPicture(await (opened ??= openPage(source)), picture));
  } catch (error) {
    process.stderr.write(`setup-audit: could not make the pictures of the variations: ${firstLine(error)}\n`);
    return new Map();
  } finally {
    // It closes while the results are written: nothing after the pictures needs it.
    opened?.then((page) => page.context().browser()?.close()).catch(() => undefined);
  }
}

async function openPage(source: PictureBrowserSource): Promise<Page> {
  const browser = source.browserEndpoint
    ? await playwright().chromium.connect(source.browserEndpoint)
    : await playwright().chromium.launch({ executablePath: source.browserExecutable ?? undefined, args: LAUNCH_ARGS });
  // One pixel per CSS pixel: the page's size is the picture's.
  return browser.newPage({ deviceScaleFactor: 1 });
}

/** `picture` rendered on `page`: loaded at its size, every screenshot in it decoded, then its screenshot. */
export async function renderPicture(page: Page, picture: PicturePage): Promise<Buffer> {
  await page.setViewportSize({ width: picture.width, height: picture.height });
  await page.setContent(picture.html);
  await page.evaluate(() => Promise.all([...document.images].map((image) => image.decode())));
  return page.screenshot();
}
