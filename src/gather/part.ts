import type { BrowserContext, CDPSession, Page } from "playwright";
import type { PageArtifacts, PictureLeftOut } from "../artifacts/types.js";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { waitOnPageClock } from "../browser/page-clock.js";
import type { PageInput, PlannedPicture } from "../schedule/page-input.js";
import type { GatherRun } from "./gather-run.js";
import type { PictureMasks, PictureOutcome } from "./picture-masks.js";
import { Signal } from "./signal.js";

/**
 * One observation of a page (its calls, its requests, its banner, its journey…). `gatherPage`
 * runs every part of its list through the same steps, one phase at a time and in the list's order:
 * install → attach → (the page loads) → settle → finish. While a part settles, it may wait for every
 * part to be settled (`isSettled`) with no new `activity` for a quiet window.
 * A part implements only the steps it needs.
 */
export interface GathererPart {
  /** Before the page exists: the context's bindings, init scripts and listeners, which every document of the page then starts with. */
  install?(): Promise<void>;
  /** Once the page exists, before it loads: the page's listeners and sessions. */
  attach?(page: Page): Promise<void>;
  /** Once the page has loaded (never when it failed to), after the parts before it: what the part does on the page and waits for. */
  settle?(page: Page): Promise<void>;
  /** Once every part settled: false while the page still owes this part something (a call's answer, an expected event). */
  isSettled?(): boolean;
  /** How many things the part has seen (calls, requests): a wait for quiet lasts until this stops growing. */
  activity?(): number;
  /** Once the page is done, after the parts before it: its slice of the page's artifacts. */
  finish?(): Promise<Partial<PageArtifacts>>;
}

/** What one part fills of the page's artifacts: what its `finish` gives. */
export type SliceOf<Part> = Part extends { finish(): Promise<infer Slice> } ? Slice : object;

/** Finds a part of the list for a part that reads it: the same one for every reader, built at the first ask. */
export type BuiltPart = <Part extends GathererPart>(kind: abstract new (...args: never[]) => Part) => Part;

/**
 * What the parts of one page's gathering share: its input and its run's, its clock, its page and
 * the signal that something new happened. A part names the fields of the input it reads (`Reads`):
 * the compiler holds it to them, and to the fields its calls on the hub read (`this`).
 */
export class Gathering<Reads extends keyof PageInput = keyof PageInput> {
  /** When the gathering started, epoch milliseconds: the artifacts' times count from here. */
  readonly startedAt = Date.now();
  /** Told of every new thing a part sees (a call, a request, a stored cookie), to wake the waits. */
  readonly changed = new Signal();
  /** When the page was loaded once more for its exposures (from the start); null without a reload. */
  reloadAtMs: number | null = null;
  /** True once the page is done (its quiet window ended), before any reload. */
  private done = false;
  /** True once the page loaded: the parts settle only then. */
  loaded = false;
  /** The parts, in their order (`pageParts`). */
  parts: readonly GathererPart[] = [];
  /** The pictures not saved because their masks could not be placed, and why. */
  readonly picturesLeftOut: PictureLeftOut[] = [];
  private opened: Page | null = null;
  private session: Promise<CDPSession> | null = null;
  /** The fields to mask that a step (the banner's answer, the journey) has typed into so far. */
  private readonly typed = new Set<string>();

  /** The unit's input on this viewport, as far as the part reads it. */
  readonly input: Pick<PageInput, Reads>;

  constructor(
    readonly context: BrowserContext,
    input: PageInput,
    readonly run: GatherRun,
  ) {
    this.input = input;
  }

  /** True when no part waits for anything more. */
  isSettled(): boolean {
    return this.parts.every((part) => part.isSettled?.() ?? true);
  }

  /** The page is done: its calls and requests are all seen. */
  markDone(): void {
    this.done = true;
  }

  /**
   * False from the moment the page is done until its reload starts: what arrives then (a batch the
   * SDK sends after the quiet window, a call from a late timer) is neither the page's nor the
   * reload's, and is kept out, for the page's calls and its requests were judged settled without it.
   */
  get observing(): boolean {
    return !this.done || this.reloadAtMs !== null;
  }

  /** How many things the parts have seen so far. */
  activity(): number {
    return this.parts.reduce((count, part) => count + (part.activity?.() ?? 0), 0);
  }

  /** True on a consent unit whose visitor gives no consent (a refusal, GPC): no call of the SDK's may come. */
  consentWithheld(this: Gathering<"consent">): boolean {
    return this.input.consent !== null && this.input.consent.unit !== "page";
  }

  /** What every picture of the page masks, as things stand: the secret fields, those typed into so far, the run's secrets. */
  masks(this: Gathering<"maskedFields">): PictureMasks {
    const selectors = this.input.maskedFields;
    return {
      page: this.page,
      selectors,
      typed: selectors.filter((selector) => this.typed.has(selector)),
      secrets: this.run.secrets,
    };
  }

  /** Where to save a planned picture (its folder made) and how the artifacts name it, `suffix` after its name; null for none. */
  pictureFile(picture: PlannedPicture | null, suffix = ""): { path: string; name: string } | null {
    if (picture === null) return null;
    const { folders } = this.run;
    if (folders === null) throw new Error(`no folder to save ${picture.name} in`);
    const name = `${picture.name}${suffix}`;
    const path = join(folders[picture.folder], name);
    mkdirSync(dirname(path), { recursive: true });
    return { path, name };
  }

  /** A step typed into the field `selector`: from now on, a picture without it masked is not saved. */
  readonly noteTyped = (selector: string): void => {
    this.typed.add(selector);
  };

  /** Notes a picture not saved because its masks could not be placed, and why. */
  leaveOut(picture: PictureLeftOut["picture"], why: string): void {
    this.picturesLeftOut.push({ picture, why });
  }

  /** The name of a picture when it was saved; null when not, noting why. */
  kept(picture: PictureLeftOut["picture"], outcome: PictureOutcome, name: string): string | null {
    if (outcome.saved) return name;
    this.leaveOut(picture, outcome.why);
    return null;
  }

  /** Milliseconds from the start to `epochMs`, never negative. */
  readonly sinceStart = (epochMs: number): number => Math.max(0, Math.round(epochMs - this.startedAt));

  /** Opens the page, once the parts are installed. */
  async open(): Promise<Page> {
    this.opened = await this.context.newPage();
    return this.opened;
  }

  /** The page; there is none before `open`. */
  get page(): Page {
    if (this.opened === null) throw new Error("the page is not open yet");
    return this.opened;
  }

  /**
   * The page's one CDP session, opened by the first part that asks. Attaching a session to a page
   * costs a round trip to a browser that is busy starting it: one session serves the screenshots,
   * the experiments' target pixels, the filmstrip and, in a remote browser, the request headers.
   */
  cdp(): Promise<CDPSession> {
    this.session ??= this.context.newCDPSession(this.page);
    return this.session;
  }

  /** Resolves once `ms` have passed on the page's own clock, or it navigated or closed first. */
  readonly pageClock = (ms: number): Promise<void> => waitOnPageClock(this.page, ms);

  /** What the page itself did: `items` made before its reload, the reload's being its own. */
  beforeReload<T extends { atMs: number }>(items: readonly T[]): T[] {
    const { reloadAtMs } = this;
    return reloadAtMs === null ? [...items] : items.filter((item) => item.atMs < reloadAtMs);
  }
}
