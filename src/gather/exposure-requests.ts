import type { Page, Request } from "playwright";
import type { FlagEvaluation, SdkExposure, SdkTrackedEvent } from "../artifacts/types.js";
import { urlMatcher } from "../url/glob.js";
import type { LoggedEvent, LoggedExposure } from "../vendors/experiment-vendor.js";
import type { Gathering } from "./part.js";
import { decodeCollectBody } from "./payload.js";

/** A request that carried the SDK's exposures, as far as it got, and what its payloads held. */
interface ExposureRequest {
  atMs: number;
  status: number | null;
  failure: string | null;
  payloads: unknown[];
}

/**
 * The requests that carry the experimentation SDK's exposures to its own endpoint
 * (`experimentSdk.exposures`), each with its decoded payloads and how it ended, and the exposures
 * and tracked events the vendor's readers find in them.
 */
export class ExposureRequests {
  private readonly requests: ExposureRequest[] = [];

  constructor(private readonly gathering: Gathering<"experimentSdk">) {}

  /**
   * Keeps each request to `glob` the page posts while it is observed, and how it ends. Every SDK
   * posts its events; a GET to a matching URL (a stream of the site's own) carries none.
   */
  watch(page: Page, glob: string): void {
    const isExposureUrl = urlMatcher(glob);
    const entries = new Map<Request, ExposureRequest>();
    page.on("request", (request) => {
      const url = request.url();
      if (request.method() !== "POST" || !isExposureUrl(url) || !this.gathering.observing) return;
      const { payloads } = decodeCollectBody(request.postDataBuffer(), url, request.headers()["content-encoding"]);
      const entry = { atMs: this.gathering.sinceStart(Date.now()), status: null, failure: null, payloads };
      this.requests.push(entry);
      entries.set(request, entry);
      this.gathering.changed.notify();
    });
    const ended = (request: Request, outcome: Pick<ExposureRequest, "status" | "failure">) => {
      const entry = entries.get(request);
      if (entry === undefined) return;
      Object.assign(entry, outcome);
      this.gathering.changed.notify();
    };
    page.on("response", (response) => ended(response.request(), { status: response.status(), failure: null }));
    page.on("requestfailed", (request) =>
      ended(request, { status: null, failure: request.failure()?.errorText ?? "failed" }),
    );
  }

  get count(): number {
    return this.requests.length;
  }

  /** Whether a request carried an exposure of `flag` (as `read` finds them) naming `variation`. */
  carriesVariation(read: (payload: unknown) => LoggedExposure[], flag: string, variation: string | null): boolean {
    return this.requests.some(({ payloads }) =>
      payloads.some((payload) =>
        read(payload).some((exposure) => exposure.flag === flag && exposure.variation === variation),
      ),
    );
  }

  /** Whether a request that left after `atMs` and carried an exposure (as `read` finds them) was answered. */
  carryingAnsweredAfter(atMs: number, read: (payload: unknown) => LoggedExposure[]): boolean {
    return this.requests.some((request) => request.atMs > atMs && request.status !== null && carriesAny(request, read));
  }

  /** Whether every request seen was answered or failed. */
  allEnded(): boolean {
    return this.requests.every((request) => request.status !== null || request.failure !== null);
  }

  /** When the first request before any reload that carried an exposure of one of `flags` left; null when none did. */
  firstCarryingAtMs(read: (payload: unknown) => LoggedExposure[], flags: readonly string[]): number | null {
    return this.found(read).find(({ found }) => flags.includes(found.flag))?.request.atMs ?? null;
  }

  /** Whether a request carried an exposure of one of `flags`: before any reload, or since it (`sinceReload`). */
  carries(read: (payload: unknown) => LoggedExposure[], flags: readonly string[], sinceReload: boolean): boolean {
    return this.found(read, sinceReload).some(({ found }) => flags.includes(found.flag));
  }

  /**
   * The exposures the requests before any reload (or since it: `sinceReload`) carried, as `read`
   * finds them in each payload; one that names the rule that served it names the variation the
   * evaluation with that rule gave.
   */
  exposures(
    read: (payload: unknown) => LoggedExposure[],
    evaluations: readonly FlagEvaluation[],
    sinceReload = false,
  ): SdkExposure[] {
    const variationOf = ({ flag, variation, rule }: LoggedExposure) =>
      variation ??
      evaluations.find((evaluation) => evaluation.flag === flag && rule !== undefined && evaluation.rule === rule)
        ?.variation ??
      null;
    return this.found(read, sinceReload).map(({ found, atMs, request }) => ({
      flag: found.flag,
      variation: variationOf(found),
      visitor: found.visitor,
      atMs,
      request,
    }));
  }

  /** The events the page tracked through the SDK that the requests before any reload carried, as `read` finds them. */
  tracked(read: (payload: unknown) => LoggedEvent[]): SdkTrackedEvent[] {
    return this.found(read).map(({ found: { name, visitor }, atMs, request }) => ({ name, visitor, atMs, request }));
  }

  /** What `read` finds in the payloads of the requests before any reload (or since it), each with its time (the SDK's, else its request's) and its request. */
  found<Found extends { madeAt: number | null }>(read: (payload: unknown) => Found[], sinceReload = false) {
    const before = this.gathering.beforeReload(this.requests);
    const requests = sinceReload ? this.requests.filter((request) => !before.includes(request)) : before;
    return requests.flatMap(({ payloads, ...request }) =>
      payloads.flatMap(read).map((found) => ({
        found,
        atMs: found.madeAt === null ? request.atMs : this.gathering.sinceStart(found.madeAt),
        request,
      })),
    );
  }
}

/** Whether one of the request's payloads holds an exposure, as `read` finds them. */
function carriesAny(request: ExposureRequest, read: (payload: unknown) => LoggedExposure[]): boolean {
  return request.payloads.some((payload) => read(payload).length > 0);
}
