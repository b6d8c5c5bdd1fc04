import type { ExperimentSdkInit, FlagEvaluation } from "../artifacts/types.js";
import type { ExperimentPreset, KnownEvents } from "../vendors/experiment-vendor.js";

/**
 * What the page's watch of the experimentation SDK reports: a client made, ready, or fetching its
 * values again and done with them (a call of the preset's `awaits` methods), a flag evaluated, an
 * event tracked through the SDK, or the clients' queued events sent, with them the exposures and
 * events of the document's first `through` evaluations and tracked events (`at`: when the sending
 * began). Each document counts them from 0 and names itself (`document`).
 */
export type ExperimentSdkMessage =
  | ({ type: "init"; id: string } & Omit<ExperimentSdkInit, "atMs" | "readyAtMs"> & { at: number })
  | { type: "ready"; init: string; at: number }
  | { type: "fetching" | "fetched"; init: string; at: number }
  | { type: "key"; init: string; key: string; at: number }
  | ({ type: "evaluation"; document: string } & Omit<FlagEvaluation, "atMs"> & { at: number })
  | {
      type: "tracked";
      document: string;
      method: string;
      /** The event's name; null when the call named none. */
      name: string | null;
      properties: unknown;
      url: string;
      /** The SDK's reason for not sending it (the preset's `knownEvents`); null when it knows the event, or the audit cannot tell. */
      refused: string | null;
      at: number;
    }
  | { type: "flushed"; document: string; through: number; at: number }
  /** The page's own clock passed the preset's `sentWithinMs` since the flush through `through` began. */
  | { type: "waited"; document: string; through: number; at: number };

/** What the page's watch is given: the SDK's global, its constructors, its registry of clients, the client's evaluating methods and where a result keeps its variation and reason. */
export interface WatchConfig {
  binding: string;
  global: string;
  init: string[];
  evaluate: string[];
  registry: { global: string; clients: string } | null;
  keyProperty: string | null;
  keyOnReady: { method: string; property: string } | null;
  userContext: string | null;
  ready: NonNullable<ExperimentPreset["ready"]>;
  hook: { add: string; stage: string; flag: string } | null;
  /** The client's method that sends its queued events at once, called after each evaluation and tracked event; null for an SDK whose exposures are not read. */
  flush: string | null;
  /** The preset's `sentWithinMs`, where the page waits it out after each flush; null elsewhere. */
  sentWithinMs: number | null;
  /** The preset's `pending`: where a client holds the exposures it has not handed on yet; null elsewhere. */
  pending: string | null;
  /** The preset's `senderReady`: the page's function that takes a plugin once what sends the exposures is ready; null elsewhere. */
  senderReady: string | null;
  /** The methods of the client, or of its user contexts, that track an event through the SDK; none where `flush` is null. */
  track: readonly string[];
  /** Where a ready client lists the events it sends, and what it says of one it refuses (`%s`: the event's name); null where it sends any. */
  knownEvents: KnownEvents | null;
  variation: readonly string[];
  reason: readonly string[];
  rule: readonly string[];
}

/**
 * Runs in the page before its scripts; serialised into the page, so it must be self-contained. The
 * global's name gets an accessor that gives what the page assigned (what it held before, until
 * then), so that each assignment is seen; so does the SDK's registry of clients, when it has one.
 * Each constructor or factory named by `init` is wrapped where it is; each client, made through it
 * or seen in the registry, gets its evaluating methods wrapped on the client itself (Statsig's are
 * its own memoised functions, assigned after it registers itself: an accessor wraps each as it is),
 * or the preset's hook added. Each evaluation says whether its client was ready when it was made.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: serialised into the page
export function watchExperimentSdk(config: WatchConfig): void {
  const send = (message: Record<string, unknown>) => {
    const report = (window as unknown as Record<string, unknown>)[config.binding];
    if (typeof report === "function") (report as (message: unknown) => void)(message);
  };
  /** What `value` holds at the dotted `path`; undefined where something on the way is no object. */
  const valueAt = (value: unknown, path: string): unknown =>
    path
      .split(".")
      .reduce<unknown>(
        (at, key) => (at !== null && typeof at === "object" ? (at as Record<string, unknown>)[key] : undefined),
        value,
      );
  const read = (value: unknown, paths: readonly string[]): string | null => {
    for (const path of paths) {
      const at = valueAt(value, path);
      if (typeof at === "string" || typeof at === "number" || typeof at === "boolean") return String(at);
    }
    return null;
  };
  /** Gives `owner[name]` an accessor: what is assigned is kept, and `seen` is told of it. */
  const watchProperty = (owner: object, name: string, seen: (value: unknown) => unknown) => {
    let value = seen((owner as Record<string, unknown>)[name]);
    try {
      Object.defineProperty(owner, name, {
        configurable: true,
        enumerable: true,
        get: () => value,
        set(next: unknown) {
          value = seen(next);
        },
      });
    } catch {
      // A sealed object keeps its property as it is.
    }
  };
  const wrapped = new WeakSet<object>();
  const noted = new WeakSet<object>();
  let inits = 0;
  // Inside a watched constructor the registry stays silent: the constructor notes its client.
  let constructing = 0;
  /** `original` wrapped so that `then` is told of each call's arguments and result, once it returned; what is no function, or is wrapped already, as it is. */
  const afterEachCall = (original: unknown, then: (result: unknown, args: unknown[]) => void) => {
    if (typeof original !== "function" || wrapped.has(original)) return original;
    const watched = function (this: unknown, ...args: unknown[]) {
      const result: unknown = original.apply(this, args);
      then(result, args);
      return result;
    };
    wrapped.add(watched);
    return watched;
  };
  /** The key a ready client says it has, where it was given one the audit cannot read (keyOnReady). */
  const keyOfReady = (client: Record<string, unknown>): string | null => {
    const { keyOnReady } = config;
    const configuration = keyOnReady === null ? undefined : client[keyOnReady.method];
    if (typeof configuration !== "function") return null;
    try {
      return read(configuration.call(client), [keyOnReady!.property]);
    } catch {
      return null;
    }
  };
  /** Tells of the client's readiness once (its key first, where only then known); says, as each evaluation is made, whether the client was ready. */
  const watchReadiness = (client: Record<string, unknown>, init: string, keyKnown: boolean): (() => boolean) => {
    let told = false;
    const ready = () => {
      if (told) return;
      told = true;
      const key = keyKnown ? null : keyOfReady(client);
      if (key !== null) send({ type: "key", init, key, at: Date.now() });
      send({ type: "ready", init, at: Date.now() });
    };
    const { ready: says } = config;
    if ("on" in says) {
      const subscribe = client[says.on];
      if (typeof subscribe === "function") for (const event of says.events) subscribe.call(client, event, ready);
      return () => told;
    }
    if ("settles" in says) {
      const settled = client[says.settles];
      if (typeof settled === "function") Promise.resolve(settled.call(client)).then(ready, ready);
      return () => told;
    }
    if ("awaits" in says) {
      // A method whose promise settles once the values are in, or the fetch gave up: each call (a
      // fetch again for a signed-in user) is waited for, the first also makes the client ready.
      const over = () => {
        ready();
        send({ type: "fetched", init, at: Date.now() });
      };
      const settles = (method: unknown) =>
        afterEachCall(method, (result) => {
          send({ type: "fetching", init, at: Date.now() });
          Promise.resolve(result).then(over, over);
        });
      for (const name of says.awaits) watchProperty(client, name, settles);
      return () => told;
    }
    const isReady = () => client[says.property] === says.equals;
    const poll = () => (isReady() ? ready() : setTimeout(poll, 50));
    poll();
    return isReady;
  };
  /**
   * Calls `owner[name]` with `args`, what it returns as a promise (Amplitude's methods return
   * theirs as `{ promise }`); nothing where it is no function or throws.
   */
  const call = (owner: unknown, name: string, args: unknown[]): Promise<unknown> => {
    try {
      const method = (owner as Record<string, unknown> | null)?.[name];
      const result: unknown = typeof method === "function" ? method.apply(owner, args) : undefined;
      const wrapped = result !== null && typeof result === "object" && "promise" in result;
      return Promise.resolve(wrapped ? (result as { promise: unknown }).promise : result);
    } catch {
      return Promise.resolve();
    }
  };
  /** The page's function at `window.<path>`, with what it is called on; null where there is none. */
  const onPage = (path: string): { owner: unknown; name: string } | null => {
    const dot = path.lastIndexOf(".");
    const owner = dot === "window".length ? window : valueAt(window, path.slice("window.".length, dot));
    const name = path.slice(dot + 1);
    return typeof (owner as Record<string, unknown> | null)?.[name] === "function" ? { owner, name } : null;
  };
  /**
   * Settles once what sends the exposures is ready (the preset's `senderReady` sets the audit's
   * plugin up, which changes no event, only then); at once where the preset names none, or the page
   * has no such function.
   */
  let sender: Promise<unknown> | null = null;
  const senderReady = () => {
    sender ??= new Promise((resolve) => {
      const takes = config.senderReady === null ? null : onPage(config.senderReady);
      if (takes === null) return resolve(undefined);
      const plugin = {
        name: "setup-audit",
        type: "enrichment",
        setup: () => {
          resolve(undefined);
          return Promise.resolve();
        },
        execute: (event: unknown) => Promise.resolve(event),
      };
      call(takes.owner, takes.name, [plugin]).catch(resolve);
    });
    return sender;
  };
  // Each document counts its evaluations and tracked events; the clients' events are sent once the task that made them ends.
  const documentId = `${Date.now()}-${Math.random()}`;
  let logged = 0;
  let flushing = false;
  const clients: Record<string, unknown>[] = [];
  const flushSoon = () => {
    const { flush } = config;
    if (flush === null || flushing) return;
    flushing = true;
    /** How many exposures the clients hold that they have not handed on yet (the preset's `pending`). */
    const held = () =>
      config.pending === null
        ? 0
        : clients.reduce((count, client) => {
            const queue = valueAt(client, config.pending!);
            return count + (Array.isArray(queue) ? queue.length : 0);
          }, 0);
    // Once the clients hand on what they hold (on their own timers, a busy page's run late), and
    // what sends it is ready: a flush before would send nothing.
    const flushOnceHandedOn = () => {
      if (held() > 0) {
        setTimeout(flushOnceHandedOn, 100);
        return;
      }
      senderReady().then(flushNow, flushNow);
    };
    const flushNow = () => {
      flushing = false;
      const through = logged;
      const startedAt = Date.now();
      // `window.<path>`: one function of the page's; else each client's own method.
      const page = flush.startsWith("window.") ? onPage(flush) : null;
      const sent = page !== null ? [call(page.owner, page.name, [])] : clients.map((client) => call(client, flush, []));
      const told = () => {
        send({ type: "flushed", document: documentId, through, at: startedAt });
        // The page's clock, in rounds of its timers a second at most each: where its thread was held up,
        // the SDK's timers due by then run before each next round, and those they set in turn too.
        const waitRounds = (leftMs: number) => {
          if (leftMs <= 0) send({ type: "waited", document: documentId, through, at: Date.now() });
          else setTimeout(() => waitRounds(leftMs - 1000), Math.min(leftMs, 1000));
        };
        if (config.sentWithinMs !== null) waitRounds(config.sentWithinMs);
      };
      Promise.allSettled(sent).then(told, told);
    };
    setTimeout(flushOnceHandedOn, 0);
  };
  const evaluation = (method: string, flag: unknown, result: unknown, isReady: () => boolean) => {
    if (typeof flag !== "string") return;
    logged++;
    const rule = read(result, config.rule);
    send({
      type: "evaluation",
      document: documentId,
      method,
      flag,
      variation: read(result, config.variation),
      reason: read(result, config.reason),
      clientReady: isReady(),
      ...(rule === null ? {} : { rule }),
      at: Date.now(),
    });
    flushSoon();
  };
  const evaluating = (name: string, original: unknown, isReady: () => boolean) =>
    afterEachCall(original, (result, args) => evaluation(name, args[0], result, isReady));
  const plainObject = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === "object" && !Array.isArray(value);
  /** A copy of `value` that crosses into the audit: JSON's, else its text. */
  const copied = (value: unknown) => {
    try {
      return value === undefined ? null : JSON.parse(JSON.stringify(value));
    } catch {
      return String(value);
    }
  };
  /** Why `client` refuses to send the event `name`, where it lists the events it sends (knownEvents); null when it knows it, or cannot say. */
  const refusal = (client: Record<string, unknown>, name: string | null): string | null => {
    const { knownEvents } = config;
    const describe = knownEvents === null ? undefined : client[knownEvents.method];
    if (name === null || typeof describe !== "function") return null;
    try {
      const listed = (describe.call(client) as Record<string, unknown> | null)?.[knownEvents!.list];
      if (!Array.isArray(listed)) return null;
      const known = listed.some((event) => plainObject(event) && event[knownEvents!.key] === name);
      return known ? null : knownEvents!.refusal.replace("%s", name);
    } catch {
      return null;
    }
  };
  // How deep the page is in calls of track methods.
  let trackDepth = 0;
  /**
   * `original` wrapped so that `tracked` is told of each call's arguments, once it returned, unless
   * it was made inside another track method's call: Optimizely's user context's `trackEvent` calls
   * its client's `track`, for one event.
   */
  const trackingCalls = (original: unknown, tracked: (args: unknown[]) => void) => {
    if (typeof original !== "function" || wrapped.has(original)) return original;
    const watched = function (this: unknown, ...args: unknown[]) {
      trackDepth++;
      let result: unknown;
      try {
        result = original.apply(this, args);
      } finally {
        trackDepth--;
      }
      if (trackDepth === 0) tracked(args);
      return result;
    };
    wrapped.add(watched);
    return watched;
  };
  /**
   * Notes each event `tracker` (a client, or a user context of `client`) tracks, and has the clients
   * send what they hold after it. The event's name is the call's first argument (or its event
   * object's `eventName`), its properties the last object argument after it (or its event object's `metadata`).
   */
  const watchTracking = (tracker: object, client: Record<string, unknown>) => {
    const tracked = (method: string) => (args: unknown[]) => {
      const [first, ...rest] = args;
      const event = plainObject(first) ? first : null;
      const name = typeof first === "string" ? first : typeof event?.eventName === "string" ? event.eventName : null;
      const properties = event === null ? rest.filter(plainObject).at(-1) : event.metadata;
      logged++;
      send({
        type: "tracked",
        document: documentId,
        method,
        name,
        properties: copied(properties),
        url: location.href,
        refused: refusal(client, name),
        at: Date.now(),
      });
      flushSoon();
    };
    for (const name of config.track) watchProperty(tracker, name, (method) => trackingCalls(method, tracked(name)));
  };
  /** Reads each evaluation through the client's hook, through the user contexts it makes, or else by wrapping its evaluating methods; watches what each tracks. */
  const watchEvaluations = (client: Record<string, unknown>, isReady: () => boolean) => {
    const { hook, userContext } = config;
    watchTracking(client, client);
    const watchEvaluating = (evaluator: object) => {
      for (const name of config.evaluate) watchProperty(evaluator, name, (method) => evaluating(name, method, isReady));
    };
    if (userContext !== null) {
      // Each user context the client makes has its evaluating methods watched.
      const makingContexts = (make: unknown) =>
        afterEachCall(make, (made) => {
          if (made === null || typeof made !== "object") return;
          watchEvaluating(made);
          watchTracking(made, client);
        });
      watchProperty(client, userContext, makingContexts);
      return;
    }
    if (hook === null) {
      watchEvaluating(client);
      return;
    }
    const add = client[hook.add];
    if (typeof add !== "function") return;
    add.call(client, {
      getMetadata: () => ({ name: "setup-audit" }),
      [hook.stage]: (context: Record<string, unknown>, data: unknown, detail: unknown) => {
        const method = typeof context?.method === "string" ? context.method : hook.stage;
        evaluation(method, context?.[hook.flag], detail, isReady);
        return data;
      },
    });
  };
  const noteClient = (method: string, key: unknown, client: unknown, at: number) => {
    if (client !== null && typeof client === "object") {
      if (noted.has(client)) return;
      noted.add(client);
    }
    // Named for its document too: each document counts its clients from 0.
    const init = `${documentId}#${inits++}`;
    send({ type: "init", id: init, method, key: typeof key === "string" ? key : null, at });
    // What is no client (a factory's promise) has no readiness to wait for.
    if (client === null || typeof client !== "object") return send({ type: "ready", init, at: Date.now() });
    const methods = client as Record<string, unknown>;
    clients.push(methods);
    watchEvaluations(methods, watchReadiness(methods, init, typeof key === "string"));
  };
  /** The key a constructor or factory was given: its first string argument, else its options object's key property. */
  const keyAmong = (args: unknown[]): unknown => {
    const key = args.find((arg) => typeof arg === "string");
    if (key !== undefined || config.keyProperty === null) return key;
    const [options] = args;
    return options !== null && typeof options === "object"
      ? (options as Record<string, unknown>)[config.keyProperty]
      : undefined;
  };
  /** The constructor or factory at `path`, wrapped so that each client it makes is noted. */
  const making = (path: string, original: unknown) => {
    if (typeof original !== "function" || wrapped.has(original)) return original;
    const noteInit = <Client>(args: unknown[], make: () => Client): Client => {
      const at = Date.now();
      constructing++;
      let client: Client;
      try {
        client = make();
      } finally {
        constructing--;
      }
      noteClient(`${config.global}.${path}`, keyAmong(args), client, at);
      return client;
    };
    const watched = new Proxy(original, {
      construct: (target, args, newTarget) => noteInit(args, () => Reflect.construct(target, args, newTarget)),
      apply: (target, self, args) => noteInit(args, () => Reflect.apply(target, self, args)),
    });
    wrapped.add(watched);
    return watched;
  };
  // Each constructor is watched as it is assigned: a UMD build may assign its global first, then fill it (LaunchDarkly's).
  const watchInits = (sdk: unknown) => {
    if (sdk === null || (typeof sdk !== "object" && typeof sdk !== "function") || wrapped.has(sdk)) return;
    wrapped.add(sdk);
    for (const path of config.init) {
      const keys = path.split(".");
      let owner = sdk as Record<string, unknown>;
      for (const key of keys.slice(0, -1)) owner = (owner?.[key] ?? null) as Record<string, unknown>;
      if (owner !== null && (typeof owner === "object" || typeof owner === "function"))
        watchProperty(owner, keys[keys.length - 1]!, (original) => making(path, original));
    }
  };
  watchProperty(window, config.global, (sdk) => {
    watchInits(sdk);
    return sdk;
  });
  const { registry } = config;
  if (registry === null) return;
  const registered = (clients: unknown) => {
    if (constructing === 0 && clients !== null && typeof clients === "object")
      for (const [key, client] of Object.entries(clients))
        noteClient(`${registry.global}.${registry.clients}`, key, client, Date.now());
    return clients;
  };
  const watchedRegistries = new WeakSet<object>();
  watchProperty(window, registry.global, (holder) => {
    if (holder !== null && typeof holder === "object" && !watchedRegistries.has(holder)) {
      watchedRegistries.add(holder);
      watchProperty(holder, registry.clients, registered);
    }
    return holder;
  });
}
