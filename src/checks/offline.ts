import type { VisitorSignals } from "../artifacts/types.js";
import type { SdkSpec } from "../audit-spec/schema.js";
import { PRESETS } from "../vendors/presets.js";

/**
 * Whether a browser that reported itself offline explains calls that never left the page: the
 * preset's SDK when it holds its calls then (Segment, Amplitude), any SDK when the spec names no
 * preset. Chromium reports itself offline on a machine whose only network interface is loopback.
 */
export function offlineCause(sdk: Pick<SdkSpec, "preset">, visitor: VisitorSignals | null | undefined): string | null {
  if (visitor?.online !== false) return null;
  const preset = sdk.preset === null ? null : PRESETS[sdk.preset];
  if (preset !== null && !preset.holdsWhileOffline) return null;
  const holds =
    preset === null
      ? "SDKs such as Segment's and Amplitude's hold every call until the browser reports itself online"
      : `${preset.vendor} holds every call until the browser reports itself online`;
  return `The page's browser reported itself offline (navigator.onLine was false), and ${holds}: audit from a machine with a network interface besides loopback`;
}
