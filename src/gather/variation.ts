import type { CDPSession, Page } from "playwright";
import { createHash } from "node:crypto";
import type { AppliedVariation, ExperimentView, PageArtifacts, TargetPixels } from "../artifacts/types.js";
import type { Gathering, GathererPart } from "./part.js";
import type { ExperimentTarget, PageInput, PlannedPreview } from "../schedule/page-input.js";
import { escapeRegExp } from "../text/wording.js";
import { pngCells } from "./png-cells.js";
import { withDeadline } from "./deadline.js";
import type { PictureMasks, PictureOutcome } from "./picture-masks.js";
import { saveViewportScreenshot } from "./screenshot.js";

/**
 * Previewing a variation the way the service's preview does once its SDK is ready: the css as a
 * style sheet, then the js run in the page's own world. Then, on a variation and on the page as
 * it is alike, the experiment's target is seen before the journey starts.
 */

/** The name the variation's js runs under, so that its errors (now or later) can be told from the page's and carry a line. */
export const VARIATION_SOURCE = "setup-audit-variation.js";

/** Applies the css, then runs the js; returns what the js threw at once (null when it ran). */
export async function applyVariation(
  page: Page,
  code: Pick<PlannedPreview, "css" | "js">,
): Promise<AppliedVariation["errors"][number] | null> {
  if (code.css !== null) await page.addStyleTag({ content: code.css });
  if (code.js === null) return null;
  const thrown = await page.evaluate(
    ({ js, source }) => {
      try {
        // An indirect eval runs in the page's global scope, as a preview's script tag would.
        (0, eval)(`${js}\n//# sourceURL=${source}`);
        return null;
      } catch (error) {
        return {
          message: error instanceof Error ? error.message : String(error),
          stack: error instanceof Error ? (error.stack ?? "") : "",
        };
      }
    },
    { js: code.js, source: VARIATION_SOURCE },
  );
  return thrown === null ? null : { message: thrown.message, line: variationLine(thrown.stack) };
}

/** The symbol under which the page keeps, out of its own code's way, when an experiment's target last changed. */
const TARGET_CHANGES_KEY = "setup-audit.targetChanges";

/**
 * An init script: notes when an element of `selectors` last changed (its attributes, its text,
 * what it holds) or was put in place once the document is parsed. A change the page or its SDK
 * makes later (a preview link's variation, fetched once the SDK runs) can then be waited for.
 * While the document is parsed, the parser puts every element in place: only what a script does
 * counts then (an attribute set, a text or node replaced), and only as `whileParsing`, the mark a
 * preview link's SDK leaves when it applies the variation as the page is parsed.
 */
export function watchTargetChanges({ key, selectors }: { key: string; selectors: readonly string[] }): void {
  const changes: TargetChanges = { last: null, whileParsing: false };
  Object.defineProperty(window, Symbol.for(key), { value: changes });
  const safely = (test: (selector: string) => boolean) =>
    selectors.some((selector) => {
      try {
        return test(selector);
      } catch {
        return false; // not valid CSS: experiment.selector says so
      }
    });
  const touchesTarget = (record: MutationRecord) => {
    const changed = record.target instanceof Element ? record.target : record.target.parentElement;
    if (changed !== null && safely((selector) => changed.closest(selector) !== null)) return true;
    return [...record.addedNodes].some(
      (added) =>
        added instanceof Element &&
        safely((selector) => added.matches(selector) || added.querySelector(selector) !== null),
    );
  };
  // While the document is parsed, the parser itself appends to text nodes and moves nodes (out of
  // misnested tags), and adds attributes to html and body: a script sets one, or removes a node for good.
  const scriptMade = (record: MutationRecord) =>
    record.type === "attributes"
      ? record.target !== document.documentElement && record.target !== document.body
      : [...record.removedNodes].some((removed) => !removed.isConnected);
  let parsed = document.readyState !== "loading";
  const note = (records: MutationRecord[]) => {
    if (parsed) {
      if (records.some(touchesTarget)) changes.last = performance.now();
    } else if (records.some((record) => scriptMade(record) && touchesTarget(record))) changes.whileParsing = true;
  };
  const observer = new MutationObserver(note);
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  if (!parsed)
    document.addEventListener("DOMContentLoaded", () => {
      note(observer.takeRecords()); // made while parsing, and not yet delivered
      parsed = true;
    });
}

/** What `watchTargetChanges` keeps: when a target last changed after parsing, and whether a script changed one while parsing. */
interface TargetChanges {
  last: number | null;
  whileParsing: boolean;
}

/** What `watchTargetChanges` needs for these experiments. */
export function targetWatch(experiments: readonly ExperimentTarget[]): { key: string; selectors: string[] } {
  return { key: TARGET_CHANGES_KEY, selectors: experiments.map((experiment) => experiment.selector) };
}

/**
 * Waits until the targets have not changed for `quietMs`, and with `changeExpected` (a variation
 * whose js or preview link changes the page) until they changed at all; bounded by `timeoutMs`.
 * With `parsedChangeCounts` (a preview link, which the SDK may apply as the page is parsed) a
 * script's change while parsing counts as a change made when this wait begins.
 */
export async function settleTargets(
  page: Page,
  options: { quietMs: number; changeExpected: boolean; parsedChangeCounts: boolean; timeoutMs: number },
): Promise<void> {
  const { quietMs, changeExpected, parsedChangeCounts } = options;
  const startedAt = await page.evaluate(() => performance.now()).catch(() => 0);
  await page
    .waitForFunction(
      ({ key, startedAt, quietMs, changeExpected, parsedChangeCounts }) => {
        const changes = (window as unknown as Record<symbol, TargetChanges | undefined>)[Symbol.for(key)];
        if (changes === undefined) return true;
        const last = changes.last ?? (parsedChangeCounts && changes.whileParsing ? startedAt : null);
        if (last === null) return !changeExpected;
        return performance.now() - last >= quietMs;
      },
      { key: TARGET_CHANGES_KEY, startedAt, quietMs, changeExpected, parsedChangeCounts },
      { timeout: options.timeoutMs, polling: 50 },
    )
    // Still changing, or never changed: the target is seen as it is now, and judged so.
    .catch(() => undefined);
}

/**
 * Waits until the page is shown: neither html nor body at opacity 0 or hidden (an anti-flicker
 * snippet hides the page until its experiments are applied, or its timeout); bounded by
 * `timeoutMs`, after which the page is seen as it is, which shows nothing.
 */
export async function waitUntilShown(page: Page, timeoutMs: number): Promise<void> {
  await page
    .waitForFunction(
      () =>
        [document.documentElement, document.body].every((element) => {
          if (!element) return true;
          const style = getComputedStyle(element);
          return style.opacity !== "0" && style.visibility !== "hidden";
        }),
      undefined,
      { timeout: timeoutMs, polling: "raf" },
    )
    .catch(() => undefined);
}

/** The line in the variation's js that a stack names; null when it names none (a syntax error). */
export function variationLine(stack: string | undefined): number | null {
  const line = stack?.match(new RegExp(`${escapeRegExp(VARIATION_SOURCE)}:(\\d+):\\d+`))?.[1];
  return line === undefined ? null : Number(line);
}

/** How long two captures of a target are apart, to tell a steady target from one that changes by itself. */
const STEADY_GAP_MS = 120;

/** How long one capture of a target may take: a capture of a page that navigates meanwhile may never answer, and the target then has no pixels. */
const TARGET_CAPTURE_TIMEOUT_MS = 10_000;

/** The symbol under which the page keeps the animations held while the targets are seen, to let them go afterwards. */
const HELD_ANIMATIONS_KEY = "setup-audit.heldAnimations";

/**
 * Sees each experiment's target now: what its selector matches, the first visible match as it
 * shows (text, attributes, every computed longhand, box and, with `cdp`, its pixels), whether the
 * page is wider than the viewport, and (with `screen`) the first screen. Called once the page is
 * shown (`waitUntilShown`), so that what a visitor sees is seen; running animations are held
 * (`holdAnimations`) while the targets are seen, then let go.
 */
export async function viewExperiments(
  page: Page,
  experiments: readonly ExperimentTarget[],
  atMs: number,
  options: {
    cdp: CDPSession | null;
    screen: { path: string; name: string } | null;
    masks: PictureMasks;
    /** The screen's name once saved, null when not (noting why). */
    kept: (outcome: PictureOutcome, name: string) => string | null;
  },
): Promise<ExperimentView[]> {
  if (experiments.length === 0) return [];
  const held = await page.evaluate(holdAnimations, HELD_ANIMATIONS_KEY).then(
    () => true,
    () => false,
  );
  const seen = await page
    .evaluate(seeTargets, { targets: experiments.map(({ name, selector }) => ({ name, selector })) })
    // A page that navigated meanwhile has no target to see: the check says it was not seen.
    .catch(() => []);
  const pixels = await targetsPixels(
    options.cdp,
    seen.map(({ clip, target }) => (target === null ? null : clip)),
  );
  const views = seen.map(
    ({ clip: _clip, ...view }, index): Omit<ExperimentView, "screen"> => ({
      ...view,
      atMs,
      target: view.target === null ? null : { ...view.target, pixels: pixels[index] ?? null },
    }),
  );
  if (held) await page.evaluate(releaseAnimations, HELD_ANIMATIONS_KEY).catch(() => undefined);
  const { cdp, screen } = options;
  const saved =
    cdp === null || screen === null
      ? null
      : await saveViewportScreenshot(cdp, screen.path, options.masks).then(
          (outcome) => options.kept(outcome, screen.name),
          () => null,
        );
  return views.map((view) => ({ ...view, screen: saved }));
}

/**
 * What each experiment's target shows now, as `viewExperiments` keeps it (with the clip around
 * its box for its pixels), and whether the page is wider than the viewport. Serialised into the
 * page, so it must be self-contained.
 */
async function seeTargets({ targets }: { targets: readonly ExperimentTarget[] }) {
  // A late web font would swap the glyphs between the control's capture and the variation's.
  await document.fonts.ready;
  const overflows = document.documentElement.scrollWidth > document.documentElement.clientWidth;
  return targets.map(({ name, selector }) => {
    let elements: Element[];
    try {
      elements = [...document.querySelectorAll(selector)];
    } catch {
      return { experiment: name, matched: null, visible: 0, target: null, overflows, clip: null };
    }
    const visible = elements.filter((element) =>
      element.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
    );
    const first = visible[0];
    if (!first) return { experiment: name, matched: elements.length, visible: 0, target: null, overflows, clip: null };
    const computed = getComputedStyle(first);
    const style: Record<string, string> = {};
    for (let index = 0; index < computed.length; index++)
      style[computed[index]!] = computed.getPropertyValue(computed[index]!);
    const rect = first.getBoundingClientRect();
    const round = (value: number) => Math.round(value * 100) / 100;
    // Whole CSS pixels around the box, cut to the first screen: equal boxes give the same clip.
    const left = Math.max(0, Math.floor(rect.x));
    const top = Math.max(0, Math.floor(rect.y));
    const right = Math.min(document.documentElement.clientWidth, Math.ceil(rect.right));
    const bottom = Math.min(innerHeight, Math.ceil(rect.bottom));
    const clip =
      right > left && bottom > top
        ? { x: left + scrollX, y: top + scrollY, width: right - left, height: bottom - top }
        : null;
    return {
      experiment: name,
      matched: elements.length,
      visible: visible.length,
      target: {
        text: (first instanceof HTMLElement ? first.innerText : (first.textContent ?? "")).replace(/\s+/g, " ").trim(),
        attributes: Object.fromEntries(
          first.getAttributeNames().map((attribute) => [attribute, first.getAttribute(attribute) ?? ""]),
        ),
        style,
        box: { x: round(rect.x), y: round(rect.y), width: round(rect.width), height: round(rect.height) },
      },
      overflows,
      clip,
    };
  });
}

/**
 * Each target's pixels: every one taken, then every one again a moment later (one wait for all the
 * page's targets); null for a target without a clip, or when Chromium could not capture it.
 */
async function targetsPixels(
  cdp: CDPSession | null,
  clips: readonly (TargetPixels["clip"] | null)[],
): Promise<(TargetPixels | null)[]> {
  if (cdp === null || clips.every((clip) => clip === null)) return clips.map(() => null);
  const captureAll = async () => {
    const pngs: (Buffer | null)[] = [];
    for (const clip of clips) {
      pngs.push(
        clip === null
          ? null
          : await withDeadline(
              cdp.send("Page.captureScreenshot", {
                format: "png",
                clip: { ...clip, scale: 1 },
                captureBeyondViewport: false,
                optimizeForSpeed: true,
              }),
              TARGET_CAPTURE_TIMEOUT_MS,
              "the target's capture did not answer",
            ).then(
              ({ data }) => Buffer.from(data, "base64"),
              () => null,
            ),
      );
    }
    return pngs;
  };
  const first = await captureAll();
  await new Promise((resolve) => setTimeout(resolve, STEADY_GAP_MS));
  const second = await captureAll();
  return clips.map((clip, index) => {
    const [before, after] = [first[index] ?? null, second[index] ?? null];
    if (clip === null || before === null || after === null) return null;
    const cells = pngCells(before, clip.width, clip.height);
    return {
      sha256: createHash("sha256").update(before).digest("hex"),
      clip,
      steady: after.equals(before),
      ...(cells === null ? {} : { cells }),
    };
  });
}

/**
 * In the page, until released: transitions finished, running animations that end shown at their
 * end (an entrance's fade-in as it rests), endless ones held at their start; finished or paused
 * animations left as they are (a finished fade-in keeps its end state). Then two frames, so that
 * the screen shows it.
 */
async function holdAnimations(key: string): Promise<void> {
  const running = document
    .getAnimations()
    .filter((animation) => animation instanceof CSSTransition || animation.playState === "running");
  const held = running.map((animation) => ({
    animation,
    running: animation.playState === "running",
    time: animation.currentTime,
  }));
  for (const { animation } of held) {
    const endless = animation.effect?.getComputedTiming().iterations === Infinity;
    if (animation instanceof CSSTransition || !endless) animation.finish();
    else {
      animation.pause();
      animation.currentTime = 0;
    }
  }
  Object.defineProperty(window, Symbol.for(key), { value: held, configurable: true });
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
}

/** In the page: every animation `holdAnimations` held goes on from where it was. */
function releaseAnimations(key: string): void {
  const held =
    (
      window as unknown as Record<
        symbol,
        { animation: Animation; running: boolean; time: CSSNumberish | null }[] | undefined
      >
    )[Symbol.for(key)] ?? [];
  for (const { animation, running, time } of held) {
    if (animation instanceof CSSTransition) continue;
    animation.currentTime = time;
    if (running) animation.play();
  }
  delete (window as unknown as Record<symbol, unknown>)[Symbol.for(key)];
}

/**
 * The variation part: the variation previewed (its code applied once the SDK is ready, its errors
 * kept apart from the page's), and the targets of the experiments seen waited for until they
 * settled and the page is shown.
 */
export class VariationPart implements GathererPart {
  /** A page never opened names the variation it was to preview, with no error: its code never ran. */
  static empty(input: Pick<PageInput, "variation">): Pick<PageArtifacts, "variation"> {
    const { variation } = input;
    return {
      variation:
        variation === null
          ? null
          : {
              experiment: variation.experiment,
              name: variation.name,
              ...(variation.control ? { control: true as const } : {}),
              errors: [],
            },
    };
  }

  /** When the variation was applied and the targets are seen: the same moment, before the journey. */
  viewedAt = 0;
  private readonly errors: AppliedVariation["errors"] = [];

  constructor(private readonly gathering: Gathering<"variation" | "sdk" | "viewedExperiments">) {}

  async install(): Promise<void> {
    const { input, context } = this.gathering;
    const viewed = input.viewedExperiments;
    if (viewed.length > 0) await context.addInitScript(watchTargetChanges, targetWatch(viewed));
  }

  async attach(page: Page): Promise<void> {
    page.on("pageerror", (error) => {
      // What the variation's js throws later (from a timer, a listener) is the variation's, not the page's.
      if (error.stack?.includes(VARIATION_SOURCE))
        this.errors.push({ message: error.message, line: variationLine(error.stack) });
    });
  }

  async settle(page: Page): Promise<void> {
    const { input, sinceStart } = this.gathering;
    const { variation, sdk } = input;
    const viewed = input.viewedExperiments;
    this.viewedAt = sinceStart(Date.now());
    const thrown = variation ? await applyVariation(page, variation) : null;
    if (thrown !== null) this.errors.push(thrown);
    // A preview link's change comes from the SDK, often a moment after it is ready, and a
    // variation's js may wait for its element: what changes the target is waited for (unless the
    // js threw at once), then quiet.
    // A forced control may show what the page showed all along: only its stillness is waited for.
    const changeExpected =
      variation !== null &&
      variation.control !== true &&
      ((variation.js !== null && thrown === null) || Object.keys(variation.query).length > 0);
    if (viewed.length > 0)
      await settleTargets(page, {
        quietMs: sdk.settleMs,
        changeExpected,
        parsedChangeCounts: variation !== null && Object.keys(variation.query).length > 0,
        timeoutMs: sdk.deliveryTimeoutMs,
      });
    if (viewed.length > 0) await waitUntilShown(page, sdk.deliveryTimeoutMs);
  }

  async finish(): Promise<Pick<PageArtifacts, "variation">> {
    const { variation } = VariationPart.empty(this.gathering.input);
    return { variation: variation && { ...variation, errors: this.errors } };
  }
}

/** The views part: each experiment's target seen as the visitor sees it, before the journey, and the first screen saved. */
export class ViewsPart implements GathererPart {
  /** A page never opened showed no target. */
  static empty(): Pick<PageArtifacts, "experimentViews"> {
    return { experimentViews: [] };
  }

  private views: PageArtifacts["experimentViews"] = [];

  constructor(
    private readonly gathering: Gathering<"viewedExperiments" | "pictures" | "maskedFields">,
    private readonly variation: VariationPart,
  ) {}

  async attach(): Promise<void> {
    if (this.gathering.input.viewedExperiments.length > 0) await this.gathering.cdp();
  }

  async settle(page: Page): Promise<void> {
    const { input } = this.gathering;
    const viewed = input.viewedExperiments;
    this.views = await viewExperiments(page, viewed, this.variation.viewedAt, {
      cdp: viewed.length > 0 ? await this.gathering.cdp() : null,
      screen: this.gathering.pictureFile(input.pictures.view),
      masks: this.gathering.masks(),
      kept: (outcome, name) => this.gathering.kept("view", outcome, name),
    });
  }

  async finish(): Promise<Pick<PageArtifacts, "experimentViews">> {
    return { experimentViews: this.views };
  }
}
