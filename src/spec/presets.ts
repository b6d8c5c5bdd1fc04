/**
 * The vendors' SDKs as `sdk.preset` names them: where their scripts and collectors live in the
 * real world (CDN and API hosts, npm and UMD builds), their global, their methods and how long
 * their batching may hold a call. A field the spec gives beside `preset` overrides the preset's.
 * The facts behind these values are measured on the vendors' own bundles (REAL-SDKS.md).
 */

/** The vendors a spec may name in `sdk.preset`. */
export const PRESET_NAMES = ["segment", "mixpanel", "posthog", "rudderstack"] as const;

/** A vendor's name as `sdk.preset` takes it. */
export type PresetName = (typeof PRESET_NAMES)[number];

/** What a preset fills in. */
export interface SdkPreset {
  /** The vendor, as the README's table names it. */
  vendor: string;
  script: string;
  global: string;
  track: string[];
  identify: string[];
  init: string[];
  /** The ready expression with `{global}` standing for the configured global; null when the SDK signals readiness only through a callback. */
  ready: string | null;
  collect: string;
  deliveryTimeoutMs: number;
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
    ready: "{global}.initialized === true",
    // One event per request on /v1/{t,i,p,g,a}; batches on /v1/b or /v1/batch.
    collect: "**/v1/{t,i,p,g,a,b,batch}",
    deliveryTimeoutMs: 6000,
  },
  mixpanel: {
    vendor: "Mixpanel (mixpanel-browser)",
    script: "**/mixpanel*.js",
    global: "mixpanel",
    track: ["track"],
    // identify takes no traits: they travel through people.set.
    identify: ["identify", "people.set"],
    init: ["init"],
    ready: "Boolean({global}.__loaded)",
    collect: "**/{track,engage,groups}{/,}",
    // Batches by default, flushed by a 5 s timer started at init.
    deliveryTimeoutMs: 9000,
  },
  posthog: {
    vendor: "PostHog (posthog-js)",
    script: "**/{static/array*.js,posthog-js/dist/*.js}",
    global: "posthog",
    track: ["capture"],
    identify: ["identify"],
    init: ["init"],
    ready: "Boolean({global}.__loaded)",
    collect: "**/{e,i/v0/e,batch,capture}{/,}",
    // Queues capture and flushes every 3 s.
    deliveryTimeoutMs: 7000,
  },
  rudderstack: {
    vendor: "RudderStack (rudder-sdk-js)",
    script: "**/{rudder-analytics*.js,rsa*.js,rudder-sdk-js/dist/**/*.js}",
    global: "rudderanalytics",
    track: ["track"],
    identify: ["identify"],
    init: ["load"],
    // Readiness is signalled only through rudderanalytics.ready(callback).
    ready: null,
    collect: "**/v1/{track,identify,page,screen,group,alias,batch}",
    deliveryTimeoutMs: 6000,
  },
};

/** A preset's ready expression for the configured global; null when it has none. */
export function presetReady(preset: SdkPreset, global: string): string | null {
  return preset.ready?.replaceAll("{global}", global) ?? null;
}
