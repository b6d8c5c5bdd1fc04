import type { Vendor } from "./vendor.js";

/** Mixpanel (mixpanel-browser): batched tracks whose properties carry the library's own keys, and engage updates (`$set`, `$distinct_id`). */
export const mixpanel: Vendor = {
  preset: {
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
    holdsWhileOffline: false,
  },
  payload: {
    type: [],
    pageViewType: null,
    name: ["event"],
    properties: ["properties"],
    // An engage update sets people's attributes at its top level.
    attributes: ["$set"],
    userId: ["$distinct_id", "properties.distinct_id"],
    identifyEvents: ["$identify"],
    pageUrl: ["properties.$current_url"],
    madeAtIso: [],
    // Seconds.
    madeAtNumber: ["properties.time"],
    messageId: ["properties.$insert_id"],
    // $mp_web_page_view, $identify…, and the mp_… it sends by itself.
    ownEvents: /^(\$|mp_)/,
    libraryKeys: /^(\$|mp_)|^(token|distinct_id|time)$/,
  },
};
