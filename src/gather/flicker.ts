import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import type { CDPSession, Page } from "playwright";
import { flickerTimes } from "../artifacts/flicker.js";
import type { FilmstripFrame, FlickerFrames, PageArtifacts } from "../artifacts/types.js";
import type { Gathering, GathererPart } from "./part.js";

/**
 * Flicker, measured on the page's own clock: an init script samples every rendered frame from
 * the first (what the target shows, whether the page is hidden), and Chromium's screencast keeps
 * the frames that changed on screen, a few of which become the filmstrip. Measuring, not judging:
 * experiment.flicker judges.
 */

/** The symbol under which the page keeps the sampler's state, out of its own code's way. */
const SAMPLER_KEY = "setup-audit.flicker";

/** The sampler stops by itself after this long, should the audit never read it. */
const SAMPLER_MAX_MS = 30_000;

/** The sampler's state in the page. */
interface SamplerState {
  /** [sampled at, hidden 0/1, look index] per frame. */
  frames: [number, 0 | 1, number][];
  /** Each look of the target, in full. */
  looks: string[];
  /** Each look's box in CSS pixels of the page. */
  boxes: { x: number; y: number; width: number; height: number }[];
  stopped: boolean;
  costMs: number;
}

/**
 * An init script: from the first rendered frame, at every frame, whether html or body is hidden
 * and what the target shows: its content, as its markup and every computed longhand but those of
 * its size and those its running animations move (a layout shift above it, a web font swapping
 * its glyphs' widths or a pulsing button is no other content), or invisible (hidden by itself or
 * an ancestor below body, opacity included). It is computed again only after something changed (a
 * mutation, a transition or an animation), timed when the sampling of the frame ends (the style and layout the frame needed happened by then; the frame's own
 * timestamp runs up to ~45 ms early on the first frame). It writes nothing into the page: its
 * state hangs off a symbol. Serialised into the page, so it must be self-contained.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: serialised into the page
export function flickerSampler({ key, selector, maxMs }: { key: string; selector: string; maxMs: number }): void {
  // The target is the page's own: a frame's document has none of its own to sample.
  if (window !== window.top) return;
  const state: SamplerState = { frames: [], looks: [], boxes: [], stopped: false, costMs: 0 };
  Object.defineProperty(window, Symbol.for(key), { value: state });
  const known = new Map<string, number>();
  const ABSENT = -1;
  const INVISIBLE = -2;
  let dirty = true;
  let last = ABSENT;
  const hidden = (element: Element | null) => {
    if (element === null) return false;
    const style = getComputedStyle(element);
    return style.opacity === "0" || style.visibility === "hidden";
  };
  // The longhands of the target's size: a font swap or a narrower column changes them, not its content.
  const SIZE = new Set(["width", "height", "inline-size", "block-size", "perspective-origin", "transform-origin"]);
  const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  const fadedBelowBody = (element: Element) => {
    for (
      let parent = element.parentElement;
      parent !== null && parent !== document.body && parent !== document.documentElement;
      parent = parent.parentElement
    ) {
      if (getComputedStyle(parent).opacity === "0") return true;
    }
    return false;
  };
  const lookOf = (element: Element): number => {
    // An opacity on html or body is the hidden column, not the target's look.
    if (
      !element.checkVisibility({ visibilityProperty: true }) ||
      getComputedStyle(element).opacity === "0" ||
      fadedBelowBody(element)
    )
      return INVISIBLE;
    const animated = new Set(
      element
        .getAnimations()
        .filter((animation) => animation.playState === "running")
        .flatMap((animation) =>
          animation.effect instanceof KeyframeEffect
            ? animation.effect.getKeyframes().flatMap((keyframe) => Object.keys(keyframe).map(kebab))
            : [],
        ),
    );
    const style = getComputedStyle(element);
    const parts = [element.innerHTML];
    for (let index = 0; index < style.length; index++) {
      const name = style[index]!;
      if (!SIZE.has(name) && !animated.has(name)) parts.push(`${name}:${style.getPropertyValue(name)}`);
    }
    const rect = element.getBoundingClientRect();
    const look = parts.join("\u0001");
    let index = known.get(look);
    if (index === undefined) {
      index = state.looks.length;
      state.looks.push(look);
      state.boxes.push({ x: rect.x + scrollX, y: rect.y + scrollY, width: rect.width, height: rect.height });
      known.set(look, index);
    }
    return index;
  };
  const frame = () => {
    const started = performance.now();
    if (dirty) {
      dirty = false;
      let element: Element | null = null;
      try {
        element = document.querySelector(selector);
      } catch {
        // Not valid CSS: experiment.selector says so.
      }
      last = element === null ? ABSENT : lookOf(element);
    }
    const shown = hidden(document.documentElement) || hidden(document.body) ? 1 : 0;
    const ended = performance.now();
    state.costMs += ended - started;
    state.frames.push([ended, shown, last]);
    if (!state.stopped && ended < maxMs) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const changed = () => {
    dirty = true;
  };
  new MutationObserver(changed).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
  for (const type of ["transitionrun", "transitionend", "animationstart", "animationend", "load"])
    document.addEventListener(type, changed, true);
}

/** What `flickerSampler` needs for the target `selector`. */
export function samplerFor(selector: string): { key: string; selector: string; maxMs: number } {
  return { key: SAMPLER_KEY, selector, maxMs: SAMPLER_MAX_MS };
}

/** One screencast frame as Chromium sent it. */
interface ScreencastFrame {
  /** When it was shown, in seconds since the epoch. */
  timestamp: number;
  /** PNG, base64. */
  data: string;
  /** How its pixels map onto the page: CSS pixels times pageScaleFactor × frame width / deviceWidth, shifted by the scroll and offsetTop. */
  metadata: {
    pageScaleFactor: number;
    deviceWidth: number;
    offsetTop: number;
    scrollOffsetX: number;
    scrollOffsetY: number;
  };
}

/** Chromium's screencast of the page: a frame each time something changed on screen, from before the page loads. */
export class Screencast {
  private readonly frames: ScreencastFrame[] = [];
  private stopped: Promise<ScreencastFrame[]> | null = null;
  private readonly onFrame = ({
    data,
    metadata,
    sessionId,
  }: {
    data: string;
    metadata: ScreencastFrame["metadata"] & { timestamp?: number };
    sessionId: number;
  }) => {
    if (metadata.timestamp !== undefined) this.frames.push({ timestamp: metadata.timestamp, data, metadata });
    this.cdp.send("Page.screencastFrameAck", { sessionId }).catch(() => undefined);
  };

  private constructor(private readonly cdp: CDPSession) {}

  /** Starts the screencast on the page's session: before the page is loaded, so that its first frame is in. */
  static async start(cdp: CDPSession): Promise<Screencast> {
    const screencast = new Screencast(cdp);
    cdp.on("Page.screencastFrame", screencast.onFrame);
    await cdp.send("Page.startScreencast", { format: "png", everyNthFrame: 1 });
    return screencast;
  }

  /** Stops it, once however often it is asked, and hands over the frames it got. */
  stop(): Promise<ScreencastFrame[]> {
    this.stopped ??= this.cdp
      .send("Page.stopScreencast")
      .catch(() => undefined)
      .then(() => {
        this.cdp.off("Page.screencastFrame", this.onFrame);
        return this.frames;
      });
    return this.stopped;
  }
}

/** Pixels of the page kept around the target in a filmstrip frame. */
const FILMSTRIP_MARGIN = 8;

/**
 * Reads the frames the sampler saw and stops it, stops the screencast and saves the filmstrip's
 * frames as `framePath(n)` (absolute path and name relative to the output; none when null).
 * Null when the page could not be read (it navigated away).
 */
export async function readFlicker(
  page: Page,
  screencast: Screencast | null,
  framePath: ((index: number) => { path: string; name: string }) | null,
): Promise<FlickerFrames | null> {
  const read = await page
    .evaluate((key) => {
      const state = (window as unknown as Record<symbol, SamplerState | undefined>)[Symbol.for(key)];
      if (state === undefined) return null;
      state.stopped = true;
      return {
        frames: state.frames,
        looks: state.looks,
        boxes: state.boxes,
        costMs: state.costMs,
        readAtMs: performance.now(),
        timeOrigin: performance.timeOrigin,
      };
    }, SAMPLER_KEY)
    .catch(() => null);
  const shot = (await screencast?.stop()) ?? [];
  if (read === null) return null;
  const frames = read.frames;
  const flicker: FlickerFrames = {
    frames,
    signatures: read.looks.map((look) => createHash("sha1").update(look).digest("hex")),
    readAtMs: read.readAtMs,
    costMs: Math.round(read.costMs * 10) / 10,
    filmstrip: [],
  };
  if (framePath === null) return flicker;
  // Frames before the navigation started showed the blank page before it.
  const onPageClock = shot
    .map((frame) => ({ ...frame, atMs: frame.timestamp * 1000 - read.timeOrigin }))
    .filter((frame) => frame.atMs >= 0);
  const chosen = filmstripFrames(onPageClock, flickerTimes(flicker)?.appliedAtMs ?? null);
  const boxes = read.boxes;
  const area = boxes.length === 0 ? null : unionOf(boxes);
  flicker.filmstrip = await Promise.all(
    chosen.map(async (frame, index): Promise<FilmstripFrame> => {
      const { path, name } = framePath(index);
      const png = Buffer.from(frame.data, "base64");
      await writeFile(path, png);
      return {
        atMs: Math.round(frame.atMs),
        screen: name,
        crop: area === null ? null : cropOf(area, frame, png.readUInt32BE(16)),
      };
    }),
  );
  return flicker;
}

/** The first frame, the last before the variation was in place, the first with it, and the last: a picture of the switch, in order. */
function filmstripFrames<T extends { atMs: number }>(frames: readonly T[], appliedAtMs: number | null): T[] {
  if (frames.length === 0) return [];
  const picked = new Set<T>([frames[0]!, frames[frames.length - 1]!]);
  if (appliedAtMs !== null) {
    const before = frames.filter((frame) => frame.atMs < appliedAtMs).at(-1);
    const after = frames.find((frame) => frame.atMs >= appliedAtMs);
    if (before) picked.add(before);
    if (after) picked.add(after);
  }
  return frames.filter((frame) => picked.has(frame));
}

function unionOf(boxes: readonly { x: number; y: number; width: number; height: number }[]) {
  const left = Math.min(...boxes.map((box) => box.x)) - FILMSTRIP_MARGIN;
  const top = Math.min(...boxes.map((box) => box.y)) - FILMSTRIP_MARGIN;
  const right = Math.max(...boxes.map((box) => box.x + box.width)) + FILMSTRIP_MARGIN;
  const bottom = Math.max(...boxes.map((box) => box.y + box.height)) + FILMSTRIP_MARGIN;
  return { left, top, right, bottom };
}

/** The page area (CSS pixels) in a screencast frame's pixels. */
function cropOf(area: ReturnType<typeof unionOf>, frame: ScreencastFrame, frameWidth: number): FilmstripFrame["crop"] {
  const { pageScaleFactor, deviceWidth, offsetTop, scrollOffsetX, scrollOffsetY } = frame.metadata;
  const scale = (pageScaleFactor * frameWidth) / deviceWidth;
  const x = Math.max(0, Math.floor((area.left - scrollOffsetX) * scale));
  const y = Math.max(0, Math.floor((area.top - scrollOffsetY) * scale + offsetTop));
  return {
    x,
    y,
    width: Math.ceil((area.right - area.left) * scale),
    height: Math.ceil((area.bottom - area.top) * scale),
  };
}

/** The flicker part: on a variation the site applies itself, its target sampled frame by frame from the first, and the filmstrip. */
export class FlickerPart implements GathererPart {
  private screencast: Screencast | null = null;
  private flicker: FlickerFrames | null = null;

  constructor(private readonly gathering: Gathering) {}

  async install(): Promise<void> {
    const { options, context } = this.gathering;
    if (options.flicker) await context.addInitScript(flickerSampler, samplerFor(options.flicker.selector));
  }

  async attach(): Promise<void> {
    // The filmstrip starts before the page does, so that its first frame is in.
    if (this.gathering.options.flicker?.filmstrip) this.screencast = await Screencast.start(await this.gathering.cdp());
  }

  async settle(page: Page): Promise<void> {
    // Shown and settled: the frames from the first until now say how the variation arrived, before
    // the audit holds the animations to see the targets.
    const { flicker } = this.gathering.options;
    if (flicker) this.flicker = await readFlicker(page, this.screencast, flicker.filmstrip);
  }

  async finish(): Promise<Pick<PageArtifacts, "flicker">> {
    // Stopped already when the flicker was read; else now (a page that failed to load or moved on).
    await this.screencast?.stop();
    return { flicker: this.flicker };
  }
}
