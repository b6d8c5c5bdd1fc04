import type { Page } from "playwright";
import { typedText } from "../privacy/secrets.js";
import type { Step } from "../audit-spec/schema.js";
import { describeStep } from "../audit-spec/steps.js";
import { firstLine } from "../text/wording.js";
import { urlMatcher } from "../url/glob.js";
import type { PageArtifacts } from "../artifacts/types.js";
import type { CallsPart } from "./calls.js";
import type { Gathering, GathererPart } from "./part.js";
import { readPageClock, type RouteWatch } from "./routes.js";
import type { SdkReadyPart } from "./sdk-ready.js";
import type { Signal } from "./signal.js";

/** What a journey needs from the gatherer. */
export interface StepContext {
  baseUrl: string;
  /** How long one step may take. */
  timeoutMs: number;
  /** True once the page made a call with this event name. */
  hasCall: (name: string) => boolean;
  changed: Signal;
  /** On a unit without consent (a refusal, GPC): a waitForEvent step waits at most this long and never fails, since no call may come. */
  eventWaitMs?: number;
  /** Told as each step starts, by its index, and waited for: the calls made from then on are that step's. */
  stepStarted?: (index: number) => Promise<void>;
  /** Told of each field a `fill` step typed into, by its selector, once it did. */
  typed?: (selector: string) => void;
}

/** Walks a journey; returns the first step that failed, or null. */
export async function runSteps(
  page: Page,
  steps: readonly Step[],
  context: StepContext,
): Promise<{ step: number; message: string } | null> {
  for (const [index, step] of steps.entries()) {
    await context.stepStarted?.(index);
    try {
      await runStep(page, step, context);
    } catch (error) {
      const message = firstLine(error);
      return { step: index, message: `${describeStep(step)} failed: ${message}` };
    }
  }
  return null;
}

async function runStep(page: Page, step: Step, context: StepContext): Promise<void> {
  const timeout = context.timeoutMs;
  if ("fill" in step) {
    await page.locator(step.fill.selector).fill(typedText(step.fill, process.env), { timeout });
    context.typed?.(step.fill.selector);
  } else if ("click" in step) {
    await page.locator(step.click).click({ timeout });
  } else if ("waitFor" in step) {
    await page.locator(step.waitFor).first().waitFor({ state: "visible", timeout });
  } else if ("goto" in step) {
    await page.goto(new URL(step.goto, context.baseUrl).href, { waitUntil: "load", timeout: timeout * 2 });
  } else if (!("waitForEvent" in step)) {
    await runHistoryStep(page, step, timeout);
  } else if (context.eventWaitMs !== undefined) {
    await context.changed.waitFor(() => context.hasCall(step.waitForEvent), context.eventWaitMs);
  } else {
    const seen = await context.changed.waitFor(() => context.hasCall(step.waitForEvent), timeout);
    if (!seen) throw new Error(`no call named "${step.waitForEvent}" within ${timeout / 1000} s`);
  }
}

/** A step through the tab's history or its URL: back, forward, or a wait until the URL matches. */
async function runHistoryStep(
  page: Page,
  step: { back: true } | { forward: true } | { waitForUrl: string },
  timeout: number,
): Promise<void> {
  if ("waitForUrl" in step) {
    await page.waitForURL(urlStepMatcher(step.waitForUrl), { timeout });
    return;
  }
  const back = "back" in step;
  if (!(await page.evaluate(historyHasEntry, back)))
    throw new Error(`there is no history entry to go ${back ? "back" : "forward"} to`);
  // A single-page app moves within its document; another document is waited for until it commits.
  await (back ? page.goBack({ timeout, waitUntil: "commit" }) : page.goForward({ timeout, waitUntil: "commit" }));
}

/** In the page: whether its tab can go back (or forward); true where the browser cannot say. */
function historyHasEntry(back: boolean): boolean {
  const navigation = (window as unknown as { navigation?: { canGoBack: boolean; canGoForward: boolean } }).navigation;
  if (navigation === undefined) return true;
  return back ? navigation.canGoBack : navigation.canGoForward;
}

/** What a waitForUrl glob matches: the path (a query or fragment after it allowed), or the whole URL when the glob has a scheme. */
export function urlStepMatcher(glob: string): (url: URL) => boolean {
  const matches = urlMatcher(glob);
  const whole = /^[a-z][a-z0-9+.-]*:/i.test(glob);
  return (url) => matches(whole ? url.href : `${url.pathname}${url.search}${url.hash}`);
}

/**
 * The journey part: walks the page's steps, then waits for the SDK to be ready (or unable to be).
 * The page is done, at most deliveryTimeoutMs after its journey, once its calls settle.
 */
export class JourneyPart implements GathererPart {
  /** A page never opened walked no step. */
  static empty(): Pick<PageArtifacts, "stepError"> {
    return { stepError: null };
  }

  /** When the wait for the page's calls ends at the latest (epoch milliseconds). */
  doneBy = 0;
  private stepError: PageArtifacts["stepError"] = null;

  constructor(
    private readonly gathering: Gathering<"page" | "baseUrl" | "stepTimeoutMs" | "sdk" | "consent">,
    private readonly calls: CallsPart,
    private readonly routes: RouteWatch,
    private readonly sdkReady: SdkReadyPart,
  ) {}

  async settle(page: Page): Promise<void> {
    const { input, changed } = this.gathering;
    const { sdk } = input;
    this.stepError = await runSteps(page, input.page.steps, {
      baseUrl: input.baseUrl,
      timeoutMs: input.stepTimeoutMs,
      hasCall: (name) => this.calls.made().some((call) => call.name === name),
      changed,
      stepStarted: async (index) => this.routes.stepStarted(index, await readPageClock(page)),
      typed: this.gathering.noteTyped,
      // Without consent no call may come: a waitForEvent step waits the quiet window, and never fails.
      ...(this.gathering.consentWithheld() ? { eventWaitMs: sdk.settleMs } : {}),
    });
    this.doneBy = Date.now() + sdk.deliveryTimeoutMs;
    await changed.waitFor(this.sdkReady.readyOrNever, sdk.deliveryTimeoutMs);
  }

  async finish(): Promise<Pick<PageArtifacts, "stepError">> {
    return { stepError: this.stepError };
  }
}
