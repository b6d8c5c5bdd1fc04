import { amplitudeExperiment } from "./amplitude-experiment.js";
import type { ExperimentPreset } from "./experiment-vendor.js";
import { growthbook } from "./growthbook.js";
import { launchdarkly } from "./launchdarkly.js";
import { optimizely } from "./optimizely.js";
import { posthogFlags } from "./posthog-flags.js";
import { statsig } from "./statsig.js";

/** The experimentation SDKs as `experimentSdk.preset` names them; each vendor is one module of this folder. */
export const EXPERIMENT_PRESETS = {
  statsig,
  launchdarkly,
  optimizely,
  "amplitude-experiment": amplitudeExperiment,
  posthog: posthogFlags,
  growthbook,
} satisfies Record<string, ExperimentPreset>;

/** An experimentation SDK's name as `experimentSdk.preset` takes it. */
export type ExperimentPresetName = keyof typeof EXPERIMENT_PRESETS;

/** The names a spec may give `experimentSdk.preset`. */
export const EXPERIMENT_PRESET_NAMES = Object.keys(EXPERIMENT_PRESETS) as [
  ExperimentPresetName,
  ...ExperimentPresetName[],
];
