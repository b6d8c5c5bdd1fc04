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
  /** Where the key is for a constructor given one options object instead (GrowthBook's `clientKey`): that object's property. */
  keyProperty?: string;
  /**
   * Where the SDK registers each client it makes, by its key, however the page loads it: a window
   * global of the SDK's own (`global`) and its property holding the clients by key (`clients`). It
   * is how a client is seen when the SDK is bundled into the site's code from npm, where no
   * `global` is defined.
   */
  registry?: { global: string; clients: string };
  /**
   * Where the key is for an SDK whose client is given it inside an object the audit cannot read
   * (Optimizely's config manager): the client's method that, once it is ready, returns its
   * configuration, and the key's property there.
   */
  keyOnReady?: { method: string; property: string };
  /**
   * Where the key travels in the URL of the request that fetches the client's values (Optimizely's
   * datafile, `…/datafiles/<sdkKey>.json`): its first group. It names the key of a client that
   * never got ready, whose key could not be read otherwise (a key the vendor refuses), and the
   * client of an SDK read from the wire (`unwatched`).
   */
  keyInUrl?: RegExp;
  /**
   * For an SDK bundled into the site's code with no global or registry to watch (LaunchDarkly or
   * Optimizely from npm): its client is read from the wire instead. Each request for its values
   * (`keyInUrl`) is a client made with the key it carries, ready once answered, and each exposure it logs
   * (`exposures`) an evaluation, with the reason the exposure carries. `flushMs`: how long after
   * its values came it has surely sent what it queued (its flush interval, with room for a busy
   * machine), since nothing has it send them sooner. `keyInEventsUrl`: where the key travels in
   * the URL of its requests with events (its first group), which tell a client that asked for no
   * values (the page gave them, LaunchDarkly's `bootstrap`): one client per key, ready from the start.
   */
  unwatched?: { flushMs: number; keyInEventsUrl?: RegExp };
  /** The client's method that makes the object the flags are evaluated on (Optimizely's `createUserContext`); without it, they are evaluated on the client. */
  userContext?: string;
  /** The methods that evaluate a flag, gate or experiment by its key (their first argument): the client's, or its user context's. */
  evaluate: string[];
  /**
   * How the client says its initialisation is over (it has its values, or gave up): a property of
   * the client and the value it then has (Statsig), or the events the client emits then, through
   * its method that subscribes to them (LaunchDarkly's `on`), or its method that returns a promise
   * settled then (Optimizely's `onReady`), or its methods whose promise, when the page calls one,
   * settles once the values are fetched (Amplitude Experiment's `fetch` and `start`). A listener
   * subscribed as the client is made hears them before the page's own. Absent for an SDK whose
   * evaluations are read from its own events (`logged`): it logs none before its values are in.
   */
  ready?:
    | { property: string; equals: string | boolean }
    | { on: string; events: readonly string[] }
    | { settles: string }
    | { awaits: readonly string[] };
  /**
   * A hook the client calls after each evaluation with its detail, for an SDK whose evaluating
   * methods do not all say why (LaunchDarkly's `variation` returns the value alone): the client's
   * method that adds a hook, the hook's stage (a method of the hook, called with the evaluation's
   * context, data and detail) and the context's field naming the flag. With a hook, the methods
   * are not wrapped, and the detail is read as a result is.
   */
  hook?: { add: string; stage: string; flag: string };
  /**
   * For the analytics SDK itself (its global is `sdk`'s: PostHog's flags): each evaluation is an
   * event the SDK logs through its own batches, read back from the page's collect requests. Its
   * client is the analytics SDK's, made by `sdk`'s init with `sdk`'s key; nothing is watched in the
   * page. `result` reads the variation and the reason on the event.
   */
  logged?: {
    /** The event's name (`$feature_flag_called`). */
    event: string;
    /** Where an event names itself, and where it names the flag: dotted paths, tried in order. */
    name: readonly string[];
    flag: readonly string[];
    /** Where an event names the visitor it was logged for. */
    visitor: readonly string[];
    /** The requests whose answer brings the SDK its values: the time of the first is when it was ready. */
    values: RegExp;
    /**
     * How an event says its value came from the values the page bootstrapped the SDK with, before
     * the SDK had its own: where it says the SDK had no values of its own (true there; also said of
     * a fallback after a failed request), and where it holds the flag's bootstrapped value (present
     * only for a flag the page bootstrapped).
     */
    bootstrapped?: { withoutOwnValues: readonly string[]; value: readonly string[] };
    /** How long after an evaluation the SDK's batch with it has surely left (its flush interval, with room for a busy machine). */
    flushMs: number;
    /** What an evaluation that logged nothing may have been, and what to do: said when the flag was never seen evaluated. */
    unseen: string;
  };
  /**
   * How the SDK logs its exposures to its own endpoint, where it does (PostHog's are its
   * `logged` evaluations): the requests that carry them, the client's method that sends its queued
   * events at once, and the exposures one request's payload holds. The audit calls `flush` after
   * each evaluation, so every exposure leaves before the page is done, whatever the SDK's flush
   * interval (Statsig's is 10 s).
   */
  exposures?: {
    /** The default of `experimentSdk.exposures`: a glob that matches the vendor's host and a first-party path that proxies it. */
    url: string;
    /** The client's method that sends what it holds, or, written `window.<path>`, a function of the page's (Amplitude Analytics' `amplitude.flush`, whose queue carries the Experiment client's exposures). */
    flush: string;
    /**
     * How long after a flush the SDK's request with an exposure may yet start, where the exposure
     * reaches the sending queue on its own time (Amplitude's, through the Analytics connector): while
     * a flag served in a variation has no request carrying its exposure in that variation, the page
     * waits that long after the last flush began, on the audit's clock and on the page's timers.
     */
    sentWithinMs?: number;
    /**
     * Where a client holds the exposures it has not handed on to what sends them (a list, by a
     * dotted path on the client): the audit flushes once it is empty, for a flush before sends
     * nothing (Amplitude Experiment's queue waits for Amplitude Analytics to take its events).
     */
    pending?: string;
    /**
     * A function of the page's, written `window.<path>`, that takes a plugin only once what sends
     * the exposures is ready (Amplitude Analytics queues `amplitude.add` until its init is done, and
     * the events given it before with it): the audit adds one that changes no event there, and
     * flushes once it was taken.
     */
    senderReady?: string;
    /** Set where the SDK logs a visitor's exposure again on each page load (it remembers what it logged in the page's memory alone): a reload in the same browser must log the same visitor in the same variation. */
    onEachLoad?: true;
    /** The methods of the client, or of its user contexts, that track an event through the SDK (Statsig's `logEvent`): the audit has the client send what it holds after each call too. */
    track: readonly string[];
    /** Where a ready client lists the events it sends, for an SDK that refuses to send any other (Optimizely's datafile). */
    knownEvents?: KnownEvents;
    read: (payload: unknown) => LoggedExposure[];
    /** The events the page tracked through the SDK that one request's payload holds. */
    tracked: (payload: unknown) => LoggedEvent[];
    /** Why a flag the SDK served may log no exposure, and what to do. */
    unlogged: string;
  };
  /** How an evaluation's result says what the visitor got. */
  result: EvaluationShape;
}

/**
 * The events a ready client sends: its `method()`'s `list`, each event named by its `key`; one not
 * among them it drops, as `refusal` says (`%s`: the event's name); `advice` says what to do.
 */
export interface KnownEvents {
  method: string;
  list: string;
  key: string;
  refusal: string;
  /** What to do about an event it refused. */
  advice: string;
}

/** One event the page tracked through the SDK, as the SDK's request carries it. */
export interface LoggedEvent {
  name: string;
  visitor: string | null;
  /** When the SDK made it, epoch milliseconds; null when it does not say. */
  madeAt: number | null;
}

/** One exposure as the SDK's request carries it. */
export interface LoggedExposure {
  flag: string;
  /** The variation it names; null where it names the rule instead (`rule`). */
  variation: string | null;
  /** The rule that served the variation, where the exposure names it and not the variation (Statsig's `ruleID`): the evaluation with the same rule names the variation. */
  rule?: string;
  /** The SDK's reason for the value, where the exposure carries one (LaunchDarkly's `reason.kind`). */
  reason?: string | null;
  visitor: string | null;
  /** When the SDK made it, epoch milliseconds; null when it does not say. */
  madeAt: number | null;
}

/** Where an evaluation's result keeps the variation and the SDK's reason: dotted paths, tried in order. */
export interface EvaluationShape {
  /** The variation (or group) the visitor was assigned. */
  variation: readonly string[];
  /** The SDK's own reason for the value. */
  reason: readonly string[];
  /** The rule that served it, where the SDK's exposures name it rather than the variation (`exposures`' `rule`). */
  rule?: readonly string[];
  /** True for a reason that means the SDK knew the flag and served its rules, not its fallback. */
  assigned: RegExp;
  /**
   * The SDK gives a served value no reason unless asked for one (LaunchDarkly without
   * `evaluationReasons`), and always gives its fallback one: a result with a variation and no
   * reason was served.
   */
  servedWithoutReason?: boolean;
  /** What the fallback's reasons mean, in words that say what to fix: the first whose pattern matches. */
  fallbacks: readonly { reason: RegExp; means: string }[];
  /** What a fallback means where the SDK never gives a reason (Amplitude Experiment's empty variant). */
  unexplained?: string;
}

/** Whether the SDK served the flag's rules rather than its fallback: its reason says so, or it gave none where only a served value has none. */
export function wasServed(
  evaluation: { reason: string | null; variation: string | null },
  shape: EvaluationShape,
): boolean {
  if (evaluation.reason !== null) return shape.assigned.test(evaluation.reason);
  return shape.servedWithoutReason === true && evaluation.variation !== null;
}
