import type { Vendor } from "./vendor.js";

/** PostHog (posthog-js): batched `capture`s (`event`, `properties`, `$set`), its own `$…` events beside the page's. */
export const posthog: Vendor = {
  preset: {
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
    holdsWhileOffline: false,
  },
  payload: {
    type: [],
    pageViewType: null,
    name: ["event"],
    properties: ["properties"],
    attributes: ["$set", "properties.$set"],
    userId: ["distinct_id", "properties.distinct_id"],
    identifyEvents: ["$identify"],
    pageUrl: ["properties.$current_url"],
    madeAtIso: ["timestamp"],
    madeAtNumber: [],
    messageId: ["uuid"],
    // $pageview, $pageleave, $autocapture, $web_vitals, $feature_flag_called, $set…
    ownEvents: /^\$/,
    libraryKeys: /^\$|^(token|distinct_id)$/,
  },
};
