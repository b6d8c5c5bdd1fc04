import type { BrowserContext } from "playwright";
import type { CapturedCall, KeySighting, PageArtifacts } from "../artifacts.js";
import { deliverySettled } from "../delivery.js";
import { isOnDomain } from "../domain.js";
import { globToRegExpSource } from "../glob.js";
import type { PageSpec, SdkSpec } from "../spec/schema.js";
import { firstLine } from "../text.js";
import { CanaryWatch, type Canary } from "./canary.js";
import { recoverLostCalls } from "./lost-calls.js";
import { NetworkCapture } from "./network.js";
import { installRecorder, type RecorderMessage } from "./recorder.js";
import { readSdkTag, type SdkTagFacts } from "./sdk-tag.js";
import { saveViewportScreenshot } from "./screenshot.js";
import { matchSelectors, type ExperimentTarget } from "./selectors.js";
import { runSteps } from "./steps.js";
import { Signal } from "./signal.js";
import { interceptCollect, SiteRequestTagger, withQueryParam, type TrafficTags } from "./traffic.js";

/** What to gather for one page on one viewport. */
export interface PageGatherOptions {
  spec: string;
  environment: string;
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
  /** The tagger of the browser the worker owns; null to tag through a session on the page (a remote browser). */
  browserTagger: SiteRequestTagger | null;
  /** How long one journey step may take (default 15 s). */
  stepTimeoutMs?: number;
  /** Where to save the screenshot (absolute) and how to name it in the artifacts; null for none. */
  screenshot: { path: string; name: string } | null;
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
  const changed = new Signal();
  const calls: CapturedCall[] = [];
  const missingGlobalReads: { at: number; url: string; stack: string }[] = [];
  let sdkReadyAt: number | null = null;

  await context.exposeBinding(BINDING, (_source, message: RecorderMessage) => {
    if (message.type === "sdk-ready") sdkReadyAt ??= message.at;
    if (message.type === "missing-global") missingGlobalReads.push(message);
    if (message.type === "call") calls.push(toCall(message, sinceStart));
    changed.notify();
  });
  await context.addInitScript(installRecorder, {
    binding: BINDING,
    global: options.sdk.global,
    trackMethod: options.sdk.track,
    identifyMethod: options.sdk.identify,
    scriptPattern: globToRegExpSource(options.sdk.script),
  });
  // Bindings and init scripts go to the context before its page exists: the page then starts
  // with them, instead of each being a round trip to a renderer that is still starting.
  const page = await context.newPage();
  const network = new NetworkCapture(context, options.sdk, options.projectKeys, sinceStart, () => changed.notify(), options.traffic.collect === "intercept");
  const { header } = options.traffic;
  options.browserTagger?.tagFor(header, options.siteDomain);
  // Attaching a session to a page costs a round trip to a browser that is busy starting it: one
  // session serves both the screenshot and, in a remote browser, the traffic header.
  const tagsInPage = header !== null && options.browserTagger === null;
  const cdp = tagsInPage || options.screenshot ? await context.newCDPSession(page) : null;
  if (cdp && tagsInPage) await SiteRequestTagger.tagPage(cdp, header, options.siteDomain);
  if (options.traffic.collect === "intercept") await interceptCollect(context, network.isCollectUrl);
  const canaries = new CanaryWatch(context, options.canaries, (url) => isOnDomain(url.href, options.siteDomain), (url) => network.isCollectUrl(url) || network.isSdkUrl(url));
  const errors: PageArtifacts["errors"] = [];
  page.on("pageerror", (error) => errors.push({ kind: "exception", message: error.message }));
  page.on("console", (message) => {
    // A collect request the collector refused is judged by events.delivered, not as a page error.
    if (message.type() === "error" && !network.isCollectUrl(message.location().url)) {
      errors.push({ kind: "console", message: message.text() });
    }
  });
  const navigations: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url());
  });

  const requestedUrl = withQueryParam(new URL(options.page.path, options.baseUrl).href, options.traffic.queryParam);
  let loadError: string | null = null;
  let documentStatus: number | null = null;
  try {
    const response = await page.goto(requestedUrl, { waitUntil: "load", timeout: NAVIGATION_TIMEOUT_MS });
    documentStatus = response?.status() ?? null;
    if (documentStatus !== null && documentStatus >= 400) loadError = `the server answered HTTP ${documentStatus}`;
  } catch (error) {
    loadError = firstLine(error);
  }

  let stepError: PageArtifacts["stepError"] = null;
  let sdkTag: Promise<SdkTagFacts> = Promise.resolve({ sdkTagKey: null, sightings: [] });
  let navigationsBeforeTagRead = 0;
  if (loadError === null) {
    // A visitor needs longer than the audit to act: a journey starts once the SDK is ready, or
    // once no SDK script is left that could make it so, so that the calls the journey triggers
    // are judged on the page's setup, not on how fast the audit clicks.
    const sdkMayBecomeReady = () => network.sdkScripts.some((load) => load.failure === null && (load.status === null || load.status < 400));
    if (options.page.steps.length > 0) await changed.waitFor(() => sdkReadyAt !== null || !sdkMayBecomeReady(), options.sdk.deliveryTimeoutMs);
    stepError = await runSteps(page, options.page.steps, {
      baseUrl: options.baseUrl,
      timeoutMs: options.stepTimeoutMs ?? 15_000,
      hasCall: (name) => calls.some((call) => call.name === name),
      changed,
    });
    // Batched SDKs deliver late: wait, event-driven and bounded, until the SDK is ready and the
    // expected calls were made, then until every call's request has an answer. The SDK's tag is
    // read in between, while the delivery is under way.
    const expected = options.page.expect;
    const expectedCallsMade = () =>
      sdkReadyAt !== null &&
      (expected?.track ?? []).every((name) => calls.some((call) => call.kind === "track" && call.name === name)) &&
      (!expected?.identify || calls.some((call) => call.kind === "identify"));
    const deadline = Date.now() + options.sdk.deliveryTimeoutMs;
    await changed.waitFor(expectedCallsMade, options.sdk.deliveryTimeoutMs);
    navigationsBeforeTagRead = navigations.length;
    sdkTag = readSdkTag(page, options.sdk, options.projectKeys);
    await changed.waitFor(() => expectedCallsMade() && deliverySettled(calls, network.collect), Math.max(0, deadline - Date.now()));
  }

  const selectors = loadError === null ? await matchSelectors(page, options.experiments) : [];
  let screenshot: string | null = null;
  if (cdp && options.screenshot && loadError === null) {
    const { path, name } = options.screenshot;
    await saveViewportScreenshot(cdp, path).then(
      () => (screenshot = name),
      () => undefined,
    );
  }

  const lost = await recoverLostCalls(context, missingGlobalReads, options.sdk, sinceStart);
  let sdkFacts = await sdkTag;
  // A page that moved on while its tag was read is read again where it ended.
  if (loadError === null && navigations.length !== navigationsBeforeTagRead) sdkFacts = await readSdkTag(page, options.sdk, options.projectKeys);
  return {
    spec: options.spec,
    environment: options.environment,
    page: options.page.id,
    viewport: options.viewport,
    mobile: options.mobile,
    browser: browserName(context),
    requestedUrl,
    finalUrl: loadError === null ? page.url() : null,
    navigations,
    loadError,
    documentStatus,
    stepError,
    sdkScripts: network.sdkScripts,
    sdkReadyAtMs: sdkReadyAt === null ? null : sinceStart(sdkReadyAt),
    sdkTagKey: sdkFacts.sdkTagKey,
    keySightings: uniqueSightings([...sdkFacts.sightings, ...network.keySightings]),
    selectors,
    canarySightings: await canaries.settled(),
    calls: [...calls, ...lost].sort((a, b) => a.atMs - b.atMs),
    collect: network.collect,
    errors,
    screenshot,
    durationMs: Date.now() - startedAt,
  };
}

/** The browser as Playwright knows it, type and version (`Chromium 156.0.7339.80`), whether launched here or behind a browser server. */
function browserName(context: BrowserContext): string | null {
  const browser = context.browser();
  if (!browser) return null;
  const name = browser.browserType().name();
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} ${browser.version()}`;
}

function toCall(message: Extract<RecorderMessage, { type: "call" }>, sinceStart: (at: number) => number): CapturedCall {
  const [first, second] = message.args;
  return {
    kind: message.kind,
    name: typeof first === "string" ? first : null,
    properties: second ?? null,
    atMs: sinceStart(message.at),
    state: message.state,
    documentUrl: message.url,
  };
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

