import type { BrowserContext, Page } from "playwright";
import { routeOf } from "../url/route.js";
import type {
  AppliedVariation,
  CapturedCall,
  FlickerFrames,
  KeySighting,
  LoginOutcome,
  PageArtifacts,
  PageReload,
  RouteVisit,
  VisitorSignals,
} from "../artifacts/types.js";
import { deliverySettled } from "../artifacts/delivery.js";
import { isOnDomain } from "../url/domain.js";
import { globToRegExpSource } from "../url/glob.js";
import type { PageSpec, SdkSpec } from "../spec/schema.js";
import { firstLine } from "../text/wording.js";
import { CanaryWatch, type Canary } from "./canary.js";
import { ConsentWatch, type ConsentOptions } from "./consent.js";
import { recoverLostCalls, type MissingGlobalRead } from "./lost-calls.js";
import { NetworkCapture } from "./network.js";
import { carriedCalls } from "./carried-calls.js";
import { pageViewsSent, withPageViews, type PagePlace } from "./page-views.js";
import { RouteWatch } from "./routes.js";
import { installRecorder, watchedMethods, type RecorderMessage } from "./recorder.js";
import { toCall } from "./recorded-call.js";
import { readSdkTag, type SdkTagFacts } from "./sdk-tag.js";
import { saveViewportScreenshot } from "./screenshot.js";
import { matchSelectors, type ExperimentTarget } from "./selectors.js";
import { runSteps } from "./steps.js";
import {
  applyVariation,
  settleTargets,
  targetWatch,
  VARIATION_SOURCE,
  variationLine,
  viewExperiments,
  waitUntilShown,
  watchTargetChanges,
  type VariationCode,
} from "./variation.js";
import { Signal } from "./signal.js";
import { flickerSampler, readFlicker, samplerFor, Screencast } from "./flicker.js";
import { landingOf, isAuthRefusal } from "./landing.js";
import { SiteRequestTagger, tagsAnything, withQueryParam, type RequestTags, type TrafficTags } from "./traffic.js";

/** What to gather for one page on one viewport. */
export interface PageGatherOptions {
  spec: string;
  environment: string;
  /** The unit of the plan gathered, carried into its artifacts. */
  unit: PageArtifacts["unit"];
  baseUrl: string;
  page: PageSpec;
  sdk: SdkSpec;
  viewport: string;
  mobile: boolean;
  /** Every environment's project key, to be searched for. */
  projectKeys: string[];
  /** The experiments that change this page. */
  experiments: ExperimentTarget[];
  canaries: Canary[];
  /** The environment's domain: its URLs (subdomains included) are the site's own, and the traffic header goes to them. */
  siteDomain: string;
  /** How audit traffic identifies itself and whether collect requests reach the service; the user agent is the context's. */
  traffic: TrafficTags;
  /** A closed site's headers (`auth.headers`) and the one origin they go to; absent or null for none. */
  originHeaders?: RequestTags["originHeaders"];
  /** This viewport's login (`auth.login`), walked before its pages; absent or null without one. */
  login?: LoginOutcome | null;
  /** The tagger of the browser the worker owns; null to tag through a session on the page (a remote browser). */
  browserTagger: SiteRequestTagger | null;
  /** How long one journey step may take (default 15 s). */
  stepTimeoutMs?: number;
  /** Where to save the screenshot (absolute) and how to name it in the artifacts; null for none. */
  screenshot: { path: string; name: string } | null;
  /** The selectors of the fields a step types a secret (`valueEnv`) or a canary into: the screenshot and view screens mask them. Absent for none. */
  maskedFields?: readonly string[];
  /** The experiments whose target is seen before the journey: on the page as it is, those with variations; on a variation, its own. */
  viewedExperiments?: ExperimentTarget[];
  /** Where to save the first screen as the views see it, as `screenshot`; null or absent for none. */
  viewScreenshot?: { path: string; name: string } | null;
  /** On a variation the site applies itself (forced by `query` alone): its target, sampled frame by frame from the first (experiment.flicker), and where to save the filmstrip's frames (absolute path and name relative to the output, by index; null for none). */
  flicker?: { selector: string; filmstrip: ((index: number) => { path: string; name: string }) | null };
  /** The exposures' event names (`experiments[].exposure.event`) of the page's experiments: once done, the page is loaded once more in its context, without a journey, and waited for as long as it takes to fire them again. Absent or empty for no reload. */
  reloadForExposures?: readonly string[];
  /** The variation to preview: its preview link's parameters are added to the URL, its code applied once the SDK is ready. Absent for the page as it is. */
  variation?: {
    experiment: string;
    name: string;
    query: Readonly<Record<string, string>>;
    control?: true;
  } & VariationCode;
  /** With the spec's `consent` section: the unit's banner is waited for and answered before the SDK and the journey (docs/consent.md). Absent without one. */
  consent?: Omit<ConsentOptions, "stepTimeoutMs" | "settleMs">;
}

const NAVIGATION_TIMEOUT_MS = 30_000;
const BINDING = "__setupAuditRecord";

/**
 * Opens the page in a context that has none yet, loads it, walks its journey and records
 * everything the checks need. Never judges.
 */
export async function gatherPage(context: BrowserContext, options: PageGatherOptions): Promise<PageArtifacts> {
  const startedAt = Date.now();
  const sinceStart = (epochMs: number) => Math.max(0, Math.round(epochMs - startedAt));
  const { sdk } = options;
  const changed = new Signal();
  const recordedCalls: CapturedCall[] = [];
  const missingGlobalReads: MissingGlobalRead[] = [];
  const initSightings: KeySighting[] = [];
  let callsFromNetwork: PageArtifacts["callsFromNetwork"] = null;
  let sdkReadyAt: number | null = null;
  let globalAssigned = false;

  const routes = await RouteWatch.install(context);
  const place = (page: Page): PagePlace => ({ routes, startedAt, pageUrl: page.url() });
  await context.exposeBinding(BINDING, (_source, message: RecorderMessage) => {
    if (message.type === "sdk-ready") sdkReadyAt ??= message.at;
    if (message.type === "global-assigned") globalAssigned = true;
    if (message.type === "missing-global") missingGlobalReads.push(message);
    if (message.type === "call")
      recordedCalls.push({
        ...toCall(message, sinceStart, sdk),
        step: routes.stepAt(message.at),
        route: routeOf(message.url),
      });
    if (message.type === "blind") callsFromNetwork ??= { reason: message.reason, detail: message.detail };
    // Any key an init call installs, the spec's or not: sdk.key names a wrong one, `init` learns it.
    if (message.type === "init") initSightings.push({ key: message.key, where: "init", detail: message.method });
    changed.notify();
  });
  const viewed = options.viewedExperiments ?? [];
  if (viewed.length > 0) await context.addInitScript(watchTargetChanges, targetWatch(viewed));
  const stepTimeoutMs = options.stepTimeoutMs ?? 15_000;
  const consent = options.consent
    ? await ConsentWatch.install(
        context,
        { ...options.consent, settleMs: sdk.settleMs, stepTimeoutMs },
        new URL(options.page.path, options.baseUrl).href,
        sinceStart,
        changed,
      )
    : null;
  if (options.flicker) await context.addInitScript(flickerSampler, samplerFor(options.flicker.selector));
  await context.addInitScript(installRecorder, {
    binding: BINDING,
    global: sdk.global,
    methods: watchedMethods(sdk),
    ready: sdk.ready,
    scriptPattern: globToRegExpSource(sdk.script),
  });
  // Bindings and init scripts go to the context before its page exists: the page then starts
  // with them, instead of each being a round trip to a renderer that is still starting.
  const page = await context.newPage();
  const masked = { page, selectors: options.maskedFields ?? [] };
  await consent?.attach(page);
  const network = new NetworkCapture(context, sdk, options.projectKeys, sinceStart, () => changed.notify());
  const tags: RequestTags = {
    header: options.traffic.header,
    domain: options.siteDomain,
    originHeaders: options.originHeaders ?? null,
  };
  options.browserTagger?.tagFor(tags);
  // Attaching a session to a page costs a round trip to a browser that is busy starting it: one
  // session serves the screenshots, the experiments' target pixels and, in a remote browser, the request headers.
  const tagsInPage = tagsAnything(tags) && options.browserTagger === null;
  const cdp =
    tagsInPage || options.screenshot || viewed.length > 0 || options.flicker ? await context.newCDPSession(page) : null;
  if (cdp && tagsInPage) await SiteRequestTagger.tagPage(cdp, tags);
  if (options.traffic.collect === "intercept") await network.intercept(context);
  const canaries = new CanaryWatch(
    context,
    options.canaries,
    (url) => isOnDomain(url.href, options.siteDomain),
    (url) => network.isCollectUrl(url) || network.isSdkUrl(url),
  );
  const errors: PageArtifacts["errors"] = [];
  const variationErrors: AppliedVariation["errors"] = [];
  page.on("pageerror", (error) => {
    // What the variation's js throws later (from a timer, a listener) is the variation's, not the page's.
    if (error.stack?.includes(VARIATION_SOURCE))
      variationErrors.push({ message: error.message, line: variationLine(error.stack) });
    else errors.push({ kind: "exception", message: error.message });
  });
  page.on("console", (message) => {
    // A collect request the collector refused is judged by events.delivered, not as a page error;
    // the favicon is the browser's own request, not the page's.
    const source = message.location().url;
    if (message.type() === "error" && !network.isCollectUrl(source) && !isFavicon(source)) {
      const text = message.text();
      // Chromium's line for a failed request names no URL; the message's source is the request's.
      errors.push({
        kind: "console",
        message: text,
        ...(FAILED_REQUEST.test(text) && source !== "" ? { url: source } : {}),
      });
    }
  });
  // Every URL the main frame was sent to, redirects included: a redirect's target may fail to
  // load and never become a document, but the page was still sent there.
  const navigations: string[] = [];
  let failedNavigation: { url: string; error: string } | null = null;
  const noteNavigation = (url: string) => {
    if (navigations.at(-1) !== url) navigations.push(url);
  };
  page.on("request", (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) noteNavigation(request.url());
  });
  page.on("requestfailed", (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame())
      failedNavigation = { url: request.url(), error: request.failure()?.errorText ?? "failed" };
  });
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) noteNavigation(frame.url());
  });

  // An SDK at work without its global (an npm install that keeps it in its own scope) shows
  // itself only through the events its collect requests carry.
  const atWorkWithoutGlobal = () => !globalAssigned && network.collect.some((request) => request.events.length > 0);
  const unwatched = (): PageArtifacts["callsFromNetwork"] =>
    callsFromNetwork ?? (atWorkWithoutGlobal() ? { reason: "no-global", detail: `window.${sdk.global}` } : null);
  // Calls the page made: watched on the SDK, or read from the collect requests when they could not be.
  const madeCalls = () => (unwatched() === null ? recordedCalls : carriedCalls(network.collect, sdk, page.url()));
  // Without a watched global (an npm install, a frozen API, or no SDK seen at all) a call shows
  // only once its batch leaves: an expected one not seen yet may still come.
  const refusal = options.consent !== undefined && options.consent.unit !== "page";
  const expectedSeen = () => {
    // Without consent nothing is expected: what comes anyway is waited for by the quiet window.
    if (refusal || (globalAssigned && callsFromNetwork === null)) return true;
    const made = madeCalls();
    const expected = options.page.expect;
    // An exposure to fire again after the reload is expected too: a batch that holds it must leave before the reload.
    const tracks = [...(expected?.track ?? []), ...(options.reloadForExposures ?? [])];
    return (
      tracks.every((name) => made.some((call) => call.kind === "track" && call.name === name)) &&
      (!expected?.identify || made.some((call) => call.kind === "identify"))
    );
  };
  const requestedUrl = withQueryParam(
    withPreviewQuery(new URL(options.page.path, options.baseUrl), options.variation?.query ?? {}),
    options.traffic.queryParam,
  );
  // The filmstrip starts before the page does, so that its first frame is in.
  const screencast = cdp !== null && options.flicker?.filmstrip ? await Screencast.start(cdp) : null;
  let flicker: FlickerFrames | null = null;
  let loadError: string | null = null;
  let documentStatus: number | null = null;
  let authRefused = false;
  try {
    const response = await page.goto(requestedUrl, { waitUntil: "load", timeout: NAVIGATION_TIMEOUT_MS });
    documentStatus = response?.status() ?? null;
    if (documentStatus !== null && documentStatus >= 400) loadError = `the server answered HTTP ${documentStatus}`;
  } catch (error) {
    const failed = failedNavigation as { url: string; error: string } | null;
    loadError =
      failed !== null && failed.url !== requestedUrl
        ? `it redirected to ${failed.url}, which failed (${failed.error})`
        : firstLine(error);
    authRefused = isAuthRefusal(error);
  }
  const landing = loadError === null ? await landingOf(page, requestedUrl) : { landedUrl: null, passwordField: false };
  const visitor = loadError === null ? await visitorSignals(page) : null;

  let stepError: PageArtifacts["stepError"] = null;
  let sdkTag: Promise<SdkTagFacts> = Promise.resolve({ sdkTagKey: null, sightings: [] });
  let navigationsBeforeTagRead = 0;
  let selectors: Promise<PageArtifacts["selectors"]> = Promise.resolve([]);
  let screenshot: Promise<string | null> = Promise.resolve(null);
  let experimentViews: PageArtifacts["experimentViews"] = [];
  let reload: PageReload | null = null;
  let beforeReloading: { url: string; navigations: number } | null = null;
  if (loadError === null) {
    const pageClock = (ms: number) => page.evaluate((ms) => new Promise((resolve) => setTimeout(resolve, ms)), ms);
    // The banner first: what the page does before it is answered is what consent.before judges.
    await consent?.settle(
      page,
      () => recordedCalls.length + network.collect.length,
      (ms) => pageClock(ms).catch(() => undefined),
    );
    // A visitor needs longer than the audit to act: a journey starts once the SDK is ready, or
    // once no SDK script is left that could make it so, so that the calls the journey triggers
    // are judged on the page's setup, not on how fast the audit clicks. A stub snippet whose SDK
    // script is not requested yet means a tag loaded late (after load, when idle, by a tag
    // manager): the SDK is still to come, until the first wait for it ran out.
    let lateSdkWaitedFor = false;
    const sdkMayBecomeReady = () =>
      network.sdkScripts.length > 0
        ? network.sdkScripts.some((load) => load.failure === null && (load.status === null || load.status < 400))
        : globalAssigned && !lateSdkWaitedFor;
    const sdkSettled = () => sdkReadyAt !== null || atWorkWithoutGlobal() || !sdkMayBecomeReady();
    if (options.page.steps.length > 0 || viewed.length > 0) {
      // Nothing of the SDK yet: a quiet window, on both clocks, for a late tag to show itself.
      const sdkSeen = () => network.sdkScripts.length > 0 || globalAssigned;
      if (!sdkSeen()) {
        const quietWindow = Promise.all([
          new Promise((resolve) => setTimeout(resolve, sdk.settleMs)),
          pageClock(sdk.settleMs).catch(() => undefined),
        ]);
        await Promise.race([changed.waitFor(sdkSeen, sdk.deliveryTimeoutMs), quietWindow]);
      }
      await changed.waitFor(sdkSettled, sdk.deliveryTimeoutMs);
      lateSdkWaitedFor = true;
    }
    // A variation is applied, and every unit's targets seen, at the same moment: before the journey.
    const viewedAt = sinceStart(Date.now());
    const { variation } = options;
    const thrown = variation ? await applyVariation(page, variation) : null;
    if (thrown !== null) variationErrors.push(thrown);
    // A preview link's change comes from the SDK, often a moment after it is ready, and a
    // variation's js may wait for its element: what changes the target is waited for (unless the
    // js threw at once), then quiet.
    // A forced control may show what the page showed all along: only its stillness is waited for.
    const changeExpected =
      variation !== undefined &&
      variation.control !== true &&
      ((variation.js !== null && thrown === null) || Object.keys(variation.query).length > 0);
    if (viewed.length > 0)
      await settleTargets(page, { quietMs: sdk.settleMs, changeExpected, timeoutMs: sdk.deliveryTimeoutMs });
    if (viewed.length > 0) await waitUntilShown(page, sdk.deliveryTimeoutMs);
    // Shown and settled: the frames from the first until now say how the variation arrived, before
    // the audit holds the animations to see the targets.
    if (options.flicker) flicker = await readFlicker(page, screencast, options.flicker.filmstrip);
    experimentViews = await viewExperiments(page, viewed, viewedAt, {
      cdp,
      screen: options.viewScreenshot ?? null,
      masked,
    });
    stepError = await runSteps(page, options.page.steps, {
      baseUrl: options.baseUrl,
      timeoutMs: stepTimeoutMs,
      hasCall: (name) => madeCalls().some((call) => call.name === name),
      changed,
      stepStarted: (index) => routes.stepStarted(index),
      // Without consent no call may come: a waitForEvent step waits the quiet window, and never fails.
      ...(refusal ? { eventWaitMs: sdk.settleMs } : {}),
    });
    // The page is done once the SDK is ready (or cannot be), every call it made has an answered
    // request, and nothing new came for a quiet window, on the audit's clock and on the page's
    // (its timers run late when its thread is busy or starved); all bounded by deliveryTimeoutMs.
    // The tag read, selector counts and screenshot overlap that window.
    const deadline = Date.now() + sdk.deliveryTimeoutMs;
    await changed.waitFor(sdkSettled, sdk.deliveryTimeoutMs);
    navigationsBeforeTagRead = navigations.length;
    sdkTag = readSdkTag(page, sdk, options.projectKeys);
    selectors = matchSelectors(page, options.experiments);
    if (cdp && options.screenshot) {
      const { path, name } = options.screenshot;
      screenshot = saveViewportScreenshot(cdp, path, masked).then(
        () => name,
        () => null,
      );
    }
    const activity = () => recordedCalls.length + network.collect.length;
    const settled = () =>
      deliverySettled(madeCalls(), network.collect) &&
      expectedSeen() &&
      pageViewsSent(recordedCalls, network.collect, sdk, place(page));
    await changed.waitForQuiet(settled, activity, sdk.settleMs, Math.max(0, deadline - Date.now()), pageClock);
    if ((options.reloadForExposures ?? []).length > 0) {
      // What is read of the page (its tag, the selectors, the screenshot) is read of it, not of its reload.
      await Promise.all([sdkTag, selectors, screenshot]);
      // Where the page and its journey went, and its tag, are what they were before the reload.
      if (navigations.length !== navigationsBeforeTagRead) {
        const reread = await readSdkTag(page, sdk, options.projectKeys);
        sdkTag = Promise.resolve(reread);
        navigationsBeforeTagRead = navigations.length;
      }
      beforeReloading = { url: page.url(), navigations: navigations.length };
      // The reload is no visit: the service never sees it, and no event of it vouches for a call of the page's.
      await network.intercept(context);
      reload = await reloadPage(page, {
        url: requestedUrl,
        atMs: sinceStart(Date.now()),
        exposures: options.reloadForExposures ?? [],
        calls: madeCalls,
        collect: () => network.collect,
        settle: (condition, timeoutMs) => changed.waitForQuiet(condition, activity, sdk.settleMs, timeoutMs, pageClock),
        waitFor: (condition, timeoutMs) => changed.waitFor(condition, timeoutMs),
        timeoutMs: sdk.deliveryTimeoutMs,
      });
    }
  }

  // Stopped already when the flicker was read; else now (a page that failed to load or moved on).
  await screencast?.stop();
  // Headers some requests reveal only asynchronously (cookies) may still carry a key.
  await network.settled();
  const lost = await recoverLostCalls(context, missingGlobalReads, sdk, sinceStart);
  // Page views show their URL, and those the SDK made on its own show at all, only in what it sent.
  const calls = unwatched() === null ? withPageViews(recordedCalls, network.collect, sdk, place(page)) : madeCalls();
  let sdkFacts = await sdkTag;
  // A page that moved on while its tag was read (before any reload) is read again where it ended.
  const ownNavigations = beforeReloading === null ? navigations : navigations.slice(0, beforeReloading.navigations);
  if (loadError === null && ownNavigations.length !== navigationsBeforeTagRead)
    sdkFacts = await readSdkTag(page, sdk, options.projectKeys);
  return {
    spec: options.spec,
    environment: options.environment,
    unit: options.unit,
    page: options.page.id,
    viewport: options.viewport,
    mobile: options.mobile,
    browser: browserName(context),
    requestedUrl,
    finalUrl: loadError === null ? (beforeReloading?.url ?? page.url()) : null,
    navigations: ownNavigations,
    loadError,
    documentStatus,
    visitor,
    stepError,
    access: { login: options.login ?? null, ...landing, authRefused },
    sdkScripts: network.sdkScripts,
    sdkReadyAtMs: sdkReadyAt === null ? null : sinceStart(sdkReadyAt),
    callsFromNetwork: unwatched(),
    sdkTagKey: sdkFacts.sdkTagKey,
    keySightings: uniqueSightings([...sdkFacts.sightings, ...initSightings, ...network.keySightings]),
    selectors: await selectors,
    canarySightings: await canaries.settled(),
    calls: [...beforeReload(calls, reload), ...beforeReload(lost, reload)].sort((a, b) => a.atMs - b.atMs),
    collect: beforeReload(network.collect, reload),
    errors,
    screenshot: await screenshot,
    variation: options.variation
      ? {
          experiment: options.variation.experiment,
          name: options.variation.name,
          ...(options.variation.control ? { control: true as const } : {}),
          errors: variationErrors,
        }
      : null,
    experimentViews,
    flicker,
    reload,
    durationMs: Date.now() - startedAt,
    ...(consent ? { consent: await consent.finish(loadError === null ? page : null) } : {}),
    routes: routesBeforeReload(routes.finish(sinceStart), reload),
  };
}

/** What the page did before its reload: the reload's calls and requests are its own. */
function beforeReload<T extends { atMs: number }>(items: readonly T[], reload: PageReload | null): T[] {
  return reload === null ? [...items] : items.filter((item) => item.atMs < reload.atMs);
}

/**
 * Loads the page once more in its context (the visitor keeps their cookies and storage, so their
 * bucket), without a journey: its own URL, wherever the journey went. An SDK that fired an exposure on the first load is given as long as
 * it takes to fire one again (at most `timeoutMs`), then the page is done as any page is: nothing
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
    settle: (condition: () => boolean, timeoutMs: number) => Promise<boolean>;
    waitFor: (condition: () => boolean, timeoutMs: number) => Promise<boolean>;
    timeoutMs: number;
  },
): Promise<PageReload> {
  const exposed = (calls: readonly CapturedCall[]) =>
    calls.some((call) => call.kind === "track" && call.name !== null && options.exposures.includes(call.name));
  const firedBefore = exposed(options.calls().filter((call) => call.atMs < options.atMs));
  const since = <T extends { atMs: number }>(items: readonly T[]) => items.filter((item) => item.atMs >= options.atMs);
  let loadError: string | null = null;
  try {
    const response = await page.goto(options.url, { waitUntil: "load", timeout: NAVIGATION_TIMEOUT_MS });
    if (response !== null && response.status() >= 400) loadError = `the server answered HTTP ${response.status()}`;
  } catch (error) {
    loadError = firstLine(error);
  }
  // Bounded from the load on, as the page's own waits are: a slow load must not eat the exposure's time.
  const deadline = Date.now() + options.timeoutMs;
  if (loadError === null) {
    if (firedBefore) await options.waitFor(() => exposed(since(options.calls())), Math.max(0, deadline - Date.now()));
    await options.settle(
      () => deliverySettled(since(options.calls()), since(options.collect())),
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

/** The routes the page showed before its reload: the reload's are its own. */
function routesBeforeReload(visits: RouteVisit[] | null, reload: PageReload | null): RouteVisit[] | null {
  return visits === null ? null : beforeReload(visits, reload);
}

/** The page's URL with a preview link's parameters added. */
function withPreviewQuery(url: URL, query: Readonly<Record<string, string>>): string {
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.href;
}

/** How Chromium's console reports a request that failed: an HTTP error status or a network error. */
const FAILED_REQUEST = /^Failed to load resource\b/;

/** The icon browsers ask every site for on their own. */
function isFavicon(url: string): boolean {
  return URL.canParse(url) && new URL(url).pathname === "/favicon.ico";
}

/** What the page reads of its browser; null when the page could not be read (it moved on meanwhile). */
function visitorSignals(page: Page): Promise<VisitorSignals | null> {
  return page.evaluate(() => ({ webdriver: navigator.webdriver, userAgent: navigator.userAgent })).catch(() => null);
}

/** The browser as Playwright knows it, type and version (`Chromium 156.0.7339.80`), whether launched here or behind a browser server. */
function browserName(context: BrowserContext): string | null {
  const browser = context.browser();
  if (!browser) return null;
  const name = browser.browserType().name();
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} ${browser.version()}`;
}

function uniqueSightings(sightings: KeySighting[]): KeySighting[] {
  const seen = new Set<string>();
  return sightings.filter((sighting) => {
    const id = `${sighting.key} ${sighting.where} ${sighting.detail}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
