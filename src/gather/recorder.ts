/**
 * The init script: runs in every document before any page script and reports, through a
 * Playwright binding, when the SDK global became the real SDK and every call made on it.
 *
 * It must never change the page's fate: a call made before the global exists still throws and
 * is lost; the recorder only notes where the page reached for the missing global, so the
 * gatherer can recover the call's name from the source.
 */

/** What the recorder needs to know about the SDK. */
export interface RecorderConfig {
  binding: string;
  global: string;
  trackMethod: string;
  identifyMethod: string;
  /** Regular expression source matching the SDK script URL. */
  scriptPattern: string;
}

/** A message from the recorder to the gatherer. */
export type RecorderMessage =
  | { type: "sdk-ready"; at: number }
  | {
      type: "call";
      kind: "track" | "identify";
      args: unknown[];
      state: "direct" | "queued";
      at: number;
      url: string;
    }
  | { type: "missing-global"; at: number; url: string; stack: string };

/** Installs the recorder; serialised by Playwright, so it must be self-contained. */
export function installRecorder(config: RecorderConfig): void {
  const win = window as unknown as Record<string, unknown>;
  const send = (message: RecorderMessage) => {
    const binding = win[config.binding];
    if (typeof binding === "function") binding(message);
  };
  const now = () => performance.timeOrigin + performance.now();
  const sdkScript = new RegExp(config.scriptPattern);
  const kinds: Record<string, "track" | "identify"> = {
    [config.trackMethod]: "track",
    [config.identifyMethod]: "identify",
  };
  // Enough room that the SDK script's timing entry is never dropped on busy pages.
  performance.setResourceTimingBufferSize(5000);

  let value: unknown;
  let proxy: unknown;
  let ready = false;

  // A stub snippet assigns the global before the SDK script has even been fetched; the real SDK
  // assigns it while, or after, its script runs.
  const sdkScriptFetched = () => {
    const current = document.currentScript as HTMLScriptElement | null;
    if (current?.src && sdkScript.test(current.src)) return true;
    return performance.getEntriesByType("resource").some((entry) => sdkScript.test(entry.name));
  };
  const isRealSdk = (candidate: unknown) =>
    candidate !== null &&
    (typeof candidate === "object" || typeof candidate === "function") &&
    !Array.isArray(candidate) &&
    typeof (candidate as Record<string, unknown>)[config.trackMethod] === "function" &&
    sdkScriptFetched();
  const noteReady = () => {
    if (!ready && isRealSdk(value)) {
      ready = true;
      send({ type: "sdk-ready", at: now() });
    }
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
  const wrapped = new WeakMap<object, unknown>();
  const wrap = (target: unknown): unknown => {
    if (target === null || (typeof target !== "object" && typeof target !== "function")) return target;
    const cached = wrapped.get(target);
    if (cached) return cached;
    const made = new Proxy(target, {
      get(object, property, receiver) {
        const member = Reflect.get(object, property, receiver === made ? object : receiver);
        const kind = typeof property === "string" ? kinds[property] : undefined;
        if (!kind || typeof member !== "function") return member;
        return function recorded(this: unknown, ...args: unknown[]) {
          noteReady();
          send({ type: "call", kind, args: cloneArgs(args), state: ready ? "direct" : "queued", at: now(), url: location.href });
          return member.apply(this === made ? object : this, args);
        };
      },
    });
    wrapped.set(target, made);
    return made;
  };

  Object.defineProperty(window, config.global, {
    configurable: true,
    enumerable: true,
    get() {
      if (value === undefined) {
        // A stub snippet reads the missing global and assigns it in the same breath
        // (`window.x = window.x || []`); a call that is lost leaves it missing afterwards.
        const read = { type: "missing-global" as const, at: now(), url: location.href, stack: new Error().stack ?? "" };
        queueMicrotask(() => {
          if (value === undefined) send(read);
        });
      }
      return proxy;
    },
    set(next: unknown) {
      value = next;
      proxy = wrap(next);
      noteReady();
    },
  });
}
