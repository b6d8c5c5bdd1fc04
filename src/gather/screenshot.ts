import { writeFile } from "node:fs/promises";
import type { CDPSession, Page } from "playwright";
import type { PageArtifacts } from "../artifacts/types.js";
import type { Gathering, GathererPart } from "./part.js";
import { withDeadline } from "./deadline.js";

const SCREENSHOT_TIMEOUT_MS = 10_000;

/** The fields of a page whose text is a secret (a step typed a `valueEnv` or a canary into them), by selector. */
export interface MaskedFields {
  page: Page;
  selectors: readonly string[];
}

/**
 * Saves what the viewport shows, in CSS pixels (a phone's 2.6× screenshot costs more than it
 * shows a person), straight from Chromium. Playwright's own screenshot first hides the caret and
 * waits for fonts in every frame through an isolated world of its own, which costs several round
 * trips per page; the audit takes its screenshot once the page has loaded and settled anyway.
 * A page with fields to mask is taken by Playwright, whose `mask` covers each of them.
 */
export async function saveViewportScreenshot(
  session: CDPSession,
  path: string,
  masked: MaskedFields | null = null,
): Promise<void> {
  const capture = masked !== null && masked.selectors.length > 0 ? captureMasked(masked) : captureViewport(session);
  const png = await withDeadline(
    capture,
    SCREENSHOT_TIMEOUT_MS,
    `the screenshot took more than ${SCREENSHOT_TIMEOUT_MS / 1000} s`,
  );
  await writeFile(path, png);
}

/** The viewport in CSS pixels, each of the fields covered by a box. */
async function captureMasked({ page, selectors }: MaskedFields): Promise<Buffer> {
  return page.screenshot({
    scale: "css",
    caret: "hide",
    mask: selectors.map((selector) => page.locator(selector)),
    timeout: SCREENSHOT_TIMEOUT_MS,
  });
}

async function captureViewport(session: CDPSession): Promise<Buffer> {
  const { cssVisualViewport, contentSize, cssContentSize } = await session.send("Page.getLayoutMetrics");
  const devicePixelRatio = cssContentSize.width > 0 ? contentSize.width / cssContentSize.width : 1;
  const { data } = await session.send("Page.captureScreenshot", {
    format: "png",
    optimizeForSpeed: true,
    clip: {
      x: cssVisualViewport.pageX,
      y: cssVisualViewport.pageY,
      width: cssVisualViewport.clientWidth,
      height: cssVisualViewport.clientHeight,
      scale: (cssVisualViewport.zoom ?? 1) / devicePixelRatio,
    },
  });
  return Buffer.from(data, "base64");
}

/** The screenshot part: the viewport saved once the journey is done; its name, or null when it could not be. */
export class ScreenshotPart implements GathererPart {
  private saved: Promise<string | null> = Promise.resolve(null);

  constructor(private readonly gathering: Gathering) {}

  async attach(): Promise<void> {
    if (this.gathering.options.screenshot) await this.gathering.cdp();
  }

  async settle(): Promise<void> {
    const { screenshot } = this.gathering.options;
    if (!screenshot) return;
    this.saved = saveViewportScreenshot(await this.gathering.cdp(), screenshot.path, this.gathering.masked).then(
      () => screenshot.name,
      () => null,
    );
  }

  /** The save under way. */
  pending(): Promise<unknown> {
    return this.saved;
  }

  async finish(): Promise<Pick<PageArtifacts, "screenshot">> {
    return { screenshot: await this.saved };
  }
}
