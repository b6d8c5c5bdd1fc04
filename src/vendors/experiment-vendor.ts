/**
 * What the audit knows of one experimentation SDK (the SDK that assigns the visitor a variation,
 * not the analytics SDK): what `experimentSdk.preset` fills in and how an evaluation's result is
 * read. The facts are measured on the vendor's own bundle (docs/real-sdks.md).
 */
export interface ExperimentPreset {
  /** The vendor and its SDK's package. */
  vendor: string;
  /** The window global the bundle defines. */
  global: string;
  /** Paths on the global of the constructors or factories whose first string argument is the client key; what they return is the client. */
  init: string[];
  /**
   * Where the SDK registers each client it makes, by its key, however the page loads it: a window
   * global of the SDK's own (`global`) and its property holding the clients by key (`clients`). It
   * is how a client is seen when the SDK is bundled into the site's code from npm, where no
   * `global` is defined.
   */
  registry?: { global: string; clients: string };
  /** The client's methods that evaluate a flag, gate or experiment by its key (their first argument). */
  evaluate: string[];
  /** The client's property that says its initialisation is over (it has its values, or gave up), and the value it then has. */
  ready: { property: string; equals: string };
  /** How an evaluation's result says what the visitor got. */
  result: EvaluationShape;
}

/** Where an evaluation's result keeps the variation and the SDK's reason: dotted paths, tried in order. */
export interface EvaluationShape {
  /** The variation (or group) the visitor was assigned. */
  variation: readonly string[];
  /** The SDK's own reason for the value. */
  reason: readonly string[];
  /** True for a reason that means the SDK knew the flag and served its rules, not its fallback. */
  assigned: RegExp;
  /** What the fallback's reasons mean, in words that say what to fix: the first whose pattern matches. */
  fallbacks: readonly { reason: RegExp; means: string }[];
}
