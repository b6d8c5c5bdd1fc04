import { segment } from "./segment.js";
import type { Vendor } from "./vendor.js";

/** RudderStack (v3 and v1.1): Segment's event shape, stamped `originalTimestamp`. */
export const rudderstack: Vendor = {
  preset: {
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
    holdsWhileOffline: false,
  },
  // Segment's event shape, stamped when it was made by `originalTimestamp`.
  payload: { ...segment.payload, madeAtIso: ["originalTimestamp"] },
};
