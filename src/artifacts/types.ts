import type { PersonalDataHit } from "../privacy/personal-data.js";

/**
 * The artifacts: plain data gathered from the browser and the API, which the checks judge
 * beside the spec and the plan (and, when a run has them, an exported report file and a
 * baseline: checks/check.ts's AuditContext). Gathering never judges; checks never gather.
 */

/** How the SDK global looked when a call was made. */
export type CallState =
  /** The real SDK was defined: the call went straight to it. */
  | "direct"
  /** Only a stub snippet was defined: the call was queued for the SDK to drain later. */
  | "queued"
  /** The global did not exist: the call threw and was lost. */
  | "lost";

/** What happened to a call after it was made. */
export type Delivery = "accepted" | "rejected" | "dropped" | "intercepted";

/** One `track`, `identify` or page-view call made by the page (or, for a page view, by the SDK itself). */
export interface CapturedCall {
  /** `page`: a page view, an `sdk.page` call or a track named `sdk.pageEvent`, whoever made it. */
  kind: "track" | "identify" | "page";
  /** The method path the page called, as the spec names it (`track`, `capture`, `people.set`). */
  method: string;
  /** Event name for `track`; user id (or null) for `identify`; null when it could not be recovered. */
  name: string | null;
  /** Properties of `track` (its second argument, or with `sdk.properties` the object at that path in its event object); attributes of `identify` (its first object argument, or with `sdk.traits` the object at that path in it). */
  properties: unknown;
  /** Milliseconds since the page test started. */
  atMs: number;
  state: CallState;
  /** URL of the document that made the call. */
  documentUrl: string;
  /** The 0-based index of the journey step during which the call was made; null before the first step; absent in artifacts saved before steps were noted. */
  step?: number | null;
  /** The route current when the call was made: the document's path and query, and a hash router's route after them (src/url/route.ts); absent in artifacts saved before routes were noted. */
  route?: string;
  /** On a page view: the URL its payload records, where the vendor records one; null when it records none, or the page view was never sent. */
  pageUrl?: string | null;
  /** `sdk` on a page view the SDK made on its own (PostHog's on a history change), read from the collect request that carried it: no call on the global made it. */
  madeBy?: "sdk";
  /**
   * `network` on a call read from the collect request that carried it, at that request's time: a call
   * made outside the watched global (on the SDK's own instance, by an npm install without a global),
   * or any call of an SDK the audit could not watch (`callsFromNetwork`). Absent on a call watched on
   * the global, and on every call of artifacts saved before it was noted.
   */
  seenOn?: "network";
  /**
   * Only in saved artifacts, on a call the audit's own secrets were redacted from: the personal data
   * found in its name and properties before (every key, none exempt), so that identify.pii judges
   * what the page sent, not the redaction mark.
   */
  personalData?: PersonalDataHit[];
  /** `experiment` on a call made through the experimentation SDK's track methods (`experimentSdk.calls`); absent on the analytics SDK's. */
  sdk?: "experiment";
  /** The experimentation SDK's reason for not sending the call (Optimizely's `Event key … is not in datafile.`); absent when it did not refuse it. */
  refused?: string;
}

/** One request to the collector, decoded. */
export interface CollectRequest {
  url: string;
  method: string;
  /** Milliseconds since the page test started. */
  atMs: number;
  /** HTTP status of the answer; null when the request failed or got no answer. */
  status: number | null;
  /** Network error text when the request failed. */
  failure: string | null;
  /** The events the body carried, decoded from any of the supported encodings. */
  events: DeliveredEvent[];
  /** Why the body could not be decoded, when it could not. */
  decodeError: string | null;
  /** True when the audit answered the request inside the browser (`traffic.collect: intercept`): it never reached the service. */
  intercepted: boolean;
}

/** One event found in a collect payload. */
export interface DeliveredEvent {
  /** Every string value found in the event object (names, ids, attribute values). */
  strings: string[];
  /** The raw event object, as decoded. */
  raw: unknown;
}

/** The SDK script as the network saw it. */
export interface SdkScriptLoad {
  url: string;
  status: number | null;
  failure: string | null;
  /** Milliseconds since the page test started. */
  atMs: number;
}

/** Where a project key was seen on the page. */
export interface KeySighting {
  key: string;
  /**
   * `script-url` (the SDK script's URL, path or query), `script-tag` (a key-shaped attribute of the
   * SDK's script tag), `init` (the first string argument of an `sdk.init` method), `sdk-global` (a
   * property of the SDK global), `collect` (a collect request's URL or payload) or `header` (a
   * collect request's header, Basic auth decoded).
   */
  where: "script-url" | "script-tag" | "init" | "sdk-global" | "collect" | "header";
  /** The URL or property the key was seen in. */
  detail: string;
}

/** An uncaught exception or a console error of the page. */
export interface PageError {
  kind: "exception" | "console";
  message: string;
  /** The request's URL, as the page asked for it, when the console error reports a failed request (a 404, a refused connection); absent otherwise. */
  url?: string;
}

/** How an experiment's selector matched on the page. */
export interface SelectorMatch {
  experiment: string;
  selector: string;
  /** Elements the selector matched; null when it is not valid CSS. */
  matched: number | null;
  visible: number;
  /** A stabler selector built from the first visible match (its id or a data-* attribute), if it has one. */
  stableAlternative: string | null;
}

/** An element as it shows: what experiment.variation compares between the control and a variation. */
export interface TargetElement {
  /** Its rendered text, whitespace collapsed. */
  text: string;
  attributes: Readonly<Record<string, string>>;
  /** Every computed longhand (evidence: which of them change pixels is judged on the pixels). */
  style: Readonly<Record<string, string>>;
  /** Its box in CSS pixels, relative to the first screen (the page is not scrolled yet). */
  box: { x: number; y: number; width: number; height: number };
  /** Its pixels as the screen shows them, animations held; null when none of it is on the first screen; absent in artifacts saved before pixels were kept. */
  pixels?: TargetPixels | null;
}

/** The device pixels of a target's box on the first screen, as one PNG straight from Chromium. */
export interface TargetPixels {
  /** SHA-256 of the PNG: equal renders give byte-identical PNGs, across contexts too. */
  sha256: string;
  /** The clip, in CSS pixels of the page: whole pixels around the box, cut to the first screen. */
  clip: { x: number; y: number; width: number; height: number };
  /** Whether a second capture a moment later gave the same PNG: false for a target that changes by itself (an animation that cannot be held, a blinking caret, a ticker). */
  steady: boolean;
  /**
   * The PNG in coarse cells, to compare a target that moved (the same target drawn elsewhere may
   * differ in a few edge pixels): the mean RGB of each square of 8 CSS pixels of the clip, row by
   * row, as base64 bytes. Absent in artifacts saved before it was kept, or when the PNG could not be read.
   */
  cells?: { columns: number; rows: number; means: string };
}

/**
 * An experiment's target right after a variation was applied, before the journey; on the page
 * itself (the control), at the same moment with nothing applied.
 */
export interface ExperimentView {
  experiment: string;
  /** Milliseconds since the page test started: the calls made after it are the journey's. */
  atMs: number;
  /** Elements the selector matched; null when it is not valid CSS. */
  matched: number | null;
  visible: number;
  /** The first visible match; null when none is visible. */
  target: TargetElement | null;
  /** Whether the document was wider than the viewport (its scroll width over its client width). */
  overflows: boolean;
  /** The first screen at that moment, relative to the output folder; null when screenshots are off or it failed. */
  screen: string | null;
}

/** The variation a unit previewed, and what its code threw. */
export interface AppliedVariation {
  experiment: string;
  name: string;
  /** True on the experiment's control forced by its `control.query` (named `control`): what the variations are compared with. */
  control?: true;
  /** What the variation's js threw, then or later, with its line in that code when known. */
  errors: { message: string; line: number | null }[];
}

/** A canary value (a journey `fill` marked canary) found in outgoing traffic. */
export interface CanarySighting {
  /** The page spec's step index of the canary fill. */
  step: number;
  host: string;
  /** Where in the request: its URL, its body or its cookies. */
  where: "url" | "body" | "cookie";
  /** The form the value travelled in. */
  form: "plain" | "url-encoded" | "base64" | "md5" | "sha256";
}

/** A viewport's login journey (`auth.login`), walked once before its pages, as it went. */
export interface LoginOutcome {
  /** The login page's URL: `auth.login.path` on the base URL. */
  requestedUrl: string;
  /** HTTP status of the login page; null when it gave none. */
  documentStatus: number | null;
  /** Why the login page could not be loaded; null when it loaded. */
  loadError: string | null;
  /** The login step that failed, and why; the text it typed is never part of the message. */
  stepError: { step: number; message: string } | null;
  /** A host off the site's domain and `auth.login.hosts` the login was sent to, and stopped at; null when none. */
  blockedHost: string | null;
  /** Where the login ended, once its last step was done; null when the login page did not load. */
  finalUrl: string | null;
}

/** How a closed site let the audit in on one page × viewport: what page.access judges. */
export interface PageAccess {
  /** This viewport's login (`auth.login`), walked before its pages; null without one. */
  login: LoginOutcome | null;
  /** The URL the page landed on once loaded, after redirects and before its journey; null when it did not load or was not opened. */
  landedUrl: string | null;
  /** It landed on another path than it asked for, and a visible password field was there. */
  passwordField: boolean;
  /** The browser gave up on the site's HTTP authentication, having no credentials for it (net::ERR_INVALID_AUTH_CREDENTIALS). */
  authRefused: boolean;
}

/** One route the page showed: its first, or one a client-side route change led to. */
export interface RouteVisit {
  /** The route: the document's path and query (`/app/pricing?billing=annual`), and a hash router's route after them (`/app/#/pricing`). */
  route: string;
  /**
   * How the route became current: `load` (a document started with it), `push` (pushState, or a
   * navigation within the document), `back` or `forward` (a history traversal within the
   * document), or `replace` (replaceState changed the path or query: no route change, the same
   * visit under another name). A hash-only change is none of them.
   */
  how: "load" | "push" | "back" | "forward" | "replace";
  /** Milliseconds since the page test started. */
  atMs: number;
}

/** How the page saw its browser, read once it loaded: what an SDK's bot filter reads, and whether it believed it was online. */
export interface VisitorSignals {
  /** `navigator.webdriver`: true tells the page that the browser is automated. */
  webdriver: boolean;
  /** `navigator.userAgent`, the audit's suffix included. */
  userAgent: string;
  /**
   * `navigator.onLine`: false when the browser believes it has no network (Chromium on a machine
   * whose only interface is loopback); absent from artifacts saved before it was kept.
   */
  online?: boolean;
}

/** Which unit of the plan a page's artifacts are: the page as it is, a variation's preview, or a consent unit that refused (`reject`) or had Global Privacy Control on (`gpc`). */
export type UnitKind = "page" | "variation" | "reject" | "gpc";

/** Everything gathered for one page on one viewport. */
export interface PageArtifacts {
  spec: string;
  environment: string;
  /** The unit of the plan these are the artifacts of: its id (unique in the spec × environment) and its kind. */
  unit: { id: string; kind: UnitKind };
  page: string;
  viewport: string;
  /** True when the viewport is a mobile one (touch, small screen). */
  mobile: boolean;
  /** The browser that opened the page, as `Chromium 156.0.7339.80`; null when the page's audit never reported (it crashed or timed out). */
  browser: string | null;
  /** The URL requested first and the URL reached after redirects and journey steps. */
  requestedUrl: string;
  finalUrl: string | null;
  /** Every top-level document URL the page went through, in order. */
  navigations: string[];
  /** Why the page could not be loaded (network error, HTTP status, timeout); null when it loaded. */
  loadError: string | null;
  /** HTTP status of the main document. */
  documentStatus: number | null;
  /** How the page saw its browser once it loaded; null when it did not load (or could not be read); absent in artifacts saved before it was kept. */
  visitor?: VisitorSignals | null;
  /** A journey step that failed, with the reason. */
  stepError: { step: number; message: string } | null;
  /** How the site let the audit in (or kept it out). */
  access: PageAccess;
  sdkScripts: SdkScriptLoad[];
  /** Milliseconds since the test started when the SDK was first ready (docs/architecture.md, When the SDK is ready); null if never. */
  sdkReadyAtMs: number | null;
  /**
   * Why the SDK's methods could not be watched, when they could not: `calls` are then those the
   * collect requests carried. `frozen` and `redefined` name the method or global out of reach;
   * `no-global`: the global was never defined, yet collect requests carried events (an npm install
   * that keeps the SDK in its own scope).
   */
  callsFromNetwork: { reason: "frozen" | "redefined" | "no-global"; detail: string } | null;
  calls: CapturedCall[];
  collect: CollectRequest[];
  /** The key the SDK script tag declares (an attribute or query parameter named like a key); null when none. */
  sdkTagKey: string | null;
  /** Every sighting of any of the spec's environment keys, and where the page installs a key of none of them (its script tag, an init call). */
  keySightings: KeySighting[];
  /** The selectors of experiments that target this page. */
  selectors: SelectorMatch[];
  canarySightings: CanarySighting[];
  /** Uncaught exceptions and console errors. */
  errors: PageError[];
  /** Screenshot file, relative to the output directory; null when none was taken. */
  screenshot: string | null;
  /** The pictures of the unit not saved because their masks could not be placed (docs/closed-sites.md), and why; absent when none was. */
  picturesLeftOut?: PictureLeftOut[];
  /** The variation this unit previewed; null for the page as it is (every experiment's control). */
  variation: AppliedVariation | null;
  /** The targets of the experiments with variations, seen before the journey: each one's, on the page; the unit's own, on a variation. */
  experimentViews: ExperimentView[];
  /** What each rendered frame showed of the experiment's target from the first, and the filmstrip: on a variation forced by `query` alone (experiment.flicker); absent or null elsewhere. */
  flicker?: FlickerFrames | null;
  /** With the spec's `experimentSdk`: the clients it made and the flags they evaluated (experiment.assignment); null without it, absent in artifacts saved before it was recorded. */
  experimentSdk?: ExperimentSdkSeen | null;
  /** The page loaded once more in the same context, without a journey, for experiment.exposure (the visitor keeps their bucket); absent or null when no experiment of the page has an `exposure`, and on variations. */
  reload?: PageReload | null;
  durationMs: number;
  /** With the spec's `consent` section: the banner, its answer and what happened before it; absent without one. */
  consent?: ConsentArtifacts;
  /** Every route the page showed, in order (events.pageviews); null when the browser could not tell route changes; absent in artifacts saved before routes were noted. */
  routes?: RouteVisit[] | null;
}

/** What the experimentation SDK did on a page: the clients made, every evaluation of a flag by them, and every exposure it logged, in order. */
export interface ExperimentSdkSeen {
  inits: ExperimentSdkInit[];
  evaluations: FlagEvaluation[];
  /** The exposures the SDK logged to its own endpoint, read from its requests; absent for an SDK whose exposures the audit does not read, and in artifacts saved before they were read. */
  exposures?: SdkExposure[];
  /** The events the page tracked through the SDK (Statsig's `logEvent`, LaunchDarkly's and Optimizely's `track`), read from the same requests; absent for an SDK that is the analytics SDK too (PostHog: an identify merges the ids its events carry), and where `exposures` is. */
  tracked?: SdkTrackedEvent[];
  /** The exposures it logged after the page was loaded once more in the same context (`reload`), read as `exposures` are; absent when the page was not reloaded, or its exposures are not read. */
  reloadExposures?: SdkExposure[];
  /** The page's calls of the SDK's track methods, as calls (`sdk: "experiment"`), in order; present where `tracked` is, absent in artifacts saved before they were recorded. */
  calls?: CapturedCall[];
}

/** An event the page tracked through the experimentation SDK, as its request carried it. */
export interface SdkTrackedEvent {
  name: string;
  /** The visitor's id the SDK sent it for; null when it carries none. */
  visitor: string | null;
  /** When the SDK made it (else when its request left), since the page test started. */
  atMs: number;
  request: SdkExposure["request"];
}

/** One exposure the experimentation SDK logged: a visitor counted in a flag's variation, as its request carried it. */
export interface SdkExposure {
  flag: string;
  /** The variation it names; null when it names none the audit could read. */
  variation: string | null;
  /** The visitor's id the SDK logged it for (the user, context or distinct id); null when it carries none. */
  visitor: string | null;
  /** When the SDK made it, by its own timestamp (else when its request left), since the page test started. */
  atMs: number;
  /** The request that carried it: when it left, the HTTP status of its answer (null without one) and the browser's error when it failed. */
  request: { atMs: number; status: number | null; failure: string | null };
}

/**
 * The `method` of what was seen on the wire alone, for an SDK bundled with no global or registry: a
 * client made by its request for its values, or one the page gave its values (by its first request
 * with events), and an evaluation read from an exposure it logged.
 */
export const SEEN_ON_THE_WIRE = {
  init: "values request",
  bootstrapped: "events request",
  evaluation: "exposure",
} as const;

/** A client of the experimentation SDK made on the page (`new Statsig.StatsigClient(key, …)`). */
export interface ExperimentSdkInit {
  /** The constructor or factory, as a path from the global (`Statsig.StatsigClient`), the SDK's registry it was seen in (`__STATSIG__.instances`), or `values request` for a client seen on the wire alone (its request for its values), `events request` for one the page gave its values (its first request with events): SEEN_ON_THE_WIRE's. */
  method: string;
  /** Its first string argument: the key it was given; null when it was given none. */
  key: string | null;
  atMs: number;
  /** When its initialisation was over (it had its values, or gave up); null when it never was while the page was watched. */
  readyAtMs: number | null;
  /** How its request for its values failed (the browser's error: `net::ERR_ABORTED`), when it did: it gave up, with none. */
  valuesFailed?: string;
}

/** One evaluation of a flag (gate, experiment) by a client of the experimentation SDK. */
export interface FlagEvaluation {
  /** The client's method (`getExperiment`), the hook's stage where the SDK's hook does not name it (LaunchDarkly's `afterEvaluation`), or `exposure` for one read from an exposure a client seen on the wire alone logged. */
  method: string;
  /** The key it evaluated: its first argument. */
  flag: string;
  /** The variation (or group, or gate value) the result names, as a string; null when it names none. */
  variation: string | null;
  /** The SDK's reason for the result (`Network:Recognized`); null when it gives none. */
  reason: string | null;
  /** Whether the client that evaluated it had finished its initialisation then; absent from artifacts saved before it was recorded. */
  clientReady?: boolean;
  /** True when the value came from the values the page bootstrapped the SDK with, before the SDK had its own (PostHog's `$used_bootstrap_value`). */
  bootstrapped?: true;
  /** The rule that served it, where the SDK's exposures name the rule rather than the variation (Statsig's `ruleID`). */
  rule?: string;
  atMs: number;
}

/** A picture of a unit left out rather than saved with a secret in it. */
export interface PictureLeftOut {
  /** The page's screenshot, the first screen the views see (the side-by-side picture's), or the filmstrip. */
  picture: "screenshot" | "view" | "filmstrip";
  /** Why its masks could not be placed: "the field #coupon, which a step typed a secret or a canary into, was not on the page to be masked". */
  why: string;
}

/** Which consent unit a page × viewport is: the page (consent given), a refusal, or Global Privacy Control on (nothing answered). */
export type ConsentUnitKind = "page" | "reject" | "gpc";

/** A cookie or storage key, by name only (its value is never kept). */
export interface StoredName {
  where: "cookie" | "localStorage" | "sessionStorage";
  name: string;
}

/** A write of a name `sdk.storage` matches: set (added or changed) or removed. */
export interface StorageWrite extends StoredName {
  op: "set" | "remove";
  /** Milliseconds since the page test started. */
  atMs: number;
  /** The page's task that made the write, when the page's script made it: a set and a remove in one task are a probe. */
  task?: number;
}

/** A known third-party tracker, as the tracker database names it. */
export interface TrackerSeen {
  /** The tracker's name (`Facebook`, `Google Analytics`). */
  name: string;
  /** Its category in the database: `ad`, `analytics`, `social`, `marketing` or `customer-success`. */
  category: string;
}

/** A request the page sent before consent was given (documents, style sheets and fonts left out, unless a tracker's). */
export interface RequestSeen {
  url: string;
  method: string;
  /** Playwright's resource type: fetch, xhr, script, ping, image, … */
  resourceType: string;
  /** Milliseconds since the page test started. */
  atMs: number;
  /** The known third-party tracker the request reached, when it reached one. */
  tracker?: TrackerSeen;
}

/** A consent unit as it went (docs/consent.md): the banner, its answer, and what the page stored and sent around it. */
export interface ConsentArtifacts {
  unit: ConsentUnitKind;
  /** How the banner was to be answered: the rule library (`auto`), the spec's steps, or not at all (a GPC unit). */
  method: "auto" | "steps" | "none";
  /** How long the banner was waited for after the page's load (`consent.timeoutMs`). */
  timeoutMs: number;
  /** Milliseconds since the test started when the banner was there; null when it never was (or was not looked for). */
  bannerAtMs: number | null;
  /** The consent manager the rule library recognised, with or without a banner shown; null when none. */
  cmp: string | null;
  /** Milliseconds since the test started when consent was given or refused (the page had been quiet); null when it was not. */
  answeredAtMs: number | null;
  /** Why the banner, once there, could not be answered; null when it was, or when it never showed. */
  answerError: string | null;
  /** `navigator.webdriver` in the page: true tells a consent manager that hides from automated browsers that it is one. */
  webdriver: boolean | null;
  /** Every cookie and storage key present when the page was judged, just before the answer (at the end when there was none). */
  storedAtAnswer: StoredName[];
  /** Every cookie and storage key present when the unit ended. */
  storedAtEnd: StoredName[];
  /** Every write of a name `sdk.storage` matches, in order, even one removed since. */
  writes: StorageWrite[];
  /** The requests the page sent before the answer (every one, on a unit with no answer), but its documents, style sheets and fonts: at most 200, then only a tracker's first. */
  requestsBefore: RequestSeen[];
  /** How many requests `requestsBefore` left out once it held 200. */
  requestsLeftOut: number;
}

/**
 * The target frame by frame, on the page's own clock (milliseconds since navigation start), from
 * the first rendered frame until the target settled: what experiment.flicker measures.
 */
export interface FlickerFrames {
  /** One row per rendered frame: [when the frame was sampled, 1 when html or body was hidden (opacity 0 or visibility hidden) else 0, the index of the target's signature in `signatures`, or -1 when the selector matched nothing, -2 when the target was not visible]. */
  frames: [number, 0 | 1, number][];
  /** Each look of the target (its markup, every computed longhand and its box) the frames saw, as a SHA-1. */
  signatures: string[];
  /**
   * Each time the page was seen hidden or shown (html or body at opacity 0 or visibility hidden, or
   * no longer), in order: [when, 1 hidden or 0 shown], the first row the first look at it. Seen as the
   * page's own scripts and style sheets change it, before the first frame too, and at every frame:
   * the hidden time runs from when the page was hidden until it was shown, however late a busy
   * machine renders the first frame. Absent in artifacts saved before; the frames' own column then.
   */
  hiddenChanges?: [number, 0 | 1][];
  /** When the frames were read: the last frame lasts until then. */
  readAtMs: number;
  /** The sampler's own time on the page's main thread, in all. */
  costMs: number;
  /** When each document the page showed started (its navigation start), on the first one's clock: `[0]` for a page that stayed on one, more after a client-side redirect or a reload. Absent in artifacts saved before documents were followed. */
  documentStartsMs?: number[];
  /** When the first document's navigation started, in milliseconds since the page test started: the page's calls (`atMs`) minus this are on the frames' clock. Absent in artifacts saved before. */
  navigationStartMs?: number;
  /** A few frames of the screen from the first until the target settled (the first shown, the last before the variation, the first with it, the last), each with the target's area in its pixels. */
  filmstrip: FilmstripFrame[];
}

/** One frame of a filmstrip. */
export interface FilmstripFrame {
  /** When it was shown, on the page's clock. */
  atMs: number;
  /** The frame's PNG, relative to the output folder. */
  screen: string;
  /** The target's area (every look it had, with a margin) in the frame's pixels; null when the target never showed. */
  crop: { x: number; y: number; width: number; height: number } | null;
}

/** One reload of the page in the same browser context, once the page was done: what experiment.exposure reads of it. */
export interface PageReload {
  /** Milliseconds since the page test started when the reload was asked for: the page's own `calls` and `collect` all came before it. */
  atMs: number;
  /** Why the reload did not load; null when it did. */
  loadError: string | null;
  /** The calls the reloaded page made (not lost), as the page's own are recorded. */
  calls: CapturedCall[];
  /** The reloaded page's requests to the collector. */
  collect: CollectRequest[];
}

/**
 * The service's elements and report data, as the API schemas normalise them (api/schemas.ts,
 * api/service-report.ts): one typed shape whichever field names the service used.
 */
export type { ApiGoal, ApiProject, ApiRecentEvent } from "../api/schemas.js";
export type { ReportExperiment, ReportFile, ReportVariation, ReportWarning } from "../api/service-report.js";

/** What the API gatherer recorded (api/artifacts.ts): the exchanges with the service, and why one failed. */
export type { ApiArtifacts, ApiExchange, ApiFailure } from "../api/artifacts.js";
