import type {
  ApiArtifacts,
  ApiRecentEvent,
  CapturedCall,
  CollectRequest,
  Delivery,
  PageArtifacts,
  PageReload,
  SdkExposure,
} from "./types.js";
import type { AuditSpec } from "../audit-spec/schema.js";

/**
 * Matches calls to the collect requests that carried them. A call is carried by an event that
 * holds its token (the event name of a `track`, the user id of an `identify`) among its strings;
 * each event carries one call, in order. When the service's recent events were read, they have
 * the last word: a call counts as accepted only if the service lists it (ingestion). The run
 * reconciles each page's calls once, and every later reader takes a call's delivery from it.
 */

/** A call with what happened to it, as the run judged it. */
export interface JudgedCall extends CapturedCall {
  delivery: Delivery;
  /** Whether the service lists the call among its recent events; null when that was not checked. */
  ingested: boolean | null;
  /** Where the request that carried the call is in its page's `collect` (no copy of it); null when none did. */
  request: number | null;
  /** On a call of the experimentation SDK: the request of its own that carried it (`experimentSdk.tracked`); absent when none did. */
  sentWith?: SdkExposure["request"];
}

/** A page × viewport's artifacts whose calls carry their deliveries, its reload's too: what the checks, the results and the report read. */
export interface JudgedPage extends Omit<PageArtifacts, "calls" | "reload"> {
  calls: JudgedCall[];
  reload?: JudgedReload | null;
}

/** A page's reload whose calls carry their deliveries: as its collector answered them (the audit's own, for a reload is no visit). */
export interface JudgedReload extends Omit<PageReload, "calls"> {
  calls: JudgedCall[];
}

/** The string that identifies a call inside a payload; null when nothing does. */
export function callToken(call: CapturedCall): string | null {
  if (call.kind === "track") return call.name;
  if (call.name !== null) return call.name;
  // A page view without a name (Segment's page()) is carried by an event of type "page".
  if (call.kind === "page") return call.method.split(".").at(-1)!;
  const attributes = call.properties !== null && typeof call.properties === "object" ? call.properties : {};
  const firstString = Object.values(attributes).find((value) => typeof value === "string");
  return typeof firstString === "string" ? firstString : null;
}

/** Every call with the delivery its collect requests show, ingestion not checked; lost calls and unmatched calls are `dropped`. */
export function matchDeliveries(calls: readonly CapturedCall[], requests: readonly CollectRequest[]): JudgedCall[] {
  const unclaimed = requests.flatMap((request, index) =>
    request.events.map((event) => ({ request, index, strings: event.strings })),
  );
  const match = (call: CapturedCall): JudgedCall => {
    const token = callToken(call);
    if (call.state === "lost" || token === null) return { ...call, delivery: "dropped", ingested: null, request: null };
    const index = unclaimed.findIndex((event) => event.strings.includes(token));
    if (index < 0) return { ...call, delivery: "dropped", ingested: null, request: null };
    const carrier = unclaimed.splice(index, 1)[0]!;
    return { ...call, delivery: deliveryOf(carrier.request), ingested: null, request: carrier.index };
  };
  // Calls known by an event name claim their events first, then those known by a user id (which
  // every event sent after an identify carries too, and PostHog may send them before its
  // $identify), then the rest: an attribute value (the token of `people.set({ plan: "pro" })`) may
  // stand in another call's event as well.
  const claimOrder = (call: CapturedCall) => (call.name === null ? 2 : call.kind === "identify" ? 1 : 0);
  const judged: JudgedCall[] = [];
  for (const turn of [0, 1, 2])
    calls.forEach((call, index) => {
      if (claimOrder(call) === turn) judged[index] = match(call);
    });
  return judged;
}

/**
 * The delivery of every page's calls. With the events the service ingested (null when its recent
 * events were not read), a call the collector accepted — or whose request the browser never
 * showed, as beacons sent on unload may be — is `accepted` only when a listed event of the same
 * kind and name (user id for an identify) vouches for it, else `dropped`; a page view keeps the
 * collector's answer, since the service lists no page views. Each listed event
 * vouches for one call, pages in order; lost and rejected calls stay as they are. A reload's calls
 * are delivered as its collector answered (the audit intercepts them: the service never sees them).
 */
export function reconcileDeliveries(
  pages: readonly PageArtifacts[],
  ingested: readonly ApiRecentEvent[] | null,
): JudgedPage[] {
  const unclaimed = ingested === null ? null : [...ingested];
  return pages.map((page) => ({
    ...page,
    reload: page.reload
      ? { ...page.reload, calls: matchDeliveries(page.reload.calls, page.reload.collect) }
      : (page.reload ?? null),
    experimentSdk: withoutCalls(page.experimentSdk),
    calls: withExperimentSdkCalls(
      page.experimentSdk,
      matchDeliveries(page.calls, page.collect).map((call): JudgedCall => {
        if (
          unclaimed === null ||
          // The service lists track and identify events only: nothing it lists can vouch for a page view.
          call.kind === "page" ||
          call.state === "lost" ||
          call.delivery === "rejected" ||
          call.delivery === "intercepted"
        )
          return call;
        const index = unclaimed.findIndex((event) => event.kind === call.kind && event.name === call.name);
        if (index < 0) return { ...call, delivery: "dropped", ingested: false };
        unclaimed.splice(index, 1);
        return { ...call, delivery: "accepted", ingested: true };
      }),
    ),
  }));
}

/**
 * The page's calls with those it made through the experimentation SDK, in time order, each
 * delivered as the SDK's own request that carried it was answered: the first of its name the
 * requests carried, each carrying one call. One the SDK refused to send, or none carried, is
 * `dropped`. The service never sees them: ingestion does not judge them.
 */
function withExperimentSdkCalls(seen: PageArtifacts["experimentSdk"], judged: JudgedCall[]): JudgedCall[] {
  const calls = seen?.calls ?? [];
  if (calls.length === 0) return judged;
  const unclaimed = [...(seen?.tracked ?? [])];
  const delivered = calls.map((call): JudgedCall => {
    const index = call.refused === undefined ? unclaimed.findIndex((event) => event.name === call.name) : -1;
    if (index < 0) return { ...call, delivery: "dropped", ingested: null, request: null };
    const { request } = unclaimed.splice(index, 1)[0]!;
    return {
      ...call,
      delivery: statusDelivery(request.status, false),
      ingested: null,
      request: null,
      sentWith: request,
    };
  });
  return [...judged, ...delivered].sort((a, b) => a.atMs - b.atMs);
}

/** What the experimentation SDK saw, its calls now among the page's. */
function withoutCalls(seen: PageArtifacts["experimentSdk"]): JudgedPage["experimentSdk"] {
  if (seen === null || seen === undefined) return seen;
  const { calls: _, ...rest } = seen;
  return rest;
}

/** The collect request that carried a call; null when none did. */
export function carrierOf(page: JudgedPage, call: JudgedCall): CollectRequest | null {
  return call.request === null ? null : page.collect[call.request]!;
}

/**
 * When a call left the page: the time of the collect request that carried it, or of the
 * experimentation SDK's own request that did; null when no request carried it.
 */
export function sentAtMs(page: JudgedPage, call: JudgedCall): number | null {
  return call.request === null ? (call.sentWith?.atMs ?? null) : (page.collect[call.request]?.atMs ?? null);
}

/**
 * The track and identify events the service lists as received since the run's API gather began
 * (by its own clock when it said; an event without a time counts); null when the recent events
 * were not read.
 */
export function ingestedEvents(api: ApiArtifacts | null): ApiRecentEvent[] | null {
  const listed = api?.recentEvents?.data;
  if (!api || !listed) return null;
  const since = Date.parse(api.startedAt);
  return listed.filter((event) => event.kind !== null && (event.receivedAtMs === null || event.receivedAtMs >= since));
}

/** Why ingestion could not be verified although the spec asks for it (`recentEventsPath`); null when it was, or is not asked for. */
export function ingestionUnverified(spec: AuditSpec, api: ApiArtifacts | null): string | null {
  // Intercepted calls never reach the service: there is no ingestion to verify.
  if (!spec.api?.recentEventsPath || spec.traffic.collect === "intercept" || ingestedEvents(api) !== null) return null;
  if (!api?.keySet) return `no API key is set in ${spec.api.keyEnv}`;
  const failure = api.recentEvents?.failure ?? api.projects?.failure;
  if (failure) return `the service API failed (${failure.detail})`;
  return "the project is not in the service's project list";
}

function deliveryOf(request: CollectRequest): Delivery {
  return statusDelivery(request.status, request.intercepted);
}

/** The delivery of a call whose request got `status` (null: no answer), answered by the audit itself when `intercepted`. */
function statusDelivery(status: number | null, intercepted: boolean): Delivery {
  if (status === null) return "dropped";
  if (status < 200 || status >= 300) return "rejected";
  return intercepted ? "intercepted" : "accepted";
}

/** True when every call that can still be delivered has an answered request. */
export function deliverySettled(calls: readonly CapturedCall[], requests: readonly CollectRequest[]): boolean {
  const inFlight = requests.some((request) => request.status === null && request.failure === null);
  if (inFlight) return false;
  return matchDeliveries(calls, requests).every(
    (call) => call.state === "lost" || callToken(call) === null || call.request !== null,
  );
}
