/**
 * The init script: runs in every document before any page script and reports, through a
 * Playwright binding, when the SDK global became the real SDK and every call made on it.
 *
 * It must never change the page's fate: a call made before the global exists still throws and
 * is lost; the recorder only notes where the page reached for the missing global, so the
 * gatherer can recover the call's name from the source. Every invariant a page may rely on holds:
 * a frozen method is handed out as it is (and the recorder says it cannot watch it), `this`,
 * return values and thrown errors are the SDK's own, and a page may redefine the global at will
 * (the recorder then says it lost sight of it). One call is one record: an SDK that assigns the
 * global again with the value it read (the recorder's own proxy) is followed, not wrapped twice.
 */
import type { SdkSpec } from "../audit-spec/schema.js";

/** A method the recorder watches, by its dotted path on the global. */
export interface WatchedMethod {
  path: string;
  kind: "track" | "identify" | "page" | "init";
}

/** The methods the recorder watches: the spec's track, identify, page and init paths. */
export function watchedMethods(sdk: Pick<SdkSpec, "track" | "identify" | "page" | "init">): WatchedMethod[] {
  return [
    ...sdk.track.map((path) => ({ path, kind: "track" as const })),
    ...sdk.page.map((path) => ({ path, kind: "page" as const })),
    ...sdk.identify.map((path) => ({ path, kind: "identify" as const })),
    ...sdk.init.map((path) => ({ path, kind: "init" as const })),
  ];
}

/** What the recorder needs to know about the SDK. */
export interface RecorderConfig {
  binding: string;
  global: string;
  methods: WatchedMethod[];
  /** JS expression, true once the SDK is ready; null to judge readiness from the global. */
  ready: string | null;
  /** Regular expression source matching the SDK script URL. */
  scriptPattern: string;
}

/** Why calls could not be watched on the SDK itself. */
export type BlindReason = "frozen" | "redefined";

/** A message from the recorder to the gatherer. */
export type RecorderMessage =
  | { type: "sdk-ready"; at: number }
  /** The page assigned the global for the first time (a stub snippet, or the SDK itself). */
  | { type: "global-assigned"; at: number }
  | {
      type: "call";
      kind: "track" | "identify" | "page";
      /** The method path the page called (`capture`, `people.set`). */
      method: string;
      args: unknown[];
      state: "direct" | "queued";
      at: number;
      url: string;
    }
  /** An init method's first string argument: the key the page installs. */
  | { type: "init"; method: string; key: string; at: number }
  | { type: "missing-global"; at: number; url: string; stack: string }
  /** The recorder cannot watch calls: `detail` names the frozen method or the redefined global. */
  | { type: "blind"; reason: BlindReason; detail: string; at: number };

/** Installs the recorder; serialised into the page, so it must be self-contained. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: serialised into the page
export function installRecorder(config: RecorderConfig): void {
  const win = window as unknown as Record<string, unknown>;
  // Taken before any page script runs, so that a page replacing them changes nothing here.
  const schedule = window.setTimeout.bind(window);
  const microtask = window.queueMicrotask.bind(window);
  const getDescriptor = Object.getOwnPropertyDescriptor;
  const send = (message: RecorderMessage) => {
    const binding = win[config.binding];
    if (typeof binding === "function") binding(message);
  };
  const now = () => performance.timeOrigin + performance.now();
  const sdkScript = new RegExp(config.scriptPattern);
  const kindOf = new Map(config.methods.map((method) => [method.path, method.kind]));
  // `people` for `people.set`: objects on the way to a watched method are wrapped too.
  const prefixes = new Set(
    config.methods.flatMap((method) =>
      method.path
        .split(".")
        .slice(0, -1)
        .map((_, index, parts) => parts.slice(0, index + 1).join(".")),
    ),
  );
  const trackPaths = config.methods.filter((method) => method.kind === "track").map((method) => method.path);
  const isObject = (candidate: unknown): candidate is object =>
    candidate !== null && (typeof candidate === "object" || typeof candidate === "function");

  let value: unknown;
  let proxy: unknown;
  let ready = false;
  // An SDK script has run (its element's load event) or is running: before that, a global is a stub.
  let sdkExecuted = false;
  // The recorder's own reads of the global are not the page reaching for it.
  let ownRead = false;
  const blind = new Set<BlindReason>();
  const noteBlind = (reason: BlindReason, detail: string) => {
    if (blind.has(reason)) return;
    blind.add(reason);
    send({ type: "blind", reason, detail, at: now() });
  };

  function getter() {
    if (value === undefined && !ownRead) {
      // A stub snippet reads the missing global and assigns it in the same breath
      // (`window.x = window.x || []`); a call that is lost leaves it missing afterwards.
      const read = { type: "missing-global" as const, at: now(), url: location.href, stack: new Error().stack ?? "" };
      microtask(() => {
        if (value === undefined) send(read);
      });
    }
    return proxy;
  }
  const ownsGlobal = () => getDescriptor(window, config.global)?.get === getter;
  /** The SDK as it is now: what was assigned through the recorder, or what the page put there beyond its reach. */
  const currentSdk = () => {
    if (ownsGlobal()) return value;
    ownRead = true;
    try {
      return win[config.global];
    } finally {
      ownRead = false;
    }
  };
  const at = (root: unknown, path: string) =>
    path
      .split(".")
      .reduce<unknown>(
        (object, part) => (isObject(object) ? (object as Record<string, unknown>)[part] : undefined),
        root,
      );
  /** A data property the Proxy invariant forbids replacing: a frozen object's methods. */
  const isLocked = (object: object, property: string) => {
    const descriptor = getDescriptor(object, property);
    return descriptor !== undefined && !descriptor.configurable && "value" in descriptor && !descriptor.writable;
  };

  let readyExpression: (() => unknown) | null = null;
  if (config.ready !== null) {
    try {
      readyExpression = new Function(`return (${config.ready});`) as () => unknown;
    } catch {
      // A Content-Security-Policy without 'unsafe-eval': readiness is judged from the global instead.
    }
  }
  const isReady = () => {
    if (readyExpression) {
      ownRead = true;
      try {
        return Boolean(readyExpression());
      } catch {
        return false;
      } finally {
        ownRead = false;
      }
    }
    const sdk = currentSdk();
    return (
      sdkExecuted &&
      isObject(sdk) &&
      !Array.isArray(sdk) &&
      trackPaths.every((path) => typeof at(sdk, path) === "function")
    );
  };
  const runningScriptIsSdk = () => {
    const running = document.currentScript as HTMLScriptElement | null;
    return Boolean(running?.src) && sdkScript.test(running!.src);
  };
  /** Says whether the SDK is ready, telling the gatherer the first time it is; also notes what the recorder cannot see. */
  const checkSdk = () => {
    if (runningScriptIsSdk()) sdkExecuted = true;
    if (!ownsGlobal() && getDescriptor(window, config.global) !== undefined)
      noteBlind("redefined", `window.${config.global}`);
    if (!ready && isReady()) {
      ready = true;
      send({ type: "sdk-ready", at: now() });
      const sdk = currentSdk();
      for (const path of trackPaths) {
        const dot = path.lastIndexOf(".");
        const holder = dot < 0 ? sdk : at(sdk, path.slice(0, dot));
        if (isObject(holder) && isLocked(holder, path.slice(dot + 1))) noteBlind("frozen", `${config.global}.${path}`);
      }
    }
    return ready;
  };
  // Readiness may come from a property the SDK sets later (`initialized`, `__loaded`) or from
  // methods filled in after the global was assigned: look again until it is ready.
  let polling = false;
  const pollUntilReady = () => {
    if (polling) return;
    polling = true;
    const startedAt = now();
    const poll = () => {
      if (!checkSdk() && now() - startedAt < 120_000) schedule(poll, 25);
    };
    poll();
  };

  const cloneArgs = (args: unknown[]) =>
    args.map((arg) => {
      try {
        return arg === undefined ? null : JSON.parse(JSON.stringify(arg));
      } catch {
        return String(arg);
      }
    });

  // Wrapping happens at call time, through a proxy, so methods the SDK swaps in later are seen too.
  const proxies = new WeakMap<object, Map<string, object>>();
  // Each proxy's target: an SDK that assigns the global again with the value it read hands the
  // recorder its own proxy, which must not be wrapped a second time (one call, one record).
  const targets = new WeakMap<object, object>();
  const recorders = new WeakMap<object, Map<string, { member: Function; recorder: Function }>>();
  const recorderFor = (object: object, made: object, path: string, kind: WatchedMethod["kind"], member: Function) => {
    let byPath = recorders.get(object);
    if (!byPath) recorders.set(object, (byPath = new Map()));
    const known = byPath.get(path);
    // The same function each time the page reads the method, as without the recorder.
    if (known?.member === member) return known.recorder;
    const recorder = function recorded(this: unknown, ...args: unknown[]) {
      checkSdk();
      if (kind === "init") {
        const key = args.find((arg) => typeof arg === "string");
        if (typeof key === "string") send({ type: "init", method: `${config.global}.${path}`, key, at: now() });
      } else {
        send({
          type: "call",
          kind,
          method: path,
          args: cloneArgs(args),
          state: ready ? "direct" : "queued",
          at: now(),
          url: location.href,
        });
      }
      return member.apply(this === made ? object : this, args);
    };
    byPath.set(path, { member, recorder });
    return recorder;
  };
  const wrap = (target: unknown, prefix: string): unknown => {
    if (!isObject(target)) return target;
    let byPrefix = proxies.get(target);
    if (!byPrefix) proxies.set(target, (byPrefix = new Map()));
    const cached = byPrefix.get(prefix);
    if (cached) return cached;
    const made: object = new Proxy(target, {
      get(object, property, receiver) {
        const member = Reflect.get(object, property, receiver === made ? object : receiver);
        if (typeof property !== "string") return member;
        const path = prefix === "" ? property : `${prefix}.${property}`;
        const kind = kindOf.get(path);
        if (kind === undefined && !prefixes.has(path)) return member;
        if (isLocked(object, property)) {
          if (kind !== undefined) noteBlind("frozen", `${config.global}.${path}`);
          return member;
        }
        if (kind !== undefined && typeof member === "function") return recorderFor(object, made, path, kind, member);
        return prefixes.has(path) ? wrap(member, path) : member;
      },
    });
    byPrefix.set(prefix, made);
    targets.set(made, target);
    return made;
  };

  // Element load events never reach the window (the document is the last stop of a `load`).
  document.addEventListener(
    "load",
    (event) => {
      const element = event.target;
      if (element instanceof HTMLScriptElement && element.src && sdkScript.test(element.src)) {
        sdkExecuted = true;
        pollUntilReady();
      }
    },
    true,
  );

  // A snippet whose stub queues calls as arrays (`[method, ...args]`) calls its own reference to the
  // stub, out of the recorder's reach: its init call, and the key in it, are read from the queue.
  const queuedInitKeys = new Set<string>();
  const noteQueuedInits = (queue: unknown) => {
    if (!Array.isArray(queue)) return;
    for (let index = 0; index < queue.length; index++) {
      const entry: unknown = queue[index];
      if (!Array.isArray(entry) || typeof entry[0] !== "string" || kindOf.get(entry[0]) !== "init") continue;
      const key: unknown = entry.slice(1).find((arg: unknown) => typeof arg === "string");
      if (typeof key !== "string" || queuedInitKeys.has(key)) continue;
      queuedInitKeys.add(key);
      send({ type: "init", method: `${config.global}.${entry[0]}`, key, at: now() });
    }
  };

  Object.defineProperty(window, config.global, {
    configurable: true,
    enumerable: true,
    get: getter,
    set(next: unknown) {
      if (value === undefined && next !== undefined) send({ type: "global-assigned", at: now() });
      // The queue an SDK takes over may still hold the init call; one just assigned gets it once the snippet has run.
      noteQueuedInits(value);
      if (Array.isArray(next)) microtask(() => noteQueuedInits(next));
      value = isObject(next) ? (targets.get(next) ?? next) : next;
      proxy = wrap(value, "");
      if (!checkSdk()) pollUntilReady();
    },
  });
}
