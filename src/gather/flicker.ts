import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import type { BrowserContext, CDPSession, Page } from "playwright";
import { flickerTimes } from "../artifacts/flicker.js";
import type { FilmstripFrame, FlickerFrames, PageArtifacts } from "../artifacts/types.js";
import { maskedPng, type PixelBox } from "./png.js";
import type { Gathering, GathererPart } from "./part.js";
import { placeMasks, type PageArea, type PictureMasks } from "./picture-masks.js";

/**
 * Flicker, measured on the page's own clock: an init script samples every rendered frame from
 * the first (what the target shows, whether the page is hidden), and Chromium's screencast keeps
 * the frames that changed on screen, a few of which become the filmstrip. Measuring, not judging:
 * experiment.flicker judges.
 */

/** The symbol under which the page keeps the sampler's state, out of its own code's way. */
const SAMPLER_KEY = "setup-audit.flicker";

/** The binding through which a document the page leaves hands over its frames. */
const SAMPLER_BINDING = "__setupAuditFlicker";

/** The sampler stops by itself after this long, should the audit never read it. */
const SAMPLER_MAX_MS = 30_000;

/**
 * How many frames the page renders before its frames are read (a second's worth at 60 frames a
 * second): a change the page makes after a count of its own frames (its framework starting) is
 * seen however late a busy machine renders them, its first frame included.
 */
export const FRAMES_BEFORE_READ = 60;

/** The sampler's state in the page. */
interface SamplerState {
  /** [sampled at, hidden 0/1, look index] per frame. */
  frames: [number, 0 | 1, number][];
  /** [seen at, hidden 0/1] each time the page was seen hidden or shown, the first look included, between frames too. */
  hiddenChanges: [number, 0 | 1][];
  /** Each look of the target, in full. */
  looks: string[];
  /** Each look's box in CSS pixels of the page. */
  boxes: { x: number; y: number; width: number; height: number }[];
  stopped: boolean;
  costMs: number;
}

/** One document's frames, on its own clock, as its sampler hands them over. */
export interface DocumentSample extends Omit<SamplerState, "stopped"> {
  /** Its navigation start, in milliseconds since the epoch. */
  timeOrigin: number;
}

/**
 * An init script, run in every document of the page: from the first rendered frame, at every
 * frame, whether html or body is hidden and what the target shows: its content, as its markup and
 * every computed longhand but those of its size and those its running animations move (a layout
 * shift above it, a web font swapping its glyphs' widths or a pulsing button is no other content),
 * or invisible (hidden by itself or an ancestor below body, opacity included). The look is
 * computed again only after something changed: a mutation, a transition or an animation, or the
 * style sheets (one added, removed or disabled, a rule inserted or deleted, a sheet replaced or
 * adopted), which each frame compares cheaply. Whether the page is hidden is also looked at as the
 * page's scripts and style sheets change it (html's or body's attributes, a style element or a
 * style sheet link added, removed, changed or loaded), from before the first frame: the moments
 * it was hidden and shown are the page's, however late a busy machine renders the first frame.
 * Each frame is timed when its sampling ends (the style and layout the frame needed happened by
 * then; the frame's own timestamp runs up to ~45 ms early on the first frame). A document the page leaves hands its frames over through `binding`.
 * Its state hangs off a symbol, out of the page's way; the binding is the one global it sees.
 * Serialised into the page, so it must be self-contained.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: serialised into the page
export function flickerSampler({
  key,
  binding,
  selector,
  maxMs,
}: {
  key: string;
  binding: string;
  selector: string;
  maxMs: number;
}): void {
  // The target is the page's own: a frame's document has none of its own to sample.
  if (window !== window.top) return;
  const state: SamplerState = { frames: [], hiddenChanges: [], looks: [], boxes: [], stopped: false, costMs: 0 };
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
  const pageHidden = (): 0 | 1 => (hidden(document.documentElement) || hidden(document.body) ? 1 : 0);
  // The page's hidden state at `atMs`, kept when it changed (the first look always).
  const noteHidden = (atMs: number, now: 0 | 1) => {
    if (state.hiddenChanges.at(-1)?.[1] !== now) state.hiddenChanges.push([atMs, now]);
  };
  // Between frames: looked at only when the page may have been hidden or shown, and while sampling.
  const lookAtHidden = () => {
    const started = performance.now();
    if (state.stopped || started >= maxMs) return;
    noteHidden(started, pageHidden());
    state.costMs += performance.now() - started;
  };
  // What can hide or show html or body: their own attributes, and the style elements and style sheet links.
  const STYLING = new Set(["HTML", "BODY", "STYLE", "LINK"]);
  const styling = (node: Node | null) => node !== null && STYLING.has(node.nodeName);
  const restyles = (record: MutationRecord) =>
    record.type === "attributes"
      ? styling(record.target)
      : record.target.nodeName === "STYLE" ||
        record.target.parentNode?.nodeName === "STYLE" ||
        [...record.addedNodes, ...record.removedNodes].some(styling);
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
  // The style sheets as a short string: each sheet by identity, whether it is disabled, how many
  // rules it has and which are its first and last. A CSSOM change (insertRule, deleteRule,
  // replaceSync, adoptedStyleSheets) alters it without a mutation; reading it costs microseconds,
  // where the look costs a read of every longhand.
  const identities = new WeakMap<object, number>();
  let identified = 0;
  const identity = (object: object) => {
    let id = identities.get(object);
    if (id === undefined) identities.set(object, (id = ++identified));
    return id;
  };
  // Another origin's sheet keeps its rules to itself (reading them throws): asked once, then counted as there.
  const closed = new WeakSet<CSSStyleSheet>();
  const sheetsOf = (sheets: Iterable<CSSStyleSheet>) => {
    let signature = "";
    for (const sheet of sheets) {
      signature += `${identity(sheet)}${sheet.disabled ? "d" : ""}`;
      if (closed.has(sheet)) continue;
      try {
        const rules = sheet.cssRules;
        signature +=
          rules.length === 0 ? ":0;" : `:${rules.length},${identity(rules[0]!)},${identity(rules[rules.length - 1]!)};`;
      } catch {
        closed.add(sheet);
      }
    }
    return signature;
  };
  const sheetsSignature = () =>
    `${sheetsOf(document.styleSheets as Iterable<CSSStyleSheet>)}|${sheetsOf(document.adoptedStyleSheets)}`;
  let sheets = "";
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
    const nowSheets = sheetsSignature();
    if (nowSheets !== sheets) {
      sheets = nowSheets;
      dirty = true;
    }
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
    const pageIsHidden = pageHidden();
    const ended = performance.now();
    state.costMs += ended - started;
    state.frames.push([ended, pageIsHidden, last]);
    noteHidden(ended, pageIsHidden);
    if (!state.stopped && ended < maxMs) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  lookAtHidden();
  const changed = () => {
    dirty = true;
  };
  new MutationObserver((records) => {
    dirty = true;
    if (records.some(restyles)) lookAtHidden();
  }).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
  for (const type of ["transitionrun", "transitionend", "animationstart", "animationend", "load"])
    document.addEventListener(type, changed, true);
  // A style sheet link's rules apply once it has loaded.
  document.addEventListener("load", (event) => styling(event.target as Node) && lookAtHidden(), true);
  // A client-side redirect or a reload: the frames shown so far are the visitor's too. They are
  // handed over as the document starts to leave (a binding called from pagehide never arrives),
  // and again, in full, should it stay after all.
  addEventListener("beforeunload", () => {
    const handOver = (window as unknown as Record<string, ((sample: DocumentSample) => unknown) | undefined>)[binding];
    if (state.stopped || location.protocol === "about:" || handOver === undefined) return;
    void handOver({
      frames: [...state.frames],
      hiddenChanges: [...state.hiddenChanges],
      looks: [...state.looks],
      boxes: [...state.boxes],
      costMs: state.costMs,
      timeOrigin: performance.timeOrigin,
    });
  });
}

/** What `flickerSampler` needs for the target `selector`. */
function samplerFor(selector: string): { key: string; binding: string; selector: string; maxMs: number } {
  return { key: SAMPLER_KEY, binding: SAMPLER_BINDING, selector, maxMs: SAMPLER_MAX_MS };
}

/**
 * The sampler of a page's target, installed in its context before the page exists: it runs in
 * every document the page shows, and keeps what the documents the page left handed over.
 */
export class FlickerSampling {
  /** Each document's latest frames, by its navigation start. */
  private readonly documents = new Map<number, DocumentSample>();
  private closed = false;

  private constructor() {}

  /** Installs the sampler of `selector` in `context`'s pages; only `ownPage`'s main frame hands frames over (not a popup's). */
  static async install(context: BrowserContext, selector: string, ownPage: () => Page): Promise<FlickerSampling> {
    const sampling = new FlickerSampling();
    await context.exposeBinding(SAMPLER_BINDING, (source, sample: DocumentSample) => {
      const fromOwnPage = source.page === ownPage() && source.frame === source.page.mainFrame();
      if (!sampling.closed && fromOwnPage) sampling.documents.set(sample.timeOrigin, sample);
    });
    await context.addInitScript(flickerSampler, samplerFor(selector));
    return sampling;
  }

  /** The documents the page left, then the current one's frames (null when it could not be read); none taken after. */
  close(current: DocumentSample | null): DocumentSample[] {
    this.closed = true;
    if (current !== null) this.documents.set(current.timeOrigin, current);
    return [...this.documents.values()];
  }
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

/** Several documents' frames as one page's: on the first document's clock, each look known once. */
export interface JoinedDocuments extends Omit<DocumentSample, "timeOrigin"> {
  /** When each document's navigation started, on the first one's clock (the first at 0). */
  startsMs: number[];
  /** The first document's navigation start, in milliseconds since the epoch. */
  timeOrigin: number;
}

/** Joins the frames of the documents a page showed, in the order they started; null for none. */
export function joinDocuments(samples: readonly DocumentSample[]): JoinedDocuments | null {
  const ordered = [...samples].sort((a, b) => a.timeOrigin - b.timeOrigin);
  const first = ordered[0];
  if (first === undefined) return null;
  const joined: JoinedDocuments = {
    frames: [],
    hiddenChanges: [],
    looks: [],
    boxes: [],
    costMs: 0,
    startsMs: [],
    timeOrigin: first.timeOrigin,
  };
  const known = new Map<string, number>();
  for (const sample of ordered) {
    const shift = sample.timeOrigin - first.timeOrigin;
    // The same look on another document (the control before a redirect) is the same look.
    const lookIndex = sample.looks.map((look, index) => {
      let joinedIndex = known.get(look);
      if (joinedIndex === undefined) {
        joinedIndex = joined.looks.push(look) - 1;
        joined.boxes.push(sample.boxes[index]!);
        known.set(look, joinedIndex);
      }
      return joinedIndex;
    });
    for (const [atMs, hidden, look] of sample.frames)
      joined.frames.push([atMs + shift, hidden, look < 0 ? look : lookIndex[look]!]);
    for (const [atMs, hidden] of sample.hiddenChanges) joined.hiddenChanges.push([atMs + shift, hidden]);
    joined.costMs += sample.costMs;
    joined.startsMs.push(shift);
  }
  return joined;
}

/**
 * Waits until the current document has rendered `count` frames, or its sampler stopped (on its
 * own clock, SAMPLER_MAX_MS after the navigation started); a page that moves on ends the wait.
 */
async function waitForFrames(page: Page, count: number): Promise<void> {
  await page
    .waitForFunction(
      ({ key, count, maxMs }) => {
        const state = (window as unknown as Record<symbol, SamplerState | undefined>)[Symbol.for(key)];
        return state === undefined || state.stopped || state.frames.length >= count || performance.now() >= maxMs;
      },
      { key: SAMPLER_KEY, count, maxMs: SAMPLER_MAX_MS },
      // The page's own clock ends the wait; this bounds a page whose thread never comes back.
      { timeout: SAMPLER_MAX_MS, polling: 100 },
    )
    .catch(() => undefined);
}

/** Stops the sampler of the current document and reads what it saw; null when the page has none (or is between documents). */
function stopSampler(page: Page) {
  return page
    .evaluate((key) => {
      const state = (window as unknown as Record<symbol, SamplerState | undefined>)[Symbol.for(key)];
      if (state === undefined) return null;
      state.stopped = true;
      return {
        frames: state.frames,
        hiddenChanges: state.hiddenChanges,
        looks: state.looks,
        boxes: state.boxes,
        costMs: state.costMs,
        readAtMs: performance.now(),
        timeOrigin: performance.timeOrigin,
      };
    }, SAMPLER_KEY)
    .catch(() => null);
}

/**
 * Reads the frames the sampler saw, in the documents the page left and in the current one (once
 * it rendered FRAMES_BEFORE_READ frames), and stops it; stops the screencast and saves the
 * filmstrip's frames as `framePath(n)` (absolute path and name relative to the output; none when
 * null), masked as every picture is (`masks`; when they cannot be placed, none is saved and
 * `leftOut` says why). `sinceStart` turns an epoch time into the page test's clock. Null when no
 * document could be read.
 */
export async function readFlicker(
  page: Page,
  sampling: FlickerSampling,
  screencast: Screencast | null,
  film: {
    framePath: ((index: number) => { path: string; name: string }) | null;
    masks: PictureMasks;
    leftOut: (why: string) => void;
  },
  sinceStart: (epochMs: number) => number,
): Promise<FlickerFrames | null> {
  const { framePath } = film;
  await waitForFrames(page, FRAMES_BEFORE_READ);
  const current = await stopSampler(page);
  const shot = (await screencast?.stop()) ?? [];
  const read = joinDocuments(sampling.close(current));
  if (read === null) return null;
  const frames = read.frames;
  const flicker: FlickerFrames = {
    frames,
    hiddenChanges: read.hiddenChanges,
    signatures: read.looks.map((look) => createHash("sha1").update(look).digest("hex")),
    // A page caught between documents: its last frame lasts until the last frame sampled.
    readAtMs: current === null ? (frames.at(-1)?.[0] ?? 0) : current.readAtMs + current.timeOrigin - read.timeOrigin,
    costMs: Math.round(read.costMs * 10) / 10,
    documentStartsMs: read.startsMs.map((ms) => Math.round(ms)),
    navigationStartMs: sinceStart(read.timeOrigin),
    filmstrip: [],
  };
  if (framePath === null) return flicker;
  // Frames before the navigation started showed the blank page before it.
  const onPageClock = shot
    .map((frame) => ({ ...frame, atMs: frame.timestamp * 1000 - read.timeOrigin }))
    .filter((frame) => frame.atMs >= 0);
  const chosen = filmstripFrames(onPageClock, flickerTimes(flicker)?.appliedAtMs ?? null);
  const boxes = read.boxes;
  const area = boxes.length === 0 ? null : unionOf(boxes, FILMSTRIP_MARGIN);
  // Masks that cannot be placed keep the filmstrip out: a secret never reaches a picture.
  const placed = await placeMasks(film.masks);
  if ("unplaced" in placed) {
    film.leftOut(placed.unplaced);
    return flicker;
  }
  const secrets = placed.areas;
  const kept: FilmstripFrame[] = [];
  for (const frame of chosen) {
    const pixels = Buffer.from(frame.data, "base64");
    const width = pixels.readUInt32BE(16);
    // A frame whose fields could not be covered is left out too.
    const png = maskedPng(
      pixels,
      secrets.map((secret) => framePixels(secret, frame, width)),
    );
    if (png === null) continue;
    const { path, name } = framePath(kept.length);
    await writeFile(path, png);
    kept.push({
      atMs: Math.round(frame.atMs),
      screen: name,
      crop: area === null ? null : framePixels(area, frame, width),
    });
  }
  flicker.filmstrip = kept;
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

/** The area that holds every one of `boxes`, with `margin` pixels around. */
function unionOf(boxes: readonly { x: number; y: number; width: number; height: number }[], margin: number): PageArea {
  const left = Math.min(...boxes.map((box) => box.x)) - margin;
  const top = Math.min(...boxes.map((box) => box.y)) - margin;
  const right = Math.max(...boxes.map((box) => box.x + box.width)) + margin;
  const bottom = Math.max(...boxes.map((box) => box.y + box.height)) + margin;
  return { left, top, right, bottom };
}

/** The page area (CSS pixels) in a screencast frame's pixels. */
function framePixels(area: PageArea, frame: ScreencastFrame, frameWidth: number): PixelBox {
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
  /** A page never opened painted no frame. */
  static empty(): Pick<PageArtifacts, "flicker"> {
    return {};
  }

  private screencast: Screencast | null = null;
  private sampling: FlickerSampling | null = null;
  private flicker: FlickerFrames | null = null;

  constructor(private readonly gathering: Gathering<"flicker" | "pictures" | "maskedFields">) {}

  async install(): Promise<void> {
    const { input, context } = this.gathering;
    if (input.flicker !== null)
      this.sampling = await FlickerSampling.install(context, input.flicker.selector, () => this.gathering.page);
  }

  async attach(): Promise<void> {
    // The filmstrip starts before the page does, so that its first frame is in.
    if (this.gathering.input.pictures.filmstrip !== null)
      this.screencast = await Screencast.start(await this.gathering.cdp());
  }

  async settle(page: Page): Promise<void> {
    // Shown and settled: the frames from the first until now say how the variation arrived, before
    // the audit holds the animations to see the targets.
    const { input, sinceStart } = this.gathering;
    if (input.flicker !== null && this.sampling !== null) {
      const leftOut = (why: string) => this.gathering.leaveOut("filmstrip", why);
      const { filmstrip } = input.pictures;
      const framePath =
        filmstrip === null ? null : (index: number) => this.gathering.pictureFile(filmstrip, `${index}.png`)!;
      const film = { framePath, masks: this.gathering.masks(), leftOut };
      this.flicker = await readFlicker(page, this.sampling, this.screencast, film, sinceStart);
    }
  }

  async finish(): Promise<Pick<PageArtifacts, "flicker">> {
    // Stopped already when the flicker was read; else now (a page that failed to load or moved on).
    await this.screencast?.stop();
    return { flicker: this.flicker };
  }
}
