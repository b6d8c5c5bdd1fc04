import type { ExperimentPreset, LoggedEvent, LoggedExposure } from "./experiment-vendor.js";
import { numberAt, recordsAt, textAt } from "./payload.js";

/**
 * Statsig's `@statsig/js-client` (its UMD build): `new Statsig.StatsigClient(clientKey, user,
 * options)` makes the client; `getFeatureGate`, `getExperiment`, `getDynamicConfig` and
 * `getLayer` are the client's own memoised functions (`checkGate` calls `getFeatureGate`). Each
 * result says why in `details.reason`: `Network:Recognized` or `Cache:Recognized` for a value
 * served from the project's rules; `Network:Unrecognized` (a name the project does not know, or
 * does not serve to client SDKs), `Uninitialized`, `Loading:Unrecognized` and `NoValues` (the
 * initialisation failed or timed out) for the fallback. However the page loads the SDK, each
 * client registers itself in `__STATSIG__.instances` by its key as it is made.
 *
 * Exposures are events of its own in the batches it posts to `<api>/rgstr` (default
 * `https://prodregistryv2.org/v1/rgstr`): `statsig::config_exposure` (an experiment or dynamic
 * config), `statsig::gate_exposure` and `statsig::layer_exposure`, naming the rule that served the
 * value (`metadata.ruleID`), not the group, and the user; it logs one per user, name, rule and
 * reason in 10 minutes, sends its first batch 200 ms after the first event, and the others on a
 * user change, at 100 events, 60 s after the last, or as the page hides.
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
  exposures: {
    url: "**/v1/rgstr",
    flush: "flush",
    onEachLoad: true,
    track: ["logEvent"],
    read: statsigExposures,
    tracked: statsigEvents,
    unlogged:
      "Statsig logs no exposure for a value read with `disableExposureLog`: read it without that option for every visitor the experiment counts, the control included",
  },
  result: {
    // An experiment's group; a gate's value (true or false) where it has no group.
    variation: ["groupName", "value"],
    reason: ["details.reason"],
    rule: ["ruleID"],
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

/** The events of one `rgstr` batch, each with its user's id (else the batch's stable id). */
function statsigBatch(
  payload: unknown,
): { name: string | null; visitor: string | null; event: Record<string, unknown> }[] {
  const stableId = textAt(payload, ["statsigMetadata.stableID"]);
  return recordsAt(payload, "events").map((event) => ({
    name: textAt(event, ["eventName"]),
    visitor: textAt(event, ["user.userID"]) ?? stableId,
    event,
  }));
}

/** The page's own events in one `rgstr` batch (`logEvent`): any but Statsig's `statsig::…` ones. */
function statsigEvents(payload: unknown): LoggedEvent[] {
  return statsigBatch(payload).flatMap(({ name, visitor, event }) =>
    name === null || name.startsWith("statsig::") ? [] : [{ name, visitor, madeAt: numberAt(event, "time") }],
  );
}

/** Statsig's exposure events in one `rgstr` batch. */
function statsigExposures(payload: unknown): LoggedExposure[] {
  return statsigBatch(payload).flatMap(({ name, visitor, event }): LoggedExposure[] => {
    const flag = textAt(event, ["metadata.config", "metadata.gate"]);
    if (flag === null || !/^statsig::(config|gate|layer)_exposure$/.test(name ?? "")) return [];
    const rule = textAt(event, ["metadata.ruleID"]);
    return [
      {
        flag,
        // A gate's exposure says its value; the others name the rule alone.
        variation: textAt(event, ["metadata.gateValue"]),
        ...(rule === null ? {} : { rule }),
        visitor,
        madeAt: numberAt(event, "time"),
      },
    ];
  });
}
