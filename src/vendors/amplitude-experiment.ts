import type { ExperimentPreset, LoggedExposure } from "./experiment-vendor.js";
import { numberAt, recordsAt, textAt } from "./payload.js";

/**
 * Amplitude Experiment's browser SDK, `@amplitude/experiment-js-client` 1 (its UMD build,
 * `dist/experiment-browser.min.js`, whose global is `Experiment`), beside Amplitude Analytics:
 * `Experiment.initializeWithAmplitudeAnalytics(deploymentKey, config)` (or `initialize`) returns
 * the client at once; `await client.fetch()` (or `start()`) gets the visitor's variants, and
 * settles even when the fetch failed. `variant(flagKey)` returns `{ key, value, payload, expKey }`
 * (`metadata.default: true` on the deployment's default variant, served to a visitor outside the
 * experiment), or `{}` (the fallback) for a flag the deployment does not have, before the variants are in, or
 * after a failed fetch: the SDK never says why.
 *
 * Exposures go through Amplitude Analytics (its connector): each `variant()` of a served flag tracks
 * a `$exposure` event (`event_properties.flag_key`, `variant`, absent on the default variant), once
 * per flag and variant for an identity, in the batches Analytics posts to its `serverUrl` (default
 * `https://api2.amplitude.com/2/httpapi`) every second; the fallback logs none. The event waits in
 * the Experiment client's own queue until Analytics takes it, and in Analytics' until its init is
 * done (seconds, on a busy machine), so the audit flushes Analytics' queue once the client's is
 * empty and Analytics is ready, and waits for the batch.
 */
export const amplitudeExperiment: ExperimentPreset = {
  vendor: "Amplitude Experiment (@amplitude/experiment-js-client)",
  global: "Experiment",
  init: ["initializeWithAmplitudeAnalytics", "initialize"],
  evaluate: ["variant"],
  ready: { awaits: ["fetch", "start"] },
  exposures: {
    url: "**/2/httpapi",
    flush: "window.amplitude.flush",
    sentWithinMs: 3000,
    // Its exposures wait in its queue until Analytics can take them (its tracker set, and the
    // connector's receiver), tried again each second: on a busy machine, seconds after the variant.
    pending: "integrationManager.queue.inMemoryQueue",
    // Analytics takes events before its init is done, and sends them only after it.
    senderReady: "window.amplitude.add",
    // The page's own events go through Amplitude Analytics: the analytics SDK's calls, not this one's.
    track: [],
    read: amplitudeExposures,
    tracked: () => [],
    unlogged:
      "Amplitude Experiment tracks no exposure with `automaticExposureTracking: false`, or without Amplitude Analytics beside it: keep it on, or call `exposure(flag)`",
  },
  result: {
    variation: ["key", "value"],
    // No reason ever; only the deployment's default variant (a visitor outside the experiment) says so, in `metadata.default`.
    reason: ["metadata.default"],
    // A variant with a key and no `default` mark was served; the empty one and the default are fallbacks.
    assigned: /^$/,
    servedWithoutReason: true,
    fallbacks: [
      {
        reason: /^true$/,
        means:
          "it is the deployment's default variant (metadata.default): the visitor is outside the experiment's audience or rollout, or the flag is off here",
      },
    ],
    unexplained:
      "the deployment has no such flag (a typo, or a flag of another project or deployment), or the variants could not be fetched",
  },
};

/** The `$exposure` events of one Analytics batch: the flag, the variant (none on the default variant), the user (else the device). */
function amplitudeExposures(payload: unknown): LoggedExposure[] {
  return recordsAt(payload, "events").flatMap((event): LoggedExposure[] => {
    const flag = textAt(event, ["event_properties.flag_key"]);
    if (textAt(event, ["event_type"]) !== "$exposure" || flag === null) return [];
    return [
      {
        flag,
        variation: textAt(event, ["event_properties.variant"]),
        visitor: textAt(event, ["user_id", "device_id"]),
        madeAt: numberAt(event, "time"),
      },
    ];
  });
}
