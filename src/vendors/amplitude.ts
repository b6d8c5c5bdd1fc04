import { isRecord } from "../text/parse-json.js";
import type { Vendor } from "./vendor.js";

/** Amplitude Browser SDK 2: batches of `event_type`/`event_properties`, identifies as `$identify` with `user_properties.$set`. */
export const amplitude: Vendor = {
  preset: {
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
    // Holds its calls while navigator.onLine is false, unless `offline: null` is given to init.
    holdsWhileOffline: true,
  },
  payload: {
    type: [],
    pageViewType: null,
    name: ["event_type"],
    properties: ["event_properties"],
    attributes: ["user_properties.$set"],
    userId: ["user_id"],
    identifyEvents: ["$identify"],
    pageUrl: ["event_properties.[Amplitude] Page URL"],
    madeAtIso: [],
    madeAtNumber: ["time"],
    messageId: ["insert_id"],
    // [Amplitude] Page Viewed and the other autocapture events, and its session events.
    ownEvents: /^\[Amplitude\] |^session_(start|end)$/,
    libraryKeys: null,
    // Web attribution: an `$identify` it sends by itself, setting once the campaign's `initial_*` keys.
    ownIdentify: (event) => {
      const userProperties = event.user_properties;
      const once = isRecord(userProperties) ? userProperties.$setOnce : undefined;
      return isRecord(once) && "initial_referrer" in once;
    },
  },
};
