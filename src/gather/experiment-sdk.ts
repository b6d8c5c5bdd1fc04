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
  type LoggedExposure,
  wasServed,
} from "../vendors/experiment-vendor.js";
import { EXPERIMENT_PRESETS } from "../vendors/experiment-presets.js";
import { madeAtEpochMs, textAt } from "../vendors/payload.js";
import type { SdkInitCall } from "./calls.js";
import { type ExperimentSdkMessage, type WatchConfig, watchExperimentSdk } from "./experiment-sdk-watch.js";
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

/** What a document's evaluations and tracked events were followed by (the counts are of them, in order). */
interface DocumentFlushes {
  evaluated: number;
  /** Through which of them the clients' events were sent since, and when the last flush began. */
  flushed: number;
  flushedAtMs: number | null;
  /** Through which of them the page's own clock passed `sentWithinMs` after their flush. */
  waited: number;
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
  /**
   * Per document: how many evaluations and tracked events it reported, through which of them the
   * clients' events were sent since, and when last; and through which of them the page's own clock
   * passed `sentWithinMs` since.
   */
  private readonly flushes = new Map<string, DocumentFlushes>();
  /** The document that reported last: the one the page shows. */
  private lastDocument: string | null = null;

  /** When the answer with a logging SDK's values came (the preset's `logged.values`); null until it did. */
  private valuesAtMs: number | null = null;
  /** When the last request for a logging SDK's values ended (again on an identify, say); null until one did. */
  private lastValuesAtMs: number | null = null;
  /** How the request for the values failed, when it did (a logging SDK's). */
  private valuesFailed: string | null = null;
  /** The requests for a logging SDK's values still waiting for their outcome. */
  private valuesPending = 0;
  /** The times (since the start, on the audit's clock) from which a wait on the page's own clock is over. */
  private readonly pageWaitsOver = new Set<number>();

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
      sentWithinMs: input.experimentSdk.exposures === null ? null : (this.preset.exposures?.sentWithinMs ?? null),
      pending: input.experimentSdk.exposures === null ? null : (this.preset.exposures?.pending ?? null),
      senderReady: input.experimentSdk.exposures === null ? null : (this.preset.exposures?.senderReady ?? null),
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
        if (!this.gathering.observing) return;
        const atMs = this.gathering.sinceStart(Date.now());
        this.lastValuesAtMs = atMs;
        this.gathering.changed.notify();
        // Past its batch interval with nothing queued, the SDK sends nothing more: look again then.
        this.waitOnBothClocks(atMs, logged.flushMs);
        if (this.valuesAtMs !== null && this.valuesFailed === null) return;
        this.valuesAtMs = atMs;
        this.valuesFailed = failure;
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
        const atMs = this.gathering.sinceStart(Date.now());
        this.eventsRequests.push({ key: decodeURIComponent(eventsKey), atMs });
        this.gathering.changed.notify();
        this.waitOnBothClocks(atMs, this.preset!.unwatched!.flushMs);
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
      if (unwatched !== undefined) this.waitOnBothClocks(entry.endedAtMs, unwatched.flushMs);
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
    const read = this.preset?.exposures?.read;
    return (
      this.passedOnBothClocks(sinceMs, flushMs) ||
      (read !== undefined && this.exposureRequests.carryingAnsweredAfter(sinceMs, read))
    );
  }

  /**
   * Looks at the page again once `ms` passed since `fromMs` on the audit's clock and on the page's:
   * the SDK's batches leave on the page's timers, which run late on a busy machine.
   */
  private waitOnBothClocks(fromMs: number, ms: number): void {
    const over = () => {
      this.pageWaitsOver.add(fromMs);
      this.gathering.changed.notify();
    };
    this.gathering.pageClock(ms).then(over);
    setTimeout(() => this.gathering.changed.notify(), ms);
  }

  /** Whether `ms` passed since `fromMs` on both clocks (a wait `waitOnBothClocks` began). */
  private passedOnBothClocks(fromMs: number, ms: number): boolean {
    return this.gathering.sinceStart(Date.now()) - fromMs >= ms && this.pageWaitsOver.has(fromMs);
  }

  /**
   * Settled once every client made has finished its initialisation: the page evaluates its flags
   * then; and, for an SDK whose exposures are read, once the page's document had its clients send
   * their events after its last evaluation, and every request with exposures was answered. An SDK
   * that logs its evaluations is settled once no request for its values waits (an identify asks
   * again) and, since the last ended, a batch with an evaluation it logged was answered (those made
   * as the values came leave in it), or its batch interval passed on both clocks without one (it had
   * none queued). A page that bootstrapped the SDK with its values (PostHog then asks for none):
   * settled once a batch with an evaluation answered from them was answered, no request for values
   * waiting.
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
    const { lastValuesAtMs } = this;
    if (this.valuesPending > 0) return false;
    if (lastValuesAtMs === null) return this.bootstrappedEvaluationSent(logged);
    return (
      this.passedOnBothClocks(lastValuesAtMs, logged.flushMs) ||
      this.network.collect.some(
        (request) =>
          request.atMs > lastValuesAtMs &&
          request.status !== null &&
          request.events.some(({ raw }) => textAt(raw, logged.name) === logged.event),
      )
    );
  }

  /**
   * Whether the shown document's evaluations were all followed by a flush, and every request with
   * exposures ended; where the exposure reaches the SDK's queue on its own time (`sentWithinMs`),
   * also, while a flag served in a variation no request carried an exposure of awaits its own, once
   * that long passed since the last flush began, on the audit's clock and on the page's: the SDK's way
   * to its queue runs on the page's timers, which run late on a busy machine.
   */
  private exposuresSent(): boolean {
    const exposures = this.preset?.exposures;
    if (!this.gathering.input.experimentSdk?.exposures || exposures === undefined) return true;
    const shown = this.lastDocument === null ? undefined : this.flushes.get(this.lastDocument);
    if (shown === undefined) return this.exposureRequests.allEnded();
    if (shown.flushed < shown.evaluated || !this.exposureRequests.allEnded()) return false;
    const { sentWithinMs } = exposures;
    const { flushedAtMs, waited } = shown;
    if (sentWithinMs === undefined || flushedAtMs === null) return true;
    // A fallback logs no exposure: only a served flag awaits one, until one of its variation was
    // logged (once per flag and variation: the SDK logs no second one).
    const { result } = this.preset!;
    const awaiting = this.evaluations.some(
      (evaluation) =>
        wasServed(evaluation, result) &&
        !this.exposureRequests.carriesVariation(exposures.read, evaluation.flag, evaluation.variation),
    );
    return (
      !awaiting || (this.gathering.sinceStart(Date.now()) - flushedAtMs >= sentWithinMs && waited >= shown.flushed)
    );
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
    if (
      message.type === "evaluation" ||
      message.type === "tracked" ||
      message.type === "flushed" ||
      message.type === "waited"
    )
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
    const counts = this.flushes.get(message.document) ?? { evaluated: 0, flushed: 0, flushedAtMs: null, waited: 0 };
    this.flushes.set(message.document, counts);
    this.lastDocument = message.document;
    if (message.type === "waited") {
      counts.waited = Math.max(counts.waited, message.through);
      this.gathering.changed.notify();
      return;
    }
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
