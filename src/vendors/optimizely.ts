import type { ExperimentPreset, LoggedEvent, LoggedExposure } from "./experiment-vendor.js";
import { numberAt, recordsAt, textAt } from "./payload.js";

/**
 * Optimizely Feature Experimentation's JavaScript SDK, `@optimizely/optimizely-sdk` 6 (its UMD
 * build, `dist/optimizely.browser.umd.min.js`, whose global is `optimizelySdk`):
 * `createInstance({ projectConfigManager: createPollingProjectConfigManager({ sdkKey }), … })`
 * makes the client, its key inside a config manager that keeps nothing readable, so the key is the
 * one its datafile names once it is in (`getOptimizelyConfig().sdkKey`). Flags are decided on a
 * user context, `client.createUserContext(userId).decide(flagKey)`, whose decision names the
 * variation (`variationKey`) and the rule that served it (`ruleKey`: an experiment's or a
 * delivery's key, `default-rollout-<id>` for the "Everyone Else" rule); a decision the SDK could not
 * make has no rule and says why in its first `reasons` entry (`No flag was found for key "…".`,
 * `Optimizely SDK not configured properly yet.`). `onReady()` settles once the datafile is in, or
 * the SDK gave up.
 *
 * Exposures are the decisions (impressions) of the event batches it posts to
 * `https://logx.optimizely.com/v1/events`: per visitor (`visitor_id`), each snapshot's decision
 * names the flag and the variation's key (`metadata.flag_key`, `metadata.variation_key`), its
 * `campaign_activated` event the time. A `decide` logs one each time, unless told not to
 * (`DISABLE_DECISION_EVENT`); the browser's batch leaves at 10 events or every second. Bundled
 * into the site's code from npm it defines no global: its client is read from the wire, made by
 * its datafile's request and evaluating what its decisions name, each with the rule that served it
 * (`metadata.rule_key`). It logs no decision for a flag it could not decide, so a fallback does not
 * show there.
 */
export const optimizely: ExperimentPreset = {
  vendor: "Optimizely (@optimizely/optimizely-sdk)",
  global: "optimizelySdk",
  init: ["createInstance"],
  keyOnReady: { method: "getOptimizelyConfig", property: "sdkKey" },
  // The polling manager's default URL template, `https://cdn.optimizely.com/datafiles/%s.json`, or a proxy's that keeps its path.
  keyInUrl: /\/datafiles\/([^/?#]+)\.json(?:[?#]|$)/,
  // Bundled, read from the wire: its batch leaves every second; three leave room for a busy machine.
  unwatched: { flushMs: 3000 },
  userContext: "createUserContext",
  evaluate: ["decide"],
  ready: { settles: "onReady" },
  exposures: {
    url: "**/v1/events",
    flush: "flushImmediately",
    onEachLoad: true,
    // The client's `track(eventKey, userId)`, and its user contexts' `trackEvent(eventKey)`.
    track: ["track", "trackEvent"],
    // The datafile's events: the SDK logs `Event key … is not in datafile.` for any other, and sends nothing.
    knownEvents: {
      method: "getOptimizelyConfig",
      list: "events",
      key: "key",
      refusal: "Event key %s is not in datafile.",
      advice:
        "Create the event in the Optimizely project (or track the key it has), and add it as a metric of the flag's experiment: Optimizely sends only the events its datafile lists",
    },
    read: optimizelyExposures,
    tracked: optimizelyEvents,
    unlogged:
      "Optimizely logs no decision event for a `decide` with `DISABLE_DECISION_EVENT`, or for a flag delivered by a rollout rather than an experiment: decide without that option, on the flag's experiment rule",
  },
  result: {
    variation: ["variationKey"],
    // The rule that served the flag; the SDK's first reason where none did.
    reason: ["ruleKey", "reasons.0"],
    assigned: /^(?!default-rollout-)[\w-]+$/,
    fallbacks: [
      {
        reason: /^No flag was found/,
        means: "the datafile has no such flag (a typo, or a flag of another project or environment)",
      },
      {
        reason: /^default-rollout-/,
        means:
          'no rule served it but the flag\'s "Everyone Else" one: its experiment is not running in this environment, or the visitor is outside its audience',
      },
      { reason: /not configured properly|not ready/i, means: "it was evaluated before the client had its datafile" },
    ],
  },
};

/** The page's `trackEvent` conversions in one event batch: each snapshot's events but the decisions' `campaign_activated`. */
function optimizelyEvents(payload: unknown): LoggedEvent[] {
  return recordsAt(payload, "visitors").flatMap((visitor) =>
    recordsAt(visitor, "snapshots").flatMap((snapshot) =>
      recordsAt(snapshot, "events").flatMap((event): LoggedEvent[] => {
        const name = textAt(event, ["key"]);
        if (name === null || name === "campaign_activated") return [];
        return [{ name, visitor: textAt(visitor, ["visitor_id"]), madeAt: numberAt(event, "timestamp") }];
      }),
    ),
  );
}

/** Optimizely's decisions in one event batch: each snapshot's decisions, with the rule that served them, timed by their `campaign_activated` events. */
function optimizelyExposures(payload: unknown): LoggedExposure[] {
  return recordsAt(payload, "visitors").flatMap((visitor) =>
    recordsAt(visitor, "snapshots").flatMap((snapshot) => {
      const activations = recordsAt(snapshot, "events").filter((event) => event.key === "campaign_activated");
      return recordsAt(snapshot, "decisions").flatMap((decision): LoggedExposure[] => {
        const flag = textAt(decision, ["metadata.flag_key"]);
        if (flag === null || flag === "") return [];
        const activation = activations.find((event) => event.entity_id === decision.campaign_id) ?? activations[0];
        return [
          {
            flag,
            variation: textAt(decision, ["metadata.variation_key"]),
            reason: textAt(decision, ["metadata.rule_key"]),
            visitor: textAt(visitor, ["visitor_id"]),
            madeAt: activation === undefined ? null : numberAt(activation, "timestamp"),
          },
        ];
      });
    }),
  );
}
