import type { ExperimentPreset } from "./experiment-vendor.js";

/**
 * Statsig's `@statsig/js-client` (its UMD build): `new Statsig.StatsigClient(clientKey, user,
 * options)` makes the client; `getFeatureGate`, `getExperiment`, `getDynamicConfig` and
 * `getLayer` are the client's own memoised functions (`checkGate` calls `getFeatureGate`). Each
 * result says why in `details.reason`: `Network:Recognized` or `Cache:Recognized` for a value
 * served from the project's rules; `Network:Unrecognized` (a name the project does not know, or
 * does not serve to client SDKs), `Uninitialized`, `Loading:Unrecognized` and `NoValues` (the
 * initialisation failed or timed out) for the fallback. However the page loads the SDK, each
 * client registers itself in `__STATSIG__.instances` by its key as it is made.
 */
export const statsig: ExperimentPreset = {
  vendor: "Statsig (@statsig/js-client)",
  global: "Statsig",
  init: ["StatsigClient"],
  // Every client, from the UMD build or from npm, registers itself by its key (@statsig/client-core).
  registry: { global: "__STATSIG__", clients: "instances" },
  evaluate: ["getFeatureGate", "getExperiment", "getDynamicConfig", "getLayer"],
  // `Uninitialized` → `Loading` → `Ready`, the values from the network, the cache, or none (`NoValues`).
  ready: { property: "loadingStatus", equals: "Ready" },
  result: {
    // An experiment's group; a gate's value (true or false) where it has no group.
    variation: ["groupName", "value"],
    reason: ["details.reason"],
    assigned: /:Recognized$/,
    fallbacks: [
      {
        reason: /^Network:Unrecognized$/,
        means: "the project has no such gate or experiment, or does not serve it to client SDKs",
      },
      { reason: /^(Uninitialized|Loading)/, means: "it was evaluated before the client's initialisation finished" },
      { reason: /^NoValues$/, means: "the client's initialisation failed or timed out" },
    ],
  },
};
