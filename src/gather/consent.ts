import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { BrowserContext, CDPSession, Frame, Page } from "playwright";
import type {
  ConsentArtifacts,
  ConsentUnitKind,
  PageArtifacts,
  RequestSeen,
  StorageWrite,
  StoredName,
} from "../artifacts/types.js";
import { MAX_CONSENT_TIMEOUT_MS, type Step } from "../audit-spec/schema.js";
import { storageNameMatcher } from "../audit-spec/storage-names.js";
import { waitOnPageClock } from "../browser/page-clock.js";
import { firstLine } from "../text/wording.js";
import type { ConsentOptions } from "./gather-run.js";
import type { PageInput } from "../schedule/page-input.js";
import type { Gathering, GathererPart } from "./part.js";
import type { Signal } from "./signal.js";
import { runSteps } from "./steps.js";
import { trackerMatcher, type TrackerMatcher } from "./trackers.js";

/**
 * A consent unit (docs/consent.md): the page is watched until its banner is there and it is
 * quiet, judged there (what it stored and sent so far), then the banner is answered — accepted on
 * the page's own unit, refused on a reject unit — by @duckduckgo/autoconsent's rules (`auto`) or
 * by the spec's steps. A GPC unit sends Sec-GPC: 1, sets navigator.globalPrivacyControl and
 * answers nothing. Storage is watched from the first script on: cookies as the page's scripts
 * write them (with the page's time and task), through the page's cookieStore change events and a
 * snapshot; local and session storage through DevTools' own DOMStorage events, which the page
 * cannot see or forge.
 */

const BINDING = "__setupAuditConsent";
/** The name autoconsent's content script calls to reach its host. */
const AUTOCONSENT_BINDING = "autoconsentSendMessage";
/** How long an answer may take to be carried out, on both clocks (tarteaucitron's refusal waits 500 ms on purpose). */
const ANSWER_TIMEOUT_MS = 5000;
/** How long the banner may stay visible after an answer the rules said they carried out, on both clocks. */
const BANNER_GONE_TIMEOUT_MS = 2000;
/** At most this many requests are kept before consent (then only a tracker's first): enough to show what a page sends, bounded for a page that polls. */
const MAX_REQUESTS = 200;
/** How long the page is watched at least once its banner shows: a tag fired on a timer, or by a tag manager once the page is idle, is still sent before consent. */
const MIN_WATCH_MS = 2000;

/** A wait on both clocks, the audit's and the page's (`clockWindow`): the banner's, an answer's. */
export interface ClockWindow {
  over(): boolean;
  ended: Promise<void>;
}

/** The longest wait on both clocks should the page's clock never answer: the longest banner window a spec may give, twice. */
const MAX_CONSENT_WAIT_MS = 2 * MAX_CONSENT_TIMEOUT_MS;

/**
 * True once the first element `selector` matches in `frame` is in `state`, false when `window` ends
 * first. A frame taken out of the page (a consent manager that removes its frame once answered)
 * shows nothing: it is hidden.
 */
export function reachedWithin(
  frame: Frame,
  selector: string,
  state: "visible" | "hidden",
  window: ClockWindow,
): Promise<boolean> {
  const goneWithFrame = () => state === "hidden" && frame.isDetached();
  const reached = frame
    .locator(selector)
    .first()
    .waitFor({ state, timeout: MAX_CONSENT_WAIT_MS })
    .then(() => true, goneWithFrame);
  return Promise.race([reached, window.ended.then(goneWithFrame)]);
}
/** Requests that say nothing about tracking, unless a tracker's. */
const IGNORED_TYPES = new Set(["document", "stylesheet", "font"]);

/** The context options a GPC unit adds: the Sec-GPC header on every request. */
export function gpcContextOptions(unit: ConsentUnitKind | undefined): { extraHTTPHeaders?: Record<string, string> } {
  return unit === "gpc" ? { extraHTTPHeaders: { "Sec-GPC": "1" } } : {};
}

/** An autoconsent message, as the content script sends it. */
interface AutoconsentMessage {
  type: string;
  cmp?: string;
  result?: boolean;
  url?: string;
}

/** The consent watch of one page × viewport. */
export class ConsentWatch {
  private readonly messages: {
    type: string;
    cmp: string | null;
    result: boolean | null;
    frame: Frame | null;
    at: number;
  }[] = [];
  private readonly writes: StorageWrite[] = [];
  private readonly requests: RequestSeen[] = [];
  /** The trackers `requests` names: past MAX_REQUESTS, a tracker's first request is still kept. */
  private readonly trackersLogged = new Set<string>();
  private requestsLeftOut = 0;
  private readonly matches: (name: string) => boolean;
  private cdp: CDPSession | null = null;
  private webdriver: boolean | null = null;
  private bannerAt: number | null = null;
  private answeredAt: number | null = null;
  private answerError: string | null = null;
  private storedAtAnswer: StoredName[] | null = null;
  private activityCount = 0;

  private constructor(
    private readonly context: BrowserContext,
    private readonly options: ConsentOptions,
    private readonly sinceStart: (epochMs: number) => number,
    private readonly changed: Signal,
    private readonly trackers: TrackerMatcher,
  ) {
    this.matches = storageNameMatcher(options.storage);
  }

  /** How the banner is to be answered on this unit: the rules, the spec's steps, or nothing (GPC). */
  get answer(): "auto" | readonly Step[] | null {
    return answerOf(this.options);
  }

  /** Installs the watch on a context whose page does not exist yet: the bindings and init scripts, and autoconsent when the rules answer. */
  static async install(
    context: BrowserContext,
    options: ConsentOptions,
    pageUrl: string,
    sinceStart: (epochMs: number) => number,
    changed: Signal,
  ): Promise<ConsentWatch> {
    const watch = new ConsentWatch(context, options, sinceStart, changed, await trackerMatcher(pageUrl));
    await context.exposeBinding(BINDING, (_source, message: CookieMessage) => {
      if (typeof message?.name !== "string" || !Number.isFinite(message.at)) return;
      const task = typeof message.task === "number" ? message.task : null;
      watch.noteWrite("cookie", message.name, message.op === "remove" ? "remove" : "set", message.at, task);
    });
    await context.addInitScript(watchCookies, { binding: BINDING, gpc: options.unit === "gpc" });
    if (watch.answer === "auto") {
      await context.exposeBinding(AUTOCONSENT_BINDING, ({ frame }, message: AutoconsentMessage) =>
        watch.noteAutoconsent(frame, message),
      );
      await context.addInitScript({ content: autoconsentScript(pageUrl, options.spec.timeoutMs) });
    }
    return watch;
  }

  /** Watches the page's local and session storage and its requests, before it navigates. */
  async attach(page: Page): Promise<void> {
    page.on("request", (request) => {
      if (this.answeredAt !== null && this.options.unit !== "gpc") return;
      const url = request.url();
      if (url.startsWith("data:")) return;
      const tracker = this.trackers(url);
      if (tracker === null && IGNORED_TYPES.has(request.resourceType())) return;
      this.touch();
      if (this.requests.length >= MAX_REQUESTS && (tracker === null || this.trackersLogged.has(tracker.name))) {
        this.requestsLeftOut++;
        return;
      }
      if (tracker !== null) this.trackersLogged.add(tracker.name);
      this.requests.push({
        url,
        method: request.method(),
        resourceType: request.resourceType(),
        atMs: this.sinceStart(Date.now()),
        ...(tracker === null ? {} : { tracker }),
      });
    });
    try {
      this.cdp = await this.context.newCDPSession(page);
      const where = (storageId: { isLocalStorage: boolean }) =>
        storageId.isLocalStorage ? "localStorage" : "sessionStorage";
      this.cdp.on("DOMStorage.domStorageItemAdded", ({ storageId, key }) =>
        this.noteWrite(where(storageId), key, "set"),
      );
      this.cdp.on("DOMStorage.domStorageItemUpdated", ({ storageId, key }) =>
        this.noteWrite(where(storageId), key, "set"),
      );
      this.cdp.on("DOMStorage.domStorageItemRemoved", ({ storageId, key }) =>
        this.noteWrite(where(storageId), key, "remove"),
      );
      await this.cdp.send("DOMStorage.enable");
    } catch {
      // A browser without DevTools sessions (another engine behind a browser server): the snapshots still show what is stored.
      this.cdp = null;
    }
  }

  /**
   * After the page's load: waits for the banner (at most `timeoutMs`), then MIN_WATCH_MS and a
   * quiet window, keeps what is stored then, and answers it. `activity` counts the page's calls
   * and collect requests, which must be quiet too. A GPC unit waits the quiet window alone and
   * answers nothing. `pageClock` waits on the page's clock and never rejects (waitOnPageClock).
   */
  async settle(page: Page, activity: () => number, pageClock: (ms: number) => Promise<void>): Promise<void> {
    this.webdriver = await page.evaluate(() => navigator.webdriver).catch(() => null);
    const quiet = () =>
      this.changed.waitForQuiet(
        () => true,
        () => activity() + this.activityCount,
        this.options.settleMs,
        this.options.spec.timeoutMs,
        { pageClock },
      );
    const answer = this.answer;
    if (answer === null) {
      await quiet();
      return;
    }
    const window = this.clockWindow(this.options.spec.timeoutMs, pageClock);
    const banner =
      answer === "auto" ? await this.autoBanner(page, window) : await this.stepsBanner(page, answer, window);
    if (banner === null) return;
    this.bannerAt = Date.now();
    // On the page's clock and the audit's: a page that navigates away ends the first wait early.
    await this.clockWindow(MIN_WATCH_MS, pageClock).ended;
    await quiet();
    this.storedAtAnswer = await this.stored(page);
    this.answeredAt = Date.now();
    this.answerError =
      banner === true
        ? await this.answerWithSteps(page, answer === "auto" ? [] : answer)
        : await this.answerWithRules(page, banner);
  }

  /** The unit's artifacts, once its page is done. */
  async finish(page: Page | null): Promise<ConsentArtifacts> {
    const storedAtEnd = page === null ? [] : await this.stored(page);
    await this.cdp?.detach().catch(() => undefined);
    const answer = this.answer;
    return {
      unit: this.options.unit,
      method: methodOf(answer),
      timeoutMs: this.options.spec.timeoutMs,
      bannerAtMs: this.bannerAt === null ? null : this.sinceStart(this.bannerAt),
      cmp:
        this.messages.find((message) => message.type === "popupFound")?.cmp ??
        this.messages.find((message) => message.type === "cmpDetected")?.cmp ??
        null,
      answeredAtMs: this.answeredAt === null ? null : this.sinceStart(this.answeredAt),
      answerError: this.answerError,
      webdriver: this.webdriver,
      storedAtAnswer: this.storedAtAnswer ?? storedAtEnd,
      storedAtEnd,
      writes: this.writes,
      requestsBefore: this.requests,
      requestsLeftOut: this.requestsLeftOut,
    };
  }

  private touch(): void {
    this.activityCount++;
    this.changed.notify();
  }

  /** A write of the SDK's storage: when the page says (or now), and in which of its tasks when it knows. */
  private noteWrite(
    where: StoredName["where"],
    name: string,
    op: StorageWrite["op"],
    at = Date.now(),
    task: number | null = null,
  ): void {
    if (!this.matches(name)) return;
    this.writes.push({ where, name, op, atMs: this.sinceStart(at), ...(task === null ? {} : { task }) });
    this.touch();
  }

  private noteAutoconsent(frame: Frame, message: AutoconsentMessage): void {
    if (!message || typeof message.type !== "string") return;
    this.messages.push({
      type: message.type,
      cmp: message.cmp ?? null,
      result: message.result ?? null,
      frame,
      at: Date.now(),
    });
    this.changed.notify();
  }

  /**
   * A wait of `ms` from now on the audit's clock and on the page's own, whichever ends later: how
   * long the banner is waited for after the page's load, and an answer carried out. A page whose
   * renderer is starved (a loaded machine) runs its timers late, its consent manager and the rules'
   * retries with them: the wait is then as long in the page's time as in the audit's. A page's
   * clock that never answers (its thread stuck) gets ten times `ms` on the audit's, at most
   * MAX_CONSENT_WAIT_MS. `over` turns true when it ends; `ended` resolves then.
   */
  private clockWindow(ms: number, pageClock: (ms: number) => Promise<void>): ClockWindow {
    let over = false;
    let bound: ReturnType<typeof setTimeout> | undefined;
    const bothClocks = Promise.all([new Promise((resolve) => setTimeout(resolve, ms)), pageClock(ms)]);
    const stuck = new Promise((resolve) => {
      bound = setTimeout(resolve, Math.min(10 * ms, MAX_CONSENT_WAIT_MS));
    });
    const ended = Promise.race([bothClocks, stuck]).then(() => {
      clearTimeout(bound);
      over = true;
      this.changed.notify();
    });
    return { over: () => over, ended };
  }

  /** The rules' banner, once visible to a visitor as well: the frame it is in and its selector when the rule names one; null when none showed within the window. */
  private async autoBanner(
    page: Page,
    window: ClockWindow,
  ): Promise<{ frame: Frame; cmp: string; selector: string | null } | null> {
    const popups = () => this.messages.filter((message) => message.type === "popupFound");
    let seen = 0;
    for (;;) {
      await this.changed.waitFor(() => popups().length > seen || window.over(), MAX_CONSENT_WAIT_MS);
      if (popups().length <= seen) return null;
      seen = popups().length;
      const popup = popups().at(-1)!;
      const frame = popup.frame ?? page.mainFrame();
      const selector = popupSelector(popup.cmp ?? "");
      const cmp = popup.cmp ?? "an unnamed consent manager";
      if (selector === null) return { frame, cmp, selector };
      // The rules call an element in the layout "visible"; a banner built but not shown is not one a
      // visitor sees. Its container may have no box of its own (vanilla-cookieconsent's is empty,
      // its dialog fixed): what shows is it or something inside it.
      if (await reachedWithin(frame, shownPart(selector), "visible", window)) return { frame, cmp, selector };
      if (window.over()) return null;
    }
  }

  /** The spec's banner: its first step's element is visible; null when it was not within the window. */
  private async stepsBanner(page: Page, steps: readonly Step[], window: ClockWindow): Promise<true | null> {
    const selector = firstSelector(steps);
    if (selector === null) return true;
    return (await reachedWithin(page.mainFrame(), selector, "visible", window)) ? true : null;
  }

  private async answerWithRules(
    page: Page,
    banner: { frame: Frame; cmp: string; selector: string | null },
  ): Promise<string | null> {
    const kind = this.options.unit === "reject" ? "optOut" : "optIn";
    const resultType = `${kind}Result`;
    const verb = kind === "optIn" ? "accept" : "refuse";
    const before = this.messages.length;
    try {
      await banner.frame.evaluate(
        (type) =>
          (
            window as unknown as { autoconsentReceiveMessage(message: { type: string }): void }
          ).autoconsentReceiveMessage({ type }),
        kind,
      );
    } catch (error) {
      return `the rules for ${banner.cmp} could not ${verb} (${firstLine(error)})`;
    }
    // The rules run in the banner's frame, on its clock.
    const frameClock = (ms: number) => waitOnPageClock(banner.frame, ms);
    const resultOf = () => this.messages.slice(before).find((message) => message.type === resultType);
    const answerWindow = this.clockWindow(ANSWER_TIMEOUT_MS, frameClock);
    await this.changed.waitFor(() => resultOf() !== undefined || answerWindow.over(), MAX_CONSENT_WAIT_MS);
    const result = resultOf();
    if (result === undefined) return `the rules for ${banner.cmp} did not ${verb} within ${ANSWER_TIMEOUT_MS / 1000} s`;
    if (result.result !== true)
      return `the rules for ${banner.cmp} could not ${verb}: one of their steps found nothing to act on`;
    // The rules' clicks are synthetic: the banner gone is what shows the consent manager took them.
    if (banner.selector !== null) {
      const gone = await reachedWithin(
        banner.frame,
        shownPart(banner.selector),
        "hidden",
        this.clockWindow(BANNER_GONE_TIMEOUT_MS, frameClock),
      );
      if (!gone)
        return `the banner of ${banner.cmp} (${banner.selector}) was still shown ${BANNER_GONE_TIMEOUT_MS / 1000} s after its rules answered it`;
    }
    await page.waitForLoadState("load").catch(() => undefined);
    return null;
  }

  private async answerWithSteps(page: Page, steps: readonly Step[]): Promise<string | null> {
    const failed = await runSteps(page, steps, {
      baseUrl: page.url(),
      timeoutMs: this.options.stepTimeoutMs,
      hasCall: () => false,
      changed: this.changed,
      ...(this.options.typed ? { typed: this.options.typed } : {}),
    });
    return failed === null
      ? null
      : `step ${failed.step + 1} of consent.${this.options.unit === "reject" ? "reject" : "accept"}: ${failed.message}`;
  }

  /** Every cookie of the context and every storage key of the page's main frame, by name. */
  private async stored(page: Page): Promise<StoredName[]> {
    const cookies = await this.context.cookies().catch(() => []);
    const keys = await page
      .evaluate(() => {
        const names = (storage: Storage) =>
          Array.from({ length: storage.length }, (_, index) => storage.key(index) ?? "");
        try {
          return { local: names(localStorage), session: names(sessionStorage) };
        } catch {
          return { local: [], session: [] };
        }
      })
      .catch(() => ({ local: [] as string[], session: [] as string[] }));
    return [
      ...cookies.map((cookie): StoredName => ({ where: "cookie", name: cookie.name })),
      ...keys.local.map((name): StoredName => ({ where: "localStorage", name })),
      ...keys.session.map((name): StoredName => ({ where: "sessionStorage", name })),
    ];
  }
}

/** What shows of a banner: its element, or an element inside it, visible. */
function shownPart(selector: string): string {
  return `:is(${selector}):visible, :is(${selector}) *:visible`;
}

/** The element the first step of the spec's answer acts on: the banner is there once it is visible. */
function firstSelector(steps: readonly Step[]): string | null {
  const first = steps[0];
  if (first === undefined) return null;
  if ("click" in first) return first.click;
  if ("fill" in first) return first.fill.selector;
  if ("waitFor" in first) return first.waitFor;
  return null;
}

/** A cookie write as the page reports it: its name, set or removed, when (epoch ms, the page's clock) and, from a script, in which of the page's tasks. */
interface CookieMessage {
  op: StorageWrite["op"];
  name: string;
  at: number;
  task: number | null;
}

/**
 * In the page, before its scripts: reports every cookie change. A script's `document.cookie` writes
 * are reported as they are made, with the page's time and task, so that a probe (set and removed
 * in one task) is told from a cookie removed later; the browser's change events report the others
 * (`Set-Cookie`, the Cookie Store API) once the page listens. On a GPC unit, it says Global Privacy
 * Control is on, as browsers that support it do.
 */
function watchCookies({ binding, gpc }: { binding: string; gpc: boolean }): void {
  if (gpc)
    Object.defineProperty(Navigator.prototype, "globalPrivacyControl", {
      configurable: true,
      enumerable: true,
      get: () => true,
    });
  const toHost = (window as unknown as Record<string, (message: CookieMessage) => void>)[binding];
  if (!toHost) return;
  const now = () => performance.timeOrigin + performance.now();
  const microtask = window.queueMicrotask.bind(window);
  // A number per run of the page's code: a microtask ends the run it was queued in.
  let task = 0;
  let inTask = false;
  const currentTask = () => {
    if (!inTask) {
      task++;
      inTask = true;
      microtask(() => (inTask = false));
    }
    return task;
  };
  // The script's changes whose change events are still to come: those events are not reported again.
  const unreported = new Map<string, number>();
  const cookie = Object.getOwnPropertyDescriptor(Document.prototype, "cookie");
  if (cookie?.get && cookie.set) {
    const { get, set } = cookie;
    const valueOf = (document: Document, name: string) => {
      for (const pair of String(get.call(document)).split(";")) {
        const at = pair.indexOf("=");
        if (at >= 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1);
      }
      return undefined;
    };
    Object.defineProperty(Document.prototype, "cookie", {
      ...cookie,
      set(this: Document, value: unknown) {
        const text = String(value);
        const name = text.includes("=") ? text.slice(0, text.indexOf("=")).trim() : "";
        const before = name === "" ? undefined : valueOf(this, name);
        set.call(this, value);
        if (name === "") return;
        const after = valueOf(this, name);
        // Only a change is reported: a write the browser refused, or a delete of nothing, stored nothing.
        const op =
          after !== undefined && after !== before
            ? "set"
            : after === undefined && before !== undefined
              ? "remove"
              : null;
        if (op === null) return;
        const change = `${op} ${name}`;
        unreported.set(change, (unreported.get(change) ?? 0) + 1);
        toHost({ op, name, at: now(), task: currentTask() });
      },
    });
  }
  const store = (window as unknown as { cookieStore?: EventTarget }).cookieStore;
  store?.addEventListener("change", (event) => {
    const { changed = [], deleted = [] } = event as unknown as {
      changed?: { name: string }[];
      deleted?: { name: string }[];
    };
    const report = (op: CookieMessage["op"], name: string) => {
      const change = `${op} ${name}`;
      const pending = unreported.get(change) ?? 0;
      if (pending > 0) unreported.set(change, pending - 1);
      else toHost({ op, name, at: now(), task: null });
    };
    for (const item of changed) report("set", item.name);
    for (const item of deleted) report("remove", item.name);
  });
}

/** A rule of autoconsent's library, as much of it as the audit reads. */
interface AutoconsentRule {
  name: string;
  runContext?: { urlPattern?: string; frame?: boolean };
  detectPopup?: { visible?: string | string[] }[];
}

let library: { script: string; rules: AutoconsentRule[] } | null = null;

/** autoconsent's content script and rules, read once from the installed package. */
function autoconsentLibrary(): { script: string; rules: AutoconsentRule[] } {
  if (library !== null) return library;
  const require = createRequire(import.meta.url);
  // The Playwright build is no export of the package: it sits beside the main entry.
  const script = readFileSync(
    join(dirname(require.resolve("@duckduckgo/autoconsent")), "autoconsent.playwright.js"),
    "utf8",
  );
  // The full rules: the compact ones carry no steps to accept.
  const rules = (
    JSON.parse(readFileSync(require.resolve("@duckduckgo/autoconsent/rules/rules.json"), "utf8")) as {
      autoconsent: AutoconsentRule[];
    }
  ).autoconsent;
  library = { script, rules };
  return library;
}

/**
 * The CSS selector a JSON rule says its banner shows as; null where the rules alone know it: the
 * consent managers its script knows (Klaro, OneTrust, …), a chain through a shadow root or a frame
 * (a list of selectors), and an XPath.
 */
function popupSelector(cmp: string): string | null {
  const rule = autoconsentLibrary().rules.find((candidate) => candidate.name === cmp);
  const visible = rule?.detectPopup?.find((step) => step.visible !== undefined)?.visible;
  const selector = typeof visible === "string" ? visible : visible?.length === 1 ? visible[0]! : null;
  return selector === null || selector.startsWith("xpath/") ? null : selector;
}

/**
 * autoconsent's content script, with its rules for the page's URL (the generic ones, those of its
 * site and those of consent managers in frames) and its settings answered in the page itself, so that it starts before the page's
 * first script without a round trip: no prehiding and no cosmetic rules (the audit sees the banner
 * a visitor sees), no heuristics (it never guesses at an unknown banner's buttons), and no answer
 * until the audit asks for one.
 */
function autoconsentScript(pageUrl: string, timeoutMs: number): string {
  const { script, rules } = autoconsentLibrary();
  // A rule for a consent manager in a frame matches the frame's own URL, which the script tests there.
  const forPage = rules.filter(
    (rule) =>
      rule.runContext?.urlPattern === undefined ||
      rule.runContext.frame === true ||
      safeTest(rule.runContext.urlPattern, pageUrl),
  );
  const config = {
    enabled: true,
    autoAction: null,
    disabledCmps: [],
    enablePrehide: false,
    enableCosmeticRules: false,
    enableGeneratedRules: true,
    enableHeuristicDetection: false,
    heuristicMode: "off",
    // The rules look again every 500 ms at least, for as long as the banner is waited for.
    detectRetries: Math.ceil(timeoutMs / 500),
    isMainWorld: true,
    logs: {
      lifecycle: false,
      rulesteps: false,
      detectionsteps: false,
      evals: false,
      errors: false,
      messages: false,
      waits: false,
    },
  };
  const shim = `(() => {
  const toHost = window.${AUTOCONSENT_BINDING};
  if (typeof toHost !== "function") return;
  const rules = ${JSON.stringify(forPage)};
  const config = ${JSON.stringify(config)};
  window.${AUTOCONSENT_BINDING} = (message) => {
    if (message && message.type === "init") Promise.resolve().then(() => window.autoconsentReceiveMessage({ type: "initResp", config, rules: { autoconsent: rules } }));
    return toHost(message);
  };
})();`;
  return `${shim}\n${script}`;
}

function safeTest(pattern: string, url: string): boolean {
  try {
    return new RegExp(pattern).test(url);
  } catch {
    return false;
  }
}

/** How a unit's banner is to be answered: the rules, the spec's steps, or nothing (GPC). */
function answerOf(consent: Pick<ConsentOptions, "unit" | "spec">): "auto" | readonly Step[] | null {
  if (consent.unit === "gpc") return null;
  return (consent.unit === "reject" ? consent.spec.reject : consent.spec.accept) ?? null;
}

/** How the artifacts name an answer. */
function methodOf(answer: "auto" | readonly Step[] | null): ConsentArtifacts["method"] {
  return answer === null ? "none" : answer === "auto" ? "auto" : "steps";
}

/** The consent part: with the spec's `consent` section, the unit's banner waited for and answered before the SDK and the journey. */
export class ConsentPart implements GathererPart {
  /** A page never opened saw no banner; it was to answer the way the spec says. */
  static empty(input: Pick<PageInput, "consent">): Pick<PageArtifacts, "consent"> {
    const { consent } = input;
    if (consent === null) return {};
    return {
      consent: {
        unit: consent.unit,
        method: methodOf(answerOf(consent)),
        timeoutMs: consent.spec.timeoutMs,
        bannerAtMs: null,
        cmp: null,
        answeredAtMs: null,
        answerError: null,
        webdriver: null,
        storedAtAnswer: [],
        storedAtEnd: [],
        writes: [],
        requestsBefore: [],
        requestsLeftOut: 0,
      },
    };
  }

  private watch: ConsentWatch | null = null;

  constructor(private readonly gathering: Gathering<"consent" | "sdk" | "stepTimeoutMs" | "page" | "baseUrl">) {}

  async install(): Promise<void> {
    const { input, context, sinceStart, changed } = this.gathering;
    if (input.consent === null) return;
    this.watch = await ConsentWatch.install(
      context,
      {
        ...input.consent,
        settleMs: input.sdk.settleMs,
        stepTimeoutMs: input.stepTimeoutMs,
        typed: this.gathering.noteTyped,
      },
      new URL(input.page.path, input.baseUrl).href,
      sinceStart,
      changed,
    );
  }

  async attach(page: Page): Promise<void> {
    await this.watch?.attach(page);
  }

  async settle(page: Page): Promise<void> {
    // The banner first: what the page does before it is answered is what consent.before judges.
    await this.watch?.settle(page, () => this.gathering.activity(), this.gathering.pageClock);
  }

  async finish(): Promise<Pick<PageArtifacts, "consent">> {
    const { loaded, page } = this.gathering;
    return this.watch === null ? {} : { consent: await this.watch.finish(loaded ? page : null) };
  }
}
