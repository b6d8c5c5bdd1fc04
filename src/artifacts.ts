/**
 * The artifacts: plain data gathered from the browser and the API, and the only input of the
 * checks. Gathering never judges; checks never gather.
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

/** One `track` or `identify` call made by the page. */
export interface CapturedCall {
  kind: "track" | "identify";
  /** Event name for `track`; user id (or null) for `identify`; null when it could not be recovered. */
  name: string | null;
  /** The second argument as the page passed it: properties of `track`, attributes of `identify`. */
  properties: unknown;
  /** Milliseconds since the page test started. */
  atMs: number;
  state: CallState;
  /** URL of the document that made the call. */
  documentUrl: string;
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
  /** `script-tag` (an attribute or query parameter of the SDK's script tag), `sdk-global` (a property of the SDK global) or `collect` (a collect request's URL or body). */
  where: "script-tag" | "sdk-global" | "collect";
  /** The URL or property the key was seen in. */
  detail: string;
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

/** Everything gathered for one page on one viewport. */
export interface PageArtifacts {
  spec: string;
  environment: string;
  page: string;
  viewport: string;
  /** True when the viewport is a mobile one (touch, small screen). */
  mobile: boolean;
  /** The URL requested first and the URL reached after redirects and journey steps. */
  requestedUrl: string;
  finalUrl: string | null;
  /** Every top-level document URL the page went through, in order. */
  navigations: string[];
  /** Why the page could not be loaded (network error, HTTP status, timeout); null when it loaded. */
  loadError: string | null;
  /** HTTP status of the main document. */
  documentStatus: number | null;
  /** A journey step that failed, with the reason. */
  stepError: { step: number; message: string } | null;
  sdkScripts: SdkScriptLoad[];
  /** Milliseconds since the test started when the real SDK global was first defined; null if never. */
  sdkReadyAtMs: number | null;
  calls: CapturedCall[];
  collect: CollectRequest[];
  /** The key the SDK script tag declares (an attribute or query parameter named like a key); null when none. */
  sdkTagKey: string | null;
  /** Every sighting of any of the spec's environment keys. */
  keySightings: KeySighting[];
  /** The selectors of experiments that target this page. */
  selectors: SelectorMatch[];
  canarySightings: CanarySighting[];
  /** Uncaught exceptions and console errors. */
  errors: { kind: "exception" | "console"; message: string }[];
  /** Screenshot file, relative to the output directory; null when none was taken. */
  screenshot: string | null;
  durationMs: number;
}
