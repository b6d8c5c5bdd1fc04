/**
 * The vendors' SDKs as `sdk.preset` names them: where their scripts and collectors live in the
 * real world (CDN and API hosts, npm and UMD builds), their global, their methods and how long
 * their batching may hold a call. A field the spec gives beside `preset` overrides the preset's.
 * The facts behind these values are measured on the vendors' own bundles (docs/real-sdks.md).
 */

/** The vendors a spec may name in `sdk.preset`. */
export const PRESET_NAMES = ["segment", "mixpanel", "posthog", "rudderstack", "amplitude"] as const;

/** A vendor's name as `sdk.preset` takes it. */
export type PresetName = (typeof PRESET_NAMES)[number];

/** What a preset fills in. */
export interface SdkPreset {
  /** The vendor and its SDK's package, as the spec init drafts names them. */
  vendor: string;
  script: string;
  global: string;
  track: string[];
  identify: string[];
  init: string[];
  /** Where an identify-kind call's argument keeps its attributes when it is a builder; null when they are the argument itself. */
  traits: string | null;
  /** Where a track-kind call's argument keeps its properties when it is an event object; null when the SDK takes track(name, properties) only. */
  properties: string | null;
  /** The ready expression with `{global}` standing for the configured global; null when the SDK signals readiness only through a callback. */
  ready: string | null;
  collect: string;
  deliveryTimeoutMs: number;
  /** Where the SDK's script URL carries the key (its first group), for `init`; null when it does not. */
  scriptKey: RegExp | null;
  /**
   * Globs of the cookie, localStorage and sessionStorage names the SDK writes, measured on the
   * vendor's bundle (docs/presets.md): what consent.before and consent.reject look for. Its own
   * consent records (`__mp_opt_in_out_*`, `__ph_opt_in_out_*`) and its probes are left out.
   */
  storage: string[];
  /** Method paths whose calls are page views. */
  page: string[];
  /** A track name that means a page view; null when the SDK has none. */
  pageEvent: string | null;
  /** How the SDK drops calls it takes for a bot's, measured on the vendor's bundle; null when it drops none. */
  botFilter: BotFilter | null;
}

/** What an SDK's bot filter reads, and the setting that turns it off. */
export interface BotFilter {
  /** It takes a browser whose `navigator.webdriver` is true for a bot. */
  webdriver: boolean;
  /** Parts of a user agent (lower case) it takes for a bot's. */
  userAgent: string[];
  /** The setting that keeps the calls, as its docs name it; null when none does. */
  setting: string | null;
}

export const PRESETS: Record<PresetName, SdkPreset> = {
  segment: {
    vendor: "Segment (analytics.js / analytics-next)",
    // The CDN path carries the write key; npm and UMD builds (and their lazy chunks) live under analytics-next.
    script: "**/{analytics.js/v1/*/analytics*.js,analytics-next/**/*.js}",
    global: "analytics",
    track: ["track"],
    identify: ["identify"],
    init: ["load"],
    traits: null,
    properties: null,
    // The snippet's global becomes the Analytics instance; the npm wrapper on window
    // (`AnalyticsBrowser.load(…)`) buffers calls until its `instance` has loaded.
    ready: "{global}.initialized === true || {global}.instance?.initialized === true",
    // One event per request on /v1/{t,i,p,g,a}; batches on /v1/b or /v1/batch.
    collect: "**/v1/{t,i,p,g,a,b,batch}",
    deliveryTimeoutMs: 6000,
    scriptKey: /\/analytics\.js\/v1\/([^/]+)\//,
    // ajs_anonymous_id (cookie and localStorage) at init, ajs_user_id and ajs_user_traits on identify;
    // the persisted queue holds events it could not send yet.
    storage: ["ajs_*", "persisted-queue:v1:*"],
    page: ["page"],
    pageEvent: null,
    botFilter: null,
  },
  mixpanel: {
    vendor: "Mixpanel (mixpanel-browser)",
    script: "**/mixpanel*.js",
    global: "mixpanel",
    track: ["track"],
    // identify takes no traits: they travel through people.set.
    identify: ["identify", "people.set"],
    init: ["init"],
    traits: null,
    properties: null,
    ready: "Boolean({global}.__loaded)",
    collect: "**/{track,engage,groups}{/,}",
    // Batches by default, flushed by a 5 s timer started at init.
    deliveryTimeoutMs: 9000,
    scriptKey: null,
    // mp_<token>_mixpanel (cookie or localStorage), the tab ids in sessionStorage, the batch queues.
    storage: ["mp_*", "__mpq_*"],
    // Its list of crawlers' user agents (BLOCKED_UA_STRS): every call is dropped, and no setting turns that off.
    page: ["track_pageview"],
    pageEvent: "$mp_web_page_view",
    botFilter: {
      webdriver: false,
      userAgent: [
        "ahrefsbot",
        "ahrefssiteaudit",
        "amazonbot",
        "baiduspider",
        "bingbot",
        "bingpreview",
        "chrome-lighthouse",
        "facebookexternal",
        "petalbot",
        "pinterest",
        "screaming frog",
        "yahoo! slurp",
        "yandex",
        "adsbot-google",
        "apis-google",
        "duplexweb-google",
        "feedfetcher-google",
        "google favicon",
        "google web preview",
        "google-read-aloud",
        "googlebot",
        "googleweblight",
        "mediapartners-google",
        "storebot-google",
      ],
      setting: null,
    },
  },
  posthog: {
    vendor: "PostHog (posthog-js)",
    script: "**/{static/array*.js,posthog-js/dist/*.js}",
    global: "posthog",
    track: ["capture"],
    identify: ["identify"],
    init: ["init"],
    traits: null,
    properties: null,
    ready: "Boolean({global}.__loaded)",
    collect: "**/{e,i/v0/e,batch,capture}{/,}",
    // Queues capture and flushes every 3 s.
    deliveryTimeoutMs: 7000,
    scriptKey: null,
    // ph_<token>_posthog (cookie and localStorage) and its sessionStorage keys.
    storage: ["ph_*_posthog", "ph_*_window_id", "ph_*_primary_window_exists", "ph_*_session_registered_properties"],
    // On by default: every capture is dropped (a console warning says so once). Its list names
    // some 80 crawlers; these are its generic parts, which an automated browser's user agent may carry.
    page: [],
    pageEvent: "$pageview",
    botFilter: {
      webdriver: true,
      userAgent: [
        "headlesschrome",
        "bot/",
        "(bot;",
        "bot.htm",
        "bot.php",
        "crawler",
        "cypress",
        "lightpanda",
        "prerender",
        "chrome-lighthouse",
      ],
      setting: "`opt_out_useragent_filter: true` in `posthog.init`",
    },
  },
  rudderstack: {
    vendor: "RudderStack (v3 @rudderstack/analytics-js, v1.1 rudder-sdk-js)",
    // v3's CDN build (`/v3/modern/rsa.min.js`), v1.1's, and both npm packages' builds.
    script: "**/{rudder-analytics*.js,rsa*.js,rudder-sdk-js/dist/**/*.js,analytics-js/dist/**/*js}",
    global: "rudderanalytics",
    track: ["track"],
    identify: ["identify"],
    init: ["load"],
    traits: null,
    properties: null,
    // Both versions take calls once their object replaces the snippet's array (v3's npm build
    // assigns it from `new RudderAnalytics()`, whatever script holds it); ready(callback) comes later.
    ready: '!Array.isArray({global}) && typeof {global}.track === "function"',
    collect: "**/v1/{track,identify,page,screen,group,alias,batch}",
    deliveryTimeoutMs: 6000,
    scriptKey: null,
    // rl_* cookies (both versions), v1.1's rudder.<uuid>.* and v3's rudder_<writeKey>.* queues.
    storage: ["rl_*", "rudder.*", "rudder_*"],
    page: ["page"],
    pageEvent: null,
    botFilter: null,
  },
  amplitude: {
    vendor: "Amplitude (Browser SDK 2, @amplitude/analytics-browser)",
    // The CDN file (`/libs/analytics-browser-2.x.y-min.js.gz`) and the npm package's scripts.
    script: "**/{analytics-browser-*.js,analytics-browser-*.js.gz,analytics-browser/lib/scripts/*.js}",
    global: "amplitude",
    track: ["track"],
    identify: ["identify"],
    init: ["init"],
    // identify takes an Identify builder: `new amplitude.Identify().set("plan", "pro")`.
    traits: "_properties.$set",
    // track also takes an event object: `amplitude.track({ event_type, event_properties })`.
    properties: "event_properties",
    // The snippet's stub is an object with the same methods; only the SDK has runQueuedFunctions.
    ready: 'typeof {global}.runQueuedFunctions === "function"',
    // Batches up to 30 events or 1 s (flushIntervalMillis) on /2/httpapi; /batch for the batch API.
    collect: "**/{2/httpapi,batch}",
    deliveryTimeoutMs: 6000,
    scriptKey: null,
    // AMP_<first 10 characters of the key> (cookie) and AMP_unsent_<…> (its send queue).
    storage: ["AMP_*"],
    page: [],
    pageEvent: "[Amplitude] Page Viewed",
    botFilter: null,
  },
};

/** A preset's ready expression for the configured global; null when it has none. */
export function presetReady(preset: SdkPreset, global: string): string | null {
  return preset.ready?.replaceAll("{global}", global) ?? null;
}
