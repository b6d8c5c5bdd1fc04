import type { Page, Request } from "playwright";
import { firstSendings } from "../artifacts/page-views.js";
import {
  type CapturedCall,
  type CollectRequest,
  type ExperimentSdkInit,
  type ExperimentSdkSeen,
  type FlagEvaluation,
  type PageArtifacts,
  SEEN_ON_THE_WIRE,
  type SdkExposure,
} from "../artifacts/types.js";
import type { PageInput } from "../schedule/page-input.js";
import {
  type EvaluationShape,
  type ExperimentPreset,
  type KnownEvents,
  type LoggedExposure,
  wasServed,
} from "../vendors/experiment-vendor.js";
import { EXPERIMENT_PRESETS } from "../vendors/experiment-presets.js";
import { madeAtEpochMs, textAt } from "../vendors/payload.js";
import type { SdkInitCall } from "./calls.js";
import { ExposureRequests } from "./exposure-requests.js";
import type { NetworkCapture } from "./network.js";
import type { RouteWatch } from "./routes.js";
import { routeOf } from "../url/route.js";
import type { Gathering, GathererPart } from "./part.js";

const BINDING = "__setupAuditExperimentSdk";

/** A request for a client's values whose URL carried its key (the preset's keyInUrl), and how it ended. */
interface ValuesRequest {
  key: string;
  atMs: number;
  /** When it was answered or failed; null while it waits. */
  endedAtMs: number | null;
  /** The browser's error when it failed; null otherwise. */
  failure: string | null;
}

/**
 * What the page's watch of the experimentation SDK reports: a client made, ready, or fetching its
 * values again and done with them (a call of the preset's `awaits` methods), a flag evaluated, an
 * event tracked through the SDK, or the clients' queued events sent, with them the exposures and
 * events of the document's first `through` evaluations and tracked events (`at`: when the sending
 * began). Each document counts them from 0 and names itself (`document`).
 */
type ExperimentSdkMessage =
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
  | { type: "flushed"; document: string; through: number; at: number };

/** What the page's watch is given: the SDK's global, its constructors, its registry of clients, the client's evaluating methods and where a result keeps its variation and reason. */
interface WatchConfig {
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
  /** The methods of the client, or of its user contexts, that track an event through the SDK; none where `flush` is null. */
  track: readonly string[];
  /** Where a ready client lists the events it sends, and what it says of one it refuses (`%s`: the event's name); null where it sends any. */
  knownEvents: KnownEvents | null;
  variation: readonly string[];
  reason: readonly string[];
  rule: readonly string[];
}

/**
 * The experimentation SDK part: each client the page makes through the SDK's constructors (the key
 * it is given) and each flag the client evaluates (the variation its result names, the SDK's
 * reason), and each exposure it logs to its own endpoint (the preset's `exposures`, read from its
 * requests). It watches the SDK's global as the page assigns it, and wraps the constructors on it and
 * the evaluating methods of each client they make; the page's calls go through unchanged. An SDK
 * that logs its evaluations as events of its own (the preset's `logged`: the analytics SDK itself)
 * is read instead from the analytics SDK's init calls and the page's collect requests.
 */
export class ExperimentSdkPart implements GathererPart {
  /** A page never opened made no client. */
  static empty(input: Pick<PageInput, "experimentSdk">): Pick<PageArtifacts, "experimentSdk"> {
    if (input.experimentSdk === null) return { experimentSdk: null };
    const read = EXPERIMENT_PRESETS[input.experimentSdk.preset].logged
      ? { exposures: [] }
      : input.experimentSdk.exposures && { exposures: [], tracked: [], calls: [] };
    return { experimentSdk: { inits: [], evaluations: [], ...read } };
  }

  private readonly inits: ExperimentSdkInit[] = [];
  /** Each client's init by the id the page's watch gave it. */
  private readonly initsById = new Map<string, ExperimentSdkInit>();
  /** How many calls of the preset's `awaits` methods each client has still waiting for their values. */
  private readonly fetching = new Map<ExperimentSdkInit, number>();
  private readonly evaluations: FlagEvaluation[] = [];
  /** The calls of the SDK's track methods. */
  private readonly calls: CapturedCall[] = [];
  /** The requests for the clients' values whose URLs carried their keys (the preset's keyInUrl), in order. */
  private readonly valuesRequests: ValuesRequest[] = [];
  /** The requests with a client's events whose URLs carried its key (the preset's `unwatched.keyInEventsUrl`), in order. */
  private readonly eventsRequests: { key: string; atMs: number }[] = [];
  /** The requests that carried the SDK's exposures (`experimentSdk.exposures`). */
  private readonly exposureRequests: ExposureRequests;
  /** Per document: how many evaluations and tracked events it reported, through which of them the clients' events were sent since, and when last. */
  private readonly flushes = new Map<string, { evaluated: number; flushed: number; flushedAtMs: number | null }>();
  /** The document that reported last: the one the page shows. */
  private lastDocument: string | null = null;

  /** When the answer with a logging SDK's values came (the preset's `logged.values`); null until it did. */
  private valuesAtMs: number | null = null;
  /** How the request for the values failed, when it did (a logging SDK's). */
  private valuesFailed: string | null = null;
  /** The requests for a logging SDK's values still waiting for their outcome. */
  private valuesPending = 0;

  /** What the audit knows of the spec's experimentation SDK; null without one. */
  private readonly preset: ExperimentPreset | null;

  constructor(
    private readonly gathering: Gathering<"experimentSdk">,
    private readonly analyticsInits: readonly SdkInitCall[],
    private readonly network: NetworkCapture,
    private readonly routes: RouteWatch,
  ) {
    const { experimentSdk } = gathering.input;
    this.preset = experimentSdk === null ? null : EXPERIMENT_PRESETS[experimentSdk.preset];
    this.exposureRequests = new ExposureRequests(gathering);
  }

  async install(): Promise<void> {
    const { context, input } = this.gathering;
    if (input.experimentSdk === null || this.preset === null) return;
    const { global, init, evaluate } = input.experimentSdk;
    const { result, ready, registry, hook, keyProperty, keyOnReady, userContext } = this.preset;
    // An SDK that logs its evaluations is read from its events: nothing to watch in the page.
    if (ready === undefined) return;
    await context.exposeBinding(BINDING, (_source, message: ExperimentSdkMessage) => this.note(message));
    const config: WatchConfig = {
      binding: BINDING,
      global,
      init,
      evaluate,
      registry: registry ?? null,
      keyProperty: keyProperty ?? null,
      keyOnReady: keyOnReady ?? null,
      userContext: userContext ?? null,
      ready,
      hook: hook ?? null,
      flush: input.experimentSdk.exposures === null ? null : (this.preset.exposures?.flush ?? null),
      track: input.experimentSdk.exposures === null ? [] : (this.preset.exposures?.track ?? []),
      knownEvents: input.experimentSdk.exposures === null ? null : (this.preset.exposures?.knownEvents ?? null),
      variation: result.variation,
      reason: result.reason,
      rule: result.rule ?? [],
    };
    await context.addInitScript(watchExperimentSdk, config);
  }

  async attach(page: Page): Promise<void> {
    const exposures = this.gathering.input.experimentSdk?.exposures;
    if (exposures) this.exposureRequests.watch(page, exposures);
    const logged = this.preset?.logged;
    if (logged !== undefined) {
      // The values' answer, or their request failing (PostHog aborts it after 3 s): either way the SDK is done waiting.
      // An answer is final; a failure (a navigation cuts the request too) gives way to a later request's outcome.
      const valuesOver = (request: Request, failure: string | null) => {
        if (!logged.values.test(request.url())) return;
        this.valuesPending = Math.max(0, this.valuesPending - 1);
        const answered = this.valuesAtMs !== null && this.valuesFailed === null;
        if (!this.gathering.observing || answered) return;
        this.valuesAtMs = this.gathering.sinceStart(Date.now());
        this.valuesFailed = failure;
        this.gathering.changed.notify();
        // Past its batch interval with nothing queued, the SDK sends nothing more: look again then.
        setTimeout(() => this.gathering.changed.notify(), logged.flushMs);
      };
      page.on("request", (request) => {
        if (logged.values.test(request.url())) this.valuesPending += 1;
      });
      page.on("response", (response) => valuesOver(response.request(), null));
      page.on("requestfailed", (request) => valuesOver(request, request.failure()?.errorText ?? "failed"));
    }
    const pattern = this.preset?.keyInUrl;
    if (pattern === undefined) return;
    const entries = new Map<Request, ValuesRequest>();
    const eventsPattern = this.preset?.unwatched?.keyInEventsUrl;
    page.on("request", (request) => {
      if (!this.gathering.observing) return;
      const eventsKey = eventsPattern?.exec(request.url())?.[1];
      if (eventsKey !== undefined) {
        this.eventsRequests.push({ key: decodeURIComponent(eventsKey), atMs: this.gathering.sinceStart(Date.now()) });
        this.gathering.changed.notify();
        const unwatched = this.preset!.unwatched!;
        setTimeout(() => this.gathering.changed.notify(), unwatched.flushMs);
      }
      const key = pattern.exec(request.url())?.[1];
      if (key === undefined) return;
      const entry = {
        key: decodeURIComponent(key),
        atMs: this.gathering.sinceStart(Date.now()),
        endedAtMs: null,
        failure: null,
      };
      this.valuesRequests.push(entry);
      entries.set(request, entry);
      this.gathering.changed.notify();
    });
    const ended = (request: Request, failure: string | null) => {
      const entry = entries.get(request);
      if (entry === undefined || entry.endedAtMs !== null) return;
      entry.endedAtMs = this.gathering.sinceStart(Date.now());
      entry.failure = failure;
      this.gathering.changed.notify();
      // Past the SDK's flush interval with nothing sent, it had nothing queued: look again then.
      const unwatched = this.preset?.unwatched;
      if (unwatched !== undefined) setTimeout(() => this.gathering.changed.notify(), unwatched.flushMs);
    };
    page.on("response", (response) => ended(response.request(), null));
    page.on("requestfailed", (request) => ended(request, request.failure()?.errorText ?? "failed"));
  }

  /** Whether the client is read from the wire: the SDK can be (`unwatched`), its watch saw no client, and the page asked for values or sent its events. */
  private seenOnTheWireAlone(): boolean {
    return (
      this.preset?.unwatched !== undefined &&
      this.inits.length === 0 &&
      (this.valuesRequests.length > 0 || this.eventsRequests.length > 0)
    );
  }

  /**
   * Settled, for a client seen on the wire alone, once its requests for values ended, and then a
   * request with its events was answered, or its flush interval passed without one; a client
   * whose every request failed has nothing to send. A client that asked for no values (the page
   * gave them) is timed from its first request with events (LaunchDarkly's diagnostics, sent as it
   * is made) instead.
   */
  private settledOnTheWire(flushMs: number): boolean {
    const { gathering } = this;
    const current = <T extends { atMs: number }>(items: T[]) =>
      gathering.reloadAtMs === null ? items : this.sinceReload(items);
    const requests = current(this.valuesRequests);
    if (requests.some((request) => request.endedAtMs === null)) return false;
    if (requests.length > 0 && requests.every((request) => request.failure !== null)) return true;
    const sinceMs =
      requests.length > 0
        ? Math.max(...requests.map((request) => request.endedAtMs!))
        : (current(this.eventsRequests)[0]?.atMs ?? null);
    if (sinceMs === null) return true;
    return gathering.sinceStart(Date.now()) - sinceMs >= flushMs || this.exposureRequests.answeredAfter(sinceMs);
  }

  /**
   * Settled once every client made has finished its initialisation: the page evaluates its flags
   * then; and, for an SDK whose exposures are read, once the page's document had its clients send
   * their events after its last evaluation, and every request with exposures was answered. An SDK
   * that logs its evaluations is settled once its values came and a batch it sent after that was
   * answered (the evaluations made as they came left in it), or its batch interval
   * passed since without one (it had none queued). A page that bootstrapped the SDK with its values
   * (PostHog then asks for none): settled once a batch with an evaluation answered from them was
   * answered, no request for values waiting.
   */
  isSettled(): boolean {
    const logged = this.preset?.logged;
    // Once the page was loaded again, the clients its reload made.
    const inits = this.gathering.reloadAtMs === null ? this.inits : this.sinceReload(this.inits);
    const unwatched = this.preset?.unwatched;
    if (unwatched !== undefined && this.seenOnTheWireAlone()) return this.settledOnTheWire(unwatched.flushMs);
    if (logged === undefined)
      return (
        inits.every((init) => init.readyAtMs !== null && (this.fetching.get(init) ?? 0) === 0) && this.exposuresSent()
      );
    if (this.analyticsInits.length === 0) return true;
    const { valuesAtMs } = this;
    if (valuesAtMs === null) return this.valuesPending === 0 && this.bootstrappedEvaluationSent(logged);
    const sinceValues = this.gathering.sinceStart(Date.now()) - valuesAtMs;
    return (
      sinceValues >= logged.flushMs ||
      this.network.collect.some((request) => request.atMs > valuesAtMs && request.status !== null)
    );
  }

  /**
   * Whether the shown document's evaluations were all followed by a flush, and every request with
   * exposures ended; where the exposure reaches the SDK's queue on its own time (`sentWithinMs`),
   * also, while a flag served after the last request with an exposure awaits its own, once that
   * long passed since the last flush began.
   */
  private exposuresSent(): boolean {
    const exposures = this.preset?.exposures;
    if (!this.gathering.input.experimentSdk?.exposures || exposures === undefined) return true;
    const shown = this.lastDocument === null ? undefined : this.flushes.get(this.lastDocument);
    if (shown === undefined) return this.exposureRequests.allEnded();
    if (shown.flushed < shown.evaluated || !this.exposureRequests.allEnded()) return false;
    const { sentWithinMs } = exposures;
    const { flushedAtMs } = shown;
    if (sentWithinMs === undefined || flushedAtMs === null) return true;
    // A fallback logs no exposure: only a served flag awaits one.
    const lastExposureAtMs = this.exposureRequests.lastCarryingExposureAtMs(exposures.read);
    const { result } = this.preset!;
    const awaiting = this.evaluations.some(
      (evaluation) =>
        (lastExposureAtMs === null || evaluation.atMs > lastExposureAtMs) && wasServed(evaluation, result),
    );
    return !awaiting || this.gathering.sinceStart(Date.now()) - flushedAtMs >= sentWithinMs;
  }

  /** Whether an answered collect request carried an evaluation the SDK answered from the values the page bootstrapped it with. */
  private bootstrappedEvaluationSent(logged: NonNullable<ExperimentPreset["logged"]>): boolean {
    return this.network.collect.some(
      (request) =>
        request.status !== null &&
        request.events.some(
          ({ raw }) => textAt(raw, logged.name) === logged.event && answeredFromBootstrap(raw, logged),
        ),
    );
  }

  /** When the SDK's first request with an exposure of one of `flags` left, before the page's reload; null when none did. */
  exposedAtMs(flags: readonly string[]): number | null {
    const read = this.preset?.exposures?.read;
    return read === undefined ? null : this.exposureRequests.firstCarryingAtMs(read, flags);
  }

  /** Whether the SDK logged an exposure of one of `flags` to its own endpoint: before the page's reload, or since it (`sinceReload`). */
  exposed(flags: readonly string[], sinceReload: boolean): boolean {
    const read = this.preset?.exposures?.read;
    return read !== undefined && this.exposureRequests.carries(read, flags, sinceReload);
  }

  activity(): number {
    const values = this.valuesAtMs === null ? 0 : 1;
    const ready = this.inits.filter((init) => init.readyAtMs !== null).length;
    const valuesEnded = this.valuesRequests.filter((request) => request.endedAtMs !== null).length;
    return (
      values +
      this.inits.length +
      ready +
      this.evaluations.length +
      this.exposureRequests.count +
      this.valuesRequests.length +
      valuesEnded +
      this.eventsRequests.length
    );
  }

  async finish(): Promise<Pick<PageArtifacts, "experimentSdk">> {
    if (this.preset === null) return { experimentSdk: null };
    const { logged, result } = this.preset;
    if (logged !== undefined) return { experimentSdk: this.loggedBy(logged, result) };
    const readers = this.gathering.input.experimentSdk?.exposures ? this.preset.exposures : undefined;
    const { inits, evaluations } =
      this.seenOnTheWireAlone() && readers !== undefined ? this.onTheWire(readers.read) : this.watched();
    const reloaded = this.gathering.reloadAtMs !== null;
    const exposures = readers && {
      exposures: this.exposureRequests.exposures(readers.read, evaluations),
      ...(reloaded
        ? { reloadExposures: this.exposureRequests.exposures(readers.read, this.sinceReload(this.evaluations), true) }
        : {}),
      tracked: this.exposureRequests.tracked(readers.tracked),
      calls: this.gathering.beforeReload(this.calls),
    };
    return { experimentSdk: { inits, evaluations, ...exposures } };
  }

  /** The clients the page's watch saw, before any reload, and their evaluations. */
  private watched(): Pick<ExperimentSdkSeen, "inits" | "evaluations"> {
    // A client whose key was never read (it never got ready) has the one its request for values carried.
    const unreadKeys = this.valuesRequests
      .map((request) => request.key)
      .filter((key) => !this.inits.some((init) => init.key === key));
    const unread = this.inits.filter((init) => init.key === null);
    for (const [index, init] of unread.entries()) init.key = unreadKeys[index] ?? null;
    return {
      inits: this.gathering.beforeReload(this.inits),
      evaluations: this.gathering.beforeReload(this.evaluations),
    };
  }

  /**
   * A client seen on the wire alone, before any reload (`clientsOnTheWire`); each exposure it
   * logged is an evaluation, with the reason it carries.
   */
  private onTheWire(read: (payload: unknown) => LoggedExposure[]): Pick<ExperimentSdkSeen, "inits" | "evaluations"> {
    const inits = this.clientsOnTheWire();
    const readyAtMs = inits.find((init) => init.valuesFailed === undefined)?.readyAtMs ?? null;
    const evaluations = this.exposureRequests.found(read).map(
      ({ found, atMs }): FlagEvaluation => ({
        method: SEEN_ON_THE_WIRE.evaluation,
        flag: found.flag,
        variation: found.variation,
        reason: found.reason ?? null,
        clientReady: readyAtMs !== null && atMs >= readyAtMs,
        atMs,
      }),
    );
    return { inits, evaluations };
  }

  /**
   * The clients seen on the wire alone, before any reload: one made by each request for its
   * values, ready when it was answered; or, where the page asked for no values (it gave the client
   * them), one per key its requests with events carried, ready from the start.
   */
  private clientsOnTheWire(): ExperimentSdkInit[] {
    const { gathering } = this;
    const valuesRequests = gathering.beforeReload(this.valuesRequests);
    if (valuesRequests.length > 0)
      return valuesRequests.map(({ key, atMs, endedAtMs, failure }) => ({
        method: SEEN_ON_THE_WIRE.init,
        key,
        atMs,
        readyAtMs: endedAtMs,
        ...(failure === null ? {} : { valuesFailed: failure }),
      }));
    const eventsRequests = gathering.beforeReload(this.eventsRequests);
    return [...new Set(eventsRequests.map((request) => request.key))].map((key) => ({
      method: SEEN_ON_THE_WIRE.bootstrapped,
      key,
      atMs: eventsRequests.find((request) => request.key === key)!.atMs,
      readyAtMs: 0,
    }));
  }

  /** The items made since the page's reload. */
  private sinceReload<T extends { atMs: number }>(items: readonly T[]): T[] {
    const before = this.gathering.beforeReload(items);
    return items.filter((item) => !before.includes(item));
  }

  /** What an SDK that logs its evaluations did: the analytics SDK's inits, ready once its values came, and each evaluation its collect requests carried, which is its exposure too. */
  private loggedBy(logged: NonNullable<ExperimentPreset["logged"]>, result: EvaluationShape): ExperimentSdkSeen {
    const { gathering, valuesAtMs } = this;
    const inits = this.analyticsInits.map(({ method, key, at }) => ({
      method,
      key,
      atMs: gathering.sinceStart(at),
      readyAtMs: valuesAtMs,
      ...(this.valuesFailed === null ? {} : { valuesFailed: this.valuesFailed }),
    }));
    const firstSending = firstSendings();
    const exposures: SdkExposure[] = [];
    const evaluations = this.network.collect.flatMap((request: CollectRequest) =>
      request.events.flatMap(({ raw }): FlagEvaluation[] => {
        const flag = textAt(raw, logged.flag);
        if (textAt(raw, logged.name) !== logged.event || flag === null || !firstSending(raw)) return [];
        const madeAt = madeAtEpochMs(raw);
        const atMs = madeAt === null ? request.atMs : gathering.sinceStart(madeAt);
        const variation = textAt(raw, result.variation);
        // Each evaluation it logs is its exposure too.
        const sent = { atMs: request.atMs, status: request.status, failure: request.failure };
        exposures.push({ flag, variation, visitor: textAt(raw, logged.visitor), atMs, request: sent });
        return [
          {
            method: logged.event,
            flag,
            variation,
            reason: textAt(raw, result.reason),
            // The SDK logs no evaluation before its values are in, but one its page bootstrapped it with.
            clientReady: true,
            ...(answeredFromBootstrap(raw, logged) ? { bootstrapped: true as const } : {}),
            atMs,
          },
        ];
      }),
    );
    return {
      inits: gathering.beforeReload(inits),
      evaluations: gathering.beforeReload(evaluations),
      // Its goals are the analytics SDK's own calls: an identify merges the ids they carry.
      exposures: gathering.beforeReload(exposures),
    };
  }

  private note(message: ExperimentSdkMessage): void {
    if (message.type === "evaluation" || message.type === "tracked" || message.type === "flushed")
      this.countFlush(message);
    if (!this.gathering.observing) return;
    const atMs = this.gathering.sinceStart(message.at);
    if (message.type === "init") {
      const init = { method: message.method, key: message.key, atMs, readyAtMs: null };
      this.inits.push(init);
      this.initsById.set(message.id, init);
    } else if (message.type === "key") {
      const init = this.initsById.get(message.init);
      if (init !== undefined) init.key ??= message.key;
    } else if (message.type === "ready") {
      const init = this.initsById.get(message.init);
      if (init !== undefined) init.readyAtMs = atMs;
    } else if (message.type === "fetching" || message.type === "fetched") {
      const init = this.initsById.get(message.init);
      const step = message.type === "fetching" ? 1 : -1;
      if (init !== undefined) this.fetching.set(init, Math.max(0, (this.fetching.get(init) ?? 0) + step));
    } else if (message.type === "evaluation") {
      const { type: _, at: __, document: ___, ...evaluation } = message;
      this.evaluations.push({ ...evaluation, atMs });
    } else if (message.type === "tracked") this.calls.push(this.toCall(message, atMs));
    this.gathering.changed.notify();
  }

  /** A call of the SDK's track methods, as the artifacts keep it. */
  private toCall(message: Extract<ExperimentSdkMessage, { type: "tracked" }>, atMs: number): CapturedCall {
    const { method, name, properties, url, refused } = message;
    return {
      kind: "track",
      method,
      name,
      properties,
      atMs,
      // The SDK's client was made: its methods were called on it.
      state: "direct",
      documentUrl: url,
      step: this.routes.stepAt(message.at),
      route: routeOf(url),
      sdk: "experiment",
      ...(refused === null ? {} : { refused }),
    };
  }

  /** Counts a document's evaluations and tracked events, and those its clients' events were sent after. */
  private countFlush(message: Extract<ExperimentSdkMessage, { document: string }>): void {
    const counts = this.flushes.get(message.document) ?? { evaluated: 0, flushed: 0, flushedAtMs: null };
    this.flushes.set(message.document, counts);
    this.lastDocument = message.document;
    if (message.type !== "flushed") {
      counts.evaluated += 1;
      return;
    }
    counts.flushed = Math.max(counts.flushed, message.through);
    counts.flushedAtMs = this.gathering.sinceStart(message.at);
    // Where the exposure reaches the SDK's queue on its own time, look again once it has surely left.
    const within = this.preset?.exposures?.sentWithinMs;
    if (within !== undefined) setTimeout(() => this.gathering.changed.notify(), within);
  }
}

/** Whether a logged evaluation was answered from the values the page bootstrapped the SDK with. */
export function answeredFromBootstrap(raw: unknown, logged: NonNullable<ExperimentPreset["logged"]>): boolean {
  const { bootstrapped } = logged;
  return (
    bootstrapped !== undefined &&
    textAt(raw, bootstrapped.withoutOwnValues) === "true" &&
    textAt(raw, bootstrapped.value) !== null
  );
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
  // Each document counts its evaluations and tracked events; the clients' events are sent once the task that made them ends.
  const documentId = `${Date.now()}-${Math.random()}`;
  let logged = 0;
  let flushing = false;
  const clients: Record<string, unknown>[] = [];
  const flushSoon = () => {
    const { flush } = config;
    if (flush === null || flushing) return;
    flushing = true;
    setTimeout(() => {
      flushing = false;
      const through = logged;
      const startedAt = Date.now();
      /** Calls `owner[name]`, what it returns as a promise; nothing where it is no function or throws. */
      const call = (owner: unknown, name: string) => {
        try {
          const method = (owner as Record<string, unknown> | null)?.[name];
          return Promise.resolve(typeof method === "function" ? method.call(owner) : undefined);
        } catch {
          return Promise.resolve();
        }
      };
      // `window.<path>`: one function of the page's; else each client's own method.
      const onWindow = flush.startsWith("window.") ? flush.slice("window.".length).split(".") : null;
      const sent =
        onWindow === null
          ? clients.map((client) => call(client, flush))
          : [
              call(
                onWindow
                  .slice(0, -1)
                  .reduce<unknown>((at, key) => (at as Record<string, unknown> | null)?.[key], window),
                onWindow.at(-1)!,
              ),
            ];
      const told = () => send({ type: "flushed", document: documentId, through, at: startedAt });
      Promise.allSettled(sent).then(told, told);
    }, 0);
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
