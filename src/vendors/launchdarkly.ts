import type { ExperimentPreset, LoggedEvent, LoggedExposure } from "./experiment-vendor.js";
import { numberAt, recordsAt, textAt } from "./payload.js";

/**
 * LaunchDarkly's browser SDK, `launchdarkly-js-client-sdk` (its UMD build, `dist/ldclient.min.js`):
 * `LDClient.initialize(clientSideId, context, options)` returns the client at once; `variation`
 * returns the value alone and `variationDetail` the value, its index and the reason, so each
 * evaluation is read through the client's `afterEvaluation` hook, which gets the detail for both.
 * The reason of a served value is null unless the page set `evaluationReasons`; the fallback's is
 * always `{kind: "ERROR", errorKind: "FLAG_NOT_FOUND"}`, whether the flag is unknown, not available
 * to client-side SDKs, or evaluated before the flags arrived (3.9.5 has no `CLIENT_NOT_READY`).
 * The client emits `initialized` (or `failed`) and then `ready` once its flags are fetched.
 *
 * Exposures are the `feature` events of the batches it posts to `<eventsUrl>/events/bulk/<id>`
 * (default `https://events.launchdarkly.com`), one per evaluation of a flag whose events are on
 * (`trackEvents`, which an experiment turns on), with the value, the context and `creationDate`;
 * the other flags only count in `summary` events. It flushes every 2 s; what is queued as the page
 * leaves is lost (its synchronous flush does nothing in Chrome). Bundled into the site's code from
 * npm it defines no global and keeps no registry: its client is then read from the wire, as made
 * by its request for the context's flags (the client-side ID in its path) and evaluating as the
 * `feature` events it sends say (with their reason, which a flag in an experiment carries); given
 * its flags by the page (`bootstrap`), it asks for none, and is made by its first request with
 * events (its diagnostics, as it is made).
 */
export const launchdarkly: ExperimentPreset = {
  vendor: "LaunchDarkly (launchdarkly-js-client-sdk)",
  global: "LDClient",
  init: ["initialize"],
  evaluate: ["variation", "variationDetail"],
  // The client-side ID in the path of its request for the context's flags (GET …/sdk/evalx/<id>/contexts/<context>, REPORT …/context).
  keyInUrl: /\/sdk\/evalx\/([^/?#]+)\/contexts?(?:[/?#]|$)/,
  // Bundled from npm it defines no global: read from its requests, its events flushed every 2 s.
  // Given its flags by the page (`bootstrap`), it asks for none: its diagnostics, posted as it is
  // made, and its event batches carry the client-side ID (POST …/events/{diagnostic,bulk}/<id>).
  unwatched: { flushMs: 4000, keyInEventsUrl: /\/events\/(?:bulk|diagnostic)\/([^/?#]+)(?:[?#]|$)/ },
  ready: { on: "on", events: ["initialized", "failed"] },
  hook: { add: "addHook", stage: "afterEvaluation", flag: "flagKey" },
  exposures: {
    url: "**/events/bulk/*",
    flush: "flush",
    onEachLoad: true,
    track: ["track"],
    read: launchdarklyExposures,
    tracked: launchdarklyEvents,
    unlogged:
      "LaunchDarkly sends a flag's evaluations as events only when it is in an experiment or its events are on: start the experiment on the flag in this environment",
  },
  result: {
    // The flag's value; its variation's index where the value is no string, number or boolean.
    variation: ["value", "variationIndex"],
    reason: ["reason.errorKind", "reason.kind"],
    assigned: /^(FALLTHROUGH|RULE_MATCH|TARGET_MATCH)$/,
    servedWithoutReason: true,
    fallbacks: [
      {
        reason: /^FLAG_NOT_FOUND$/,
        means:
          "the environment has no such flag, or does not make it available to client-side SDKs (the flag's 'SDKs using Client-side ID' setting)",
      },
      { reason: /^OFF$/, means: "the flag is off in this environment: every visitor gets its off variation" },
      { reason: /^PREREQUISITE_FAILED$/, means: "a prerequisite flag keeps the visitor out of the experiment" },
      { reason: /^(MALFORMED_FLAG|EXCEPTION|USER_NOT_SPECIFIED)$/, means: "the SDK could not evaluate the flag" },
    ],
  },
};

/** The page's `track` calls in one bulk batch: its `custom` events, with their context. */
function launchdarklyEvents(payload: unknown): LoggedEvent[] {
  return recordsAt(payload, "").flatMap((event): LoggedEvent[] => {
    const name = textAt(event, ["key"]);
    if (textAt(event, ["kind"]) !== "custom" || name === null) return [];
    return [{ name, visitor: contextKey(event), madeAt: numberAt(event, "creationDate") }];
  });
}

/** The key of the context an event was sent for. */
function contextKey(event: unknown): string | null {
  return textAt(event, ["context.key", "contextKeys.user", "userKey"]);
}

/** LaunchDarkly's `feature` events in one bulk batch: the flag, its value (its index where the value is no scalar), the context. */
function launchdarklyExposures(payload: unknown): LoggedExposure[] {
  return recordsAt(payload, "").flatMap((event): LoggedExposure[] => {
    const flag = textAt(event, ["key"]);
    if (textAt(event, ["kind"]) !== "feature" || flag === null) return [];
    return [
      {
        flag,
        variation: textAt(event, ["value", "variation"]),
        reason: textAt(event, ["reason.errorKind", "reason.kind"]),
        visitor: contextKey(event),
        madeAt: numberAt(event, "creationDate"),
      },
    ];
  });
}
