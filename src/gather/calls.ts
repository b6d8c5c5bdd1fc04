import type { CapturedCall, KeySighting, PageArtifacts } from "../artifacts/types.js";
import { deliverySettled } from "../artifacts/delivery.js";
import { globToRegExpSource } from "../url/glob.js";
import { routeOf } from "../url/route.js";
import { withCallsOnTheWire } from "./calls-on-the-wire.js";
import { carriedCalls, type PlaceAt } from "./carried-calls.js";
import { recoverLostCalls, type MissingGlobalRead } from "./lost-calls.js";
import type { NetworkCapture } from "./network.js";
import { placeOf, withPageViews } from "./page-views.js";
import type { Gathering, GathererPart } from "./part.js";
import { installRecorder, watchedMethods, type RecorderMessage } from "./recorder.js";
import { toCall } from "./recorded-call.js";
import type { RouteWatch } from "./routes.js";

const BINDING = "__setupAuditRecord";

/** An init call of the SDK: its method, the key it installs, when (epoch milliseconds). */
export interface SdkInitCall {
  method: string;
  key: string;
  at: number;
}

/** Any key an init call installs, the spec's or not: sdk.key names a wrong one, `init` learns it. */
export function initSightings(inits: readonly SdkInitCall[]): KeySighting[] {
  return inits.map(({ key, method }) => ({ key, where: "init", detail: method }));
}

/**
 * The calls part: what the recorder in the page reports (the SDK's readiness, every call on its
 * global, the reads of a global not there yet), and the calls the page made outside it, read from
 * the collect requests: all of them when they could not be watched.
 */
export class CallsPart implements GathererPart {
  /** A page never opened made no call, and its SDK was never ready. */
  static empty(): Pick<PageArtifacts, "sdkReadyAtMs" | "callsFromNetwork" | "calls"> {
    return { sdkReadyAtMs: null, callsFromNetwork: null, calls: [] };
  }

  /** The calls watched on the SDK's global. */
  readonly recorded: CapturedCall[] = [];
  /** Each init call the page made on the SDK (its method, the key it installs, epoch milliseconds). */
  readonly inits: SdkInitCall[] = [];
  /** When the SDK said it was ready (epoch milliseconds); null until then. */
  sdkReadyAt: number | null = null;
  /** True once the page assigned the SDK's global. */
  globalAssigned = false;
  private readonly missingGlobalReads: MissingGlobalRead[] = [];
  private blind: PageArtifacts["callsFromNetwork"] = null;

  constructor(
    private readonly gathering: Gathering<"sdk" | "expected" | "consent">,
    private readonly routes: RouteWatch,
    private readonly network: NetworkCapture,
  ) {}

  async install(): Promise<void> {
    const { context, input } = this.gathering;
    await context.exposeBinding(BINDING, (_source, message: RecorderMessage) => this.note(message));
    await context.addInitScript(installRecorder, {
      binding: BINDING,
      global: input.sdk.global,
      methods: watchedMethods(input.sdk),
      ready: input.sdk.ready,
      scriptPattern: globToRegExpSource(input.sdk.script),
    });
  }

  activity(): number {
    return this.recorded.length;
  }

  /** True once every call has an answered request and each expected call was seen. */
  isSettled(): boolean {
    return deliverySettled(this.made(), this.network.collect) && this.expectedSeen();
  }

  /**
   * An SDK at work without its global (an npm install that keeps it in its own scope) shows
   * itself only through the events its collect requests carry.
   */
  atWorkWithoutGlobal(): boolean {
    return !this.globalAssigned && this.network.collect.some((request) => request.events.length > 0);
  }

  /**
   * Calls the page made: those watched on the SDK's global, with those its collect requests carried
   * that none of them explains (a call on the SDK's own instance); all carried ones when its calls
   * could not be watched.
   */
  made(): CapturedCall[] {
    const { input, page } = this.gathering;
    const carried = carriedCalls(this.network.collect, input.sdk, page.url(), this.placeAt);
    if (this.unwatched() !== null) return carried;
    // The page views the SDK sent are paired with the page's own page-view calls once it is done (withPageViews).
    return withCallsOnTheWire(
      this.recorded,
      carried.filter((call) => call.kind !== "page"),
    );
  }

  async finish(): Promise<Pick<PageArtifacts, "sdkReadyAtMs" | "callsFromNetwork" | "calls">> {
    const { context, input, sinceStart, page } = this.gathering;
    const lost = await recoverLostCalls(context, this.missingGlobalReads, input.sdk, sinceStart);
    // Page views show their URL, and those the SDK made on its own show at all, only in what it sent.
    const made = this.made();
    const calls =
      this.unwatched() === null
        ? withPageViews(made, this.network.collect, input.sdk, placeOf(this.gathering, this.routes, page))
        : made;
    return {
      sdkReadyAtMs: this.sdkReadyAt === null ? null : sinceStart(this.sdkReadyAt),
      callsFromNetwork: this.unwatched(),
      calls: [...this.gathering.beforeReload(calls), ...this.gathering.beforeReload(lost)].sort(
        (a, b) => a.atMs - b.atMs,
      ),
    };
  }

  /** The step and route current when a call the collect requests carried was made. */
  private readonly placeAt: PlaceAt = (madeAtWallMs, sentAtMs) => {
    const madeAt = madeAtWallMs ?? this.gathering.startedAt + sentAtMs;
    return { step: this.routes.stepAtWall(madeAt), route: this.routes.routeAt(this.routes.onPageClock(madeAt)) };
  };

  private note(message: RecorderMessage): void {
    if (message.type === "sdk-ready") this.sdkReadyAt ??= message.at;
    if (message.type === "global-assigned") this.globalAssigned = true;
    if (message.type === "missing-global") this.missingGlobalReads.push(message);
    if (message.type === "call" && this.gathering.observing)
      this.recorded.push({
        ...toCall(message, this.gathering.sinceStart, this.gathering.input.sdk),
        step: this.routes.stepAt(message.at),
        route: routeOf(message.url),
      });
    if (message.type === "blind") this.blind ??= { reason: message.reason, detail: message.detail };
    if (message.type === "init") this.inits.push({ method: message.method, key: message.key, at: message.at });
    this.gathering.changed.notify();
  }

  /** Why the calls were read from the collect requests; null when they were watched on the SDK. */
  private unwatched(): PageArtifacts["callsFromNetwork"] {
    return (
      this.blind ??
      (this.atWorkWithoutGlobal() ? { reason: "no-global", detail: `window.${this.gathering.input.sdk.global}` } : null)
    );
  }

  /**
   * Without a watched global (an npm install, a frozen API, or no SDK seen at all), and once a call
   * made outside it (on the SDK's instance) has shown, a call shows only once its batch leaves: an
   * expected one not seen yet may still come.
   */
  private expectedSeen(): boolean {
    // Without consent nothing is expected: what comes anyway is waited for by the quiet window.
    if (this.gathering.consentWithheld()) return true;
    const made = this.made();
    const watched = this.globalAssigned && this.blind === null;
    if (watched && !made.some((call) => call.seenOn === "network")) return true;
    const { expected } = this.gathering.input;
    return (
      expected.track.every((name) => made.some((call) => call.kind === "track" && call.name === name)) &&
      (!expected.identify || made.some((call) => call.kind === "identify"))
    );
  }
}
