import type { ExperimentSdkInit, FlagEvaluation, PageArtifacts } from "../artifacts/types.js";
import type { PageInput } from "../schedule/page-input.js";
import { EXPERIMENT_PRESETS } from "../vendors/experiment-presets.js";
import type { Gathering, GathererPart } from "./part.js";

const BINDING = "__setupAuditExperimentSdk";

/** What the page's watch of the experimentation SDK reports: a client made, or a flag evaluated. */
type ExperimentSdkMessage =
  | ({ type: "init" } & Omit<ExperimentSdkInit, "atMs" | "readyAtMs"> & { at: number })
  | { type: "ready"; init: number; at: number }
  | ({ type: "evaluation" } & Omit<FlagEvaluation, "atMs"> & { at: number });

/** What the page's watch is given: the SDK's global, its constructors, the client's evaluating methods and where a result keeps its variation and reason. */
interface WatchConfig {
  binding: string;
  global: string;
  init: string[];
  evaluate: string[];
  ready: { property: string; equals: string };
  variation: readonly string[];
  reason: readonly string[];
}

/**
 * The experimentation SDK part: each client the page makes through the SDK's constructors (the key
 * it is given) and each flag the client evaluates (the variation its result names, the SDK's
 * reason). It watches the SDK's global as the page assigns it, and wraps the constructors on it and
 * the evaluating methods of each client they make; the page's calls go through unchanged.
 */
export class ExperimentSdkPart implements GathererPart {
  /** A page never opened made no client. */
  static empty(input: Pick<PageInput, "experimentSdk">): Pick<PageArtifacts, "experimentSdk"> {
    return { experimentSdk: input.experimentSdk === null ? null : { inits: [], evaluations: [] } };
  }

  private readonly inits: ExperimentSdkInit[] = [];
  private readonly evaluations: FlagEvaluation[] = [];

  constructor(private readonly gathering: Gathering<"experimentSdk">) {}

  async install(): Promise<void> {
    const { context, input } = this.gathering;
    if (input.experimentSdk === null) return;
    const { global, init, evaluate, preset } = input.experimentSdk;
    const { result, ready } = EXPERIMENT_PRESETS[preset];
    await context.exposeBinding(BINDING, (_source, message: ExperimentSdkMessage) => this.note(message));
    const config: WatchConfig = {
      binding: BINDING,
      global,
      init,
      evaluate,
      ready,
      variation: result.variation,
      reason: result.reason,
    };
    await context.addInitScript(watchExperimentSdk, config);
  }

  /** Settled once every client made has finished its initialisation: the page evaluates its flags then. */
  isSettled(): boolean {
    return this.inits.every((init) => init.readyAtMs !== null);
  }

  activity(): number {
    return this.inits.length + this.inits.filter((init) => init.readyAtMs !== null).length + this.evaluations.length;
  }

  async finish(): Promise<Pick<PageArtifacts, "experimentSdk">> {
    if (this.gathering.input.experimentSdk === null) return { experimentSdk: null };
    return {
      experimentSdk: {
        inits: this.gathering.beforeReload(this.inits),
        evaluations: this.gathering.beforeReload(this.evaluations),
      },
    };
  }

  private note(message: ExperimentSdkMessage): void {
    if (!this.gathering.observing) return;
    const atMs = this.gathering.sinceStart(message.at);
    if (message.type === "init") this.inits.push({ method: message.method, key: message.key, atMs, readyAtMs: null });
    else if (message.type === "ready") {
      const init = this.inits[message.init];
      if (init !== undefined) init.readyAtMs = atMs;
    } else {
      const { type: _, at: __, ...evaluation } = message;
      this.evaluations.push({ ...evaluation, atMs });
    }
    this.gathering.changed.notify();
  }
}

/**
 * Runs in the page before its scripts; serialised into the page, so it must be self-contained. The global's
 * name gets an accessor that gives what the page assigned (what it held before, until then), so
 * that each assignment is seen. Each constructor or factory named by `init` is wrapped where it is;
 * each client it makes gets its evaluating methods wrapped, on the client itself (Statsig's are its
 * own memoised functions, not its prototype's).
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: serialised into the page
function watchExperimentSdk(config: WatchConfig): void {
  const send = (message: Record<string, unknown>) => {
    const report = (window as unknown as Record<string, unknown>)[config.binding];
    if (typeof report === "function") (report as (message: unknown) => void)(message);
  };
  const read = (value: unknown, paths: readonly string[]): string | null => {
    for (const path of paths) {
      let at: unknown = value;
      for (const key of path.split("."))
        at = at !== null && typeof at === "object" ? (at as Record<string, unknown>)[key] : undefined;
      if (typeof at === "string" || typeof at === "number" || typeof at === "boolean") return String(at);
    }
    return null;
  };
  const wrapped = new WeakSet<object>();
  let inits = 0;
  const awaitReady = (client: Record<string, unknown>, init: number) => {
    if (client[config.ready.property] === config.ready.equals) send({ type: "ready", init, at: Date.now() });
    else setTimeout(() => awaitReady(client, init), 50);
  };
  const watchClient = (client: unknown, init: number) => {
    // What is no client (a factory's promise) has no readiness to wait for.
    if (client === null || typeof client !== "object") return send({ type: "ready", init, at: Date.now() });
    awaitReady(client as Record<string, unknown>, init);
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const methods = client as Record<string, unknown>;
    for (const name of config.evaluate) {
      const original = methods[name];
      if (typeof original !== "function") continue;
      methods[name] = function (this: unknown, ...args: unknown[]) {
        const result: unknown = original.apply(this, args);
        if (typeof args[0] === "string")
          send({
            type: "evaluation",
            method: name,
            flag: args[0],
            variation: read(result, config.variation),
            reason: read(result, config.reason),
            at: Date.now(),
          });
        return result;
      };
    }
  };
  const watchInits = (sdk: unknown) => {
    if (sdk === null || (typeof sdk !== "object" && typeof sdk !== "function")) return;
    for (const path of config.init) {
      const keys = path.split(".");
      let owner = sdk as Record<string, unknown>;
      for (const key of keys.slice(0, -1)) owner = (owner?.[key] ?? null) as Record<string, unknown>;
      const name = keys[keys.length - 1]!;
      const original = owner?.[name];
      if (typeof original !== "function" || wrapped.has(original)) continue;
      const noteInit = <Client>(args: unknown[], client: Client): Client => {
        const key = args.find((arg) => typeof arg === "string");
        send({ type: "init", method: `${config.global}.${path}`, key: key ?? null, at: Date.now() });
        watchClient(client, inits++);
        return client;
      };
      const watched = new Proxy(original, {
        construct: (target, args, newTarget) => noteInit(args, Reflect.construct(target, args, newTarget)),
        apply: (target, self, args) => noteInit(args, Reflect.apply(target, self, args)),
      });
      wrapped.add(watched);
      owner[name] = watched;
    }
  };
  let value = (window as unknown as Record<string, unknown>)[config.global];
  watchInits(value);
  Object.defineProperty(window, config.global, {
    configurable: true,
    enumerable: true,
    get: () => value,
    set(next: unknown) {
      value = next;
      watchInits(next);
    },
  });
}
