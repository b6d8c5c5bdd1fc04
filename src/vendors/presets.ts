import { amplitude } from "./amplitude.js";
import { mixpanel } from "./mixpanel.js";
import { posthog } from "./posthog.js";
import { rudderstack } from "./rudderstack.js";
import { segment } from "./segment.js";
import type { SdkPreset, Vendor } from "./vendor.js";

/**
 * The vendors' SDKs as `sdk.preset` names them: where their scripts and collectors live in the
 * real world (CDN and API hosts, npm and UMD builds), their global, their methods and how long
 * their batching may hold a call, and the shape of the events they send. A field the spec gives
 * beside `preset` overrides the preset's. Each vendor is one module of this folder; this is the list.
 */
export const VENDORS = { segment, mixpanel, posthog, rudderstack, amplitude } satisfies Record<string, Vendor>;

/** A vendor's name as `sdk.preset` takes it. */
export type PresetName = keyof typeof VENDORS;

/** The vendors a spec may name in `sdk.preset`. */
export const PRESET_NAMES = Object.keys(VENDORS) as [PresetName, ...PresetName[]];

/** What each preset fills in. */
export const PRESETS = Object.fromEntries(PRESET_NAMES.map((name) => [name, VENDORS[name].preset])) as Record<
  PresetName,
  SdkPreset
>;

/** A preset's ready expression for the configured global; null when it has none. */
export function presetReady(preset: SdkPreset, global: string): string | null {
  return preset.ready?.replaceAll("{global}", global) ?? null;
}
