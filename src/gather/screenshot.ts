import { writeFile } from "node:fs/promises";
import type { CDPSession } from "playwright";
import type { PageArtifacts } from "../artifacts/types.js";
import type { Gathering, GathererPart } from "./part.js";
import { withDeadline } from "./deadline.js";
import { hasMasks, maskedPicture, placeMasks, type PictureMasks, type PictureOutcome } from "./picture-masks.js";

const SCREENSHOT_TIMEOUT_MS = 10_000;

/**
 * Saves what the viewport shows, in CSS pixels (a phone's 2.6× screenshot costs more than it
 * shows a person), straight from Chromium. Playwright's own screenshot first hides the caret and
 * waits for fonts in every frame through an isolated world of its own, which costs several round
 * trips per page; the audit takes its screenshot once the page has loaded and settled anyway.
 * Each of `masks` is painted over it, where it was just before and just after the capture (a
 * page may move it meanwhile); when one cannot be placed, nothing is saved. Rejects when the
 * capture failed.
 */
export async function saveViewportScreenshot(
  session: CDPSession,
  path: string,
  masks: PictureMasks,
): Promise<PictureOutcome> {
  const png = await withDeadline(
    maskedViewport(session, masks),
    SCREENSHOT_TIMEOUT_MS,
    `the screenshot took more than ${SCREENSHOT_TIMEOUT_MS / 1000} s`,
  );
  if (typeof png === "string") return { saved: false, why: png };
  await writeFile(path, png);
  return { saved: true };
}

/** The viewport with its masks painted over; why not, when they cannot be placed. */
async function maskedViewport(session: CDPSession, masks: PictureMasks): Promise<Buffer | string> {
  if (!hasMasks(masks)) return (await captureViewport(session)).png;
  const before = await placeMasks(masks);
  if ("unplaced" in before) return before.unplaced;
  const { png, clip } = await captureViewport(session);
  const after = await placeMasks(masks);
  if ("unplaced" in after) return after.unplaced;
  return maskedPicture(png, clip, [...before.areas, ...after.areas]) ?? "the picture could not be read to be masked";
}

/** The viewport in CSS pixels, and the area of the document it shows. */
async function captureViewport(
  session: CDPSession,
): Promise<{ png: Buffer; clip: { x: number; y: number; width: number; height: number } }> {
  const { cssVisualViewport, contentSize, cssContentSize } = await session.send("Page.getLayoutMetrics");
  const devicePixelRatio = cssContentSize.width > 0 ? contentSize.width / cssContentSize.width : 1;
  const clip = {
    x: cssVisualViewport.pageX,
    y: cssVisualViewport.pageY,
    width: cssVisualViewport.clientWidth,
    height: cssVisualViewport.clientHeight,
  };
  const { data } = await session.send("Page.captureScreenshot", {
    format: "png",
    optimizeForSpeed: true,
    clip: { ...clip, scale: (cssVisualViewport.zoom ?? 1) / devicePixelRatio },
  });
  return { png: Buffer.from(data, "base64"), clip };
}

/** The screenshot part: the viewport saved once the journey is done; its name, or null when it could not be. */
export class ScreenshotPart implements GathererPart {
  /** A page never opened has no screenshot. */
  static empty(): Pick<PageArtifacts, "screenshot"> {
    return { screenshot: null };
  }

  private saved: Promise<string | null> = Promise.resolve(null);

  constructor(private readonly gathering: Gathering<"pictures" | "maskedFields">) {}

  async attach(): Promise<void> {
    if (this.gathering.input.pictures.screenshot !== null) await this.gathering.cdp();
  }

  async settle(): Promise<void> {
    const screenshot = this.gathering.pictureFile(this.gathering.input.pictures.screenshot);
    if (screenshot === null) return;
    const session = await this.gathering.cdp();
    this.saved = saveViewportScreenshot(session, screenshot.path, this.gathering.masks()).then(
      (outcome) => this.gathering.kept("screenshot", outcome, screenshot.name),
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
