import type { Page } from "playwright";
import { deliverySettled } from "../artifacts/delivery.js";
import type { CapturedCall, PageArtifacts, PageReload } from "../artifacts/types.js";
import { firstLine } from "../text/wording.js";
import type { CallsPart } from "./calls.js";
import type { ExperimentSdkPart } from "./experiment-sdk.js";
import { NAVIGATION_TIMEOUT_MS, type NavigationPart } from "./navigation.js";
import type { NetworkCapture } from "./network.js";
import type { Gathering, GathererPart } from "./part.js";
import type { ScreenshotPart } from "./screenshot.js";
import type { SdkTagPart } from "./sdk-tag.js";
import type { SelectorsPart } from "./selectors.js";

/** The parts that read the page while its calls settle: their reads are of the page, not of its reload. */
interface PageReads {
  tag: SdkTagPart;
  selectors: SelectorsPart;
  screenshot: ScreenshotPart;
}

/**
 * The exposure reload part: with the exposures' event names (`reloadForExposures`), or the flags
 * whose exposures the experimentation SDK logs itself (`reloadForFlags`), once the page is done, it
 * is loaded once more in its context, without a journey, and waited for as long as it takes to fire
 * them again. What the page did from then on is the reload's, not the page's.
 */
export class ReloadPart implements GathererPart {
  /** A page never opened was never loaded again. */
  static empty(): Pick<PageArtifacts, "reload"> {
    return {};
  }

  private reload: PageReload | null = null;

  constructor(
    private readonly gathering: Gathering<"reloadForExposures" | "reloadForFlags" | "sdk">,
    private readonly navigation: NavigationPart,
    private readonly calls: CallsPart,
    private readonly network: NetworkCapture,
    private readonly experimentSdk: ExperimentSdkPart,
    private readonly reads: PageReads,
  ) {}

  async settle(page: Page): Promise<void> {
    const { gathering, network, reads, experimentSdk } = this;
    const { input, context, changed, sinceStart } = gathering;
    const { reloadForExposures: exposures, reloadForFlags: flags } = input;
    if (exposures.length === 0 && flags.length === 0) return;
    // What is read of the page (its tag, the selectors, the screenshot) is read of it, not of its reload.
    await Promise.all([reads.tag.pending(), reads.selectors.pending(), reads.screenshot.pending()]);
    // Where the page and its journey went, and its tag, are what they were before the reload.
    await reads.tag.rereadIfMoved(page);
    this.navigation.noteReload(page);
    // The reload is no visit: the service never sees it, and no event of it vouches for a call of the page's.
    await network.intercept(context);
    // From here on, what the page does is the reload's.
    gathering.reloadAtMs = sinceStart(Date.now());
    this.reload = await reloadPage(page, {
      url: this.navigation.requestedUrl,
      atMs: gathering.reloadAtMs,
      exposures,
      calls: () => this.calls.made(),
      collect: () => network.collect,
      flagsExposed: (sinceReload) => flags.length > 0 && experimentSdk.exposed(flags, sinceReload),
      flagsExposedAtMs: flags.length > 0 ? experimentSdk.exposedAtMs(flags) : null,
      sdkSettled: () => experimentSdk.isSettled(),
      settle: (condition, timeoutMs) =>
        changed.waitForQuiet(condition, () => gathering.activity(), input.sdk.settleMs, timeoutMs, {
          pageClock: gathering.pageClock,
          lateActivityMs: input.sdk.deliveryTimeoutMs,
        }),
      waitFor: (condition, timeoutMs) => changed.waitFor(condition, timeoutMs),
      timeoutMs: input.sdk.deliveryTimeoutMs,
    });
  }

  async finish(): Promise<Pick<PageArtifacts, "reload">> {
    return { reload: this.reload };
  }
}

/**
 * Loads the page once more in its context (the visitor keeps their cookies and storage, so their
 * bucket), without a journey: its own URL, wherever the journey went. An SDK that fired an exposure on the first load is given as long as
 * it takes to fire one again (at most as long as the first load took to fire it, and `timeoutMs`
 * beyond: a busy machine slows both loads alike), then the page is done as any page is: nothing
 * new for a quiet window and every call answered.
 */
async function reloadPage(
  page: Page,
  options: {
    url: string;
    atMs: number;
    exposures: readonly string[];
    calls: () => CapturedCall[];
    collect: () => PageArtifacts["collect"];
    /** Whether the experimentation SDK logged an exposure of a flag to see again: before the reload, or since. */
    flagsExposed: (sinceReload: boolean) => boolean;
    /** When the experimentation SDK's first request with such an exposure left, before the reload; null when none did. */
    flagsExposedAtMs: number | null;
    /** Whether the experimentation SDK is done: its clients ready, their exposures sent. */
    sdkSettled: () => boolean;
    settle: (condition: () => boolean, timeoutMs: number) => Promise<boolean>;
    waitFor: (condition: () => boolean, timeoutMs: number) => Promise<boolean>;
    timeoutMs: number;
  },
): Promise<PageReload> {
  const exposed = (calls: readonly CapturedCall[]) =>
    calls.some((call) => call.kind === "track" && call.name !== null && options.exposures.includes(call.name));
  const callsBefore = options.calls().filter((call) => call.atMs < options.atMs);
  const firedBefore = exposed(callsBefore);
  const flagsBefore = options.flagsExposed(false);
  // How long the first load took to fire its first exposure.
  const firedAtMs = Math.min(
    ...callsBefore.filter((call) => exposed([call])).map((call) => call.atMs),
    ...(options.flagsExposedAtMs === null ? [] : [options.flagsExposedAtMs]),
  );
  const firstLoadMs = Number.isFinite(firedAtMs) ? firedAtMs : 0;
  const since = <T extends { atMs: number }>(items: readonly T[]) => items.filter((item) => item.atMs >= options.atMs);
  let loadError: string | null = null;
  try {
    const response = await page.goto(options.url, { waitUntil: "load", timeout: NAVIGATION_TIMEOUT_MS });
    if (response !== null && response.status() >= 400) loadError = `the server answered HTTP ${response.status()}`;
  } catch (error) {
    loadError = firstLine(error);
  }
  // Bounded from the load on, as the page's own waits are: a slow load must not eat the exposure's time.
  const deadline = Date.now() + firstLoadMs + options.timeoutMs;
  if (loadError === null) {
    const firedAgain = () =>
      (!firedBefore || exposed(since(options.calls()))) && (!flagsBefore || options.flagsExposed(true));
    if (firedBefore || flagsBefore) await options.waitFor(firedAgain, Math.max(0, deadline - Date.now()));
    await options.settle(
      () => deliverySettled(since(options.calls()), since(options.collect())) && options.sdkSettled(),
      Math.max(0, deadline - Date.now()),
    );
  }
  return {
    atMs: options.atMs,
    loadError,
    calls: since(options.calls()).filter((call) => call.state !== "lost"),
    collect: since(options.collect()),
  };
}
