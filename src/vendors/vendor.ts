/**
 * What the audit knows of one vendor's SDK, in one place: its preset (what `sdk.preset` fills in)
 * and the shape of the events its collect requests carry (what the audit reads back from them).
 * The facts behind both are measured on the vendor's own bundle (docs/real-sdks.md).
 */
export interface Vendor {
  preset: SdkPreset;
  payload: PayloadShape;
}

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
  /** Whether the SDK holds every call while the browser reports itself offline (`navigator.onLine` false), measured on the vendor's bundle. */
  holdsWhileOffline: boolean;
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

/**
 * Where one collected event of the vendor's keeps what the audit reads: dotted paths into the event
 * object (`context.page.url`), each list in the order its paths are tried.
 */
export interface PayloadShape {
  /** The event's type: `track`, `identify`, `page`… */
  type: readonly string[];
  /** The type that marks a page view; null when a page view is a named event (`sdk.pageEvent`). */
  pageViewType: string | null;
  /** The event's name: a track's, or a named page view's. */
  name: readonly string[];
  /** The properties the page gave a track. */
  properties: readonly string[];
  /** The attributes an identify sets. */
  attributes: readonly string[];
  /** The user id an identify names. */
  userId: readonly string[];
  /** Event names that mean an identify. */
  identifyEvents: readonly string[];
  /** The URL of the page the event was made on. */
  pageUrl: readonly string[];
  /** When the event was made, as an ISO 8601 string. */
  madeAtIso: readonly string[];
  /** When the event was made, as a number: milliseconds, or seconds (read as such below 1e11). */
  madeAtNumber: readonly string[];
  /** The id the SDK gives one message, which its retries repeat. */
  messageId: readonly string[];
  /** The names of the events the SDK sends by itself; null when it sends none. */
  ownEvents: RegExp | null;
  /** The keys the vendor's library adds to every event's properties, which then carry `$lib_version`; null when it adds none. */
  libraryKeys: RegExp | null;
  /** An identify the SDK sends by itself (attribution); absent when it sends none. */
  ownIdentify?: (event: Record<string, unknown>) => boolean;
}
