import type { Vendor } from "./vendor.js";

/** Segment's analytics.js (analytics-next): one event per request (`type`, `event`, `traits`, `userId`), or batches. */
export const segment: Vendor = {
  preset: {
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
    // Every install holds its calls while navigator.onLine is false, and sends them on `online`.
    holdsWhileOffline: true,
  },
  payload: {
    type: ["type"],
    pageViewType: "page",
    name: ["event"],
    properties: ["properties"],
    attributes: ["traits", "context.traits"],
    userId: ["userId"],
    identifyEvents: [],
    pageUrl: ["properties.url", "context.page.url"],
    madeAtIso: ["timestamp"],
    madeAtNumber: [],
    messageId: ["messageId"],
    ownEvents: null,
    libraryKeys: null,
  },
};
