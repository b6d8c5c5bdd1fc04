import type { ApiArtifacts, ApiRecentEvent, CapturedCall, CollectRequest, Delivery, PageArtifacts } from "./types.js";
import type { AuditSpec } from "../spec/schema.js";

/**
 * Matches calls to the collect requests that carried them. A call is carried by an event that
 * holds its token (the event name of a `track`, the user id of an `identify`) among its strings;
 * each event carries one call, in order. When the service's recent events were read, they have
 * the last word: a call counts as accepted only if the service lists it (ingestion).
 */

/** What happened to one call, and the request that carried it. */
export interface CallDelivery {
  call: CapturedCall;
  delivery: Delivery;
  /** The collect request that carried the call; null when none did. */
  request: CollectRequest | null;
  /** Whether the service lists the call among its recent events; null when that was not checked. */
  ingested: boolean | null;
}

/**
 * A call's delivery as the run judged it once and its results keep it, beside its page's `calls`
 * (same order): no copy of the call or of its request, so it is as shareable as the page.
 */
export interface RecordedDelivery {
  delivery: Delivery;
  /** Whether the service lists the call among its recent events; null when that was not checked. */
  ingested: boolean | null;
  /** Where the request that carried the call is in its page's `collect`; null when none did. */
  request: number | null;
}

/** The string that identifies a call inside a payload; null when nothing does. */
export function callToken(call: CapturedCall): string | null {
  if (call.kind === "track") return call.name;
  if (call.name !== null) return call.name;
  const attributes = call.properties !== null && typeof call.properties === "object" ? call.properties : {};
  const firstString = Object.values(attributes).find((value) => typeof value === "string");
  return typeof firstString === "string" ? firstString : null;
}

/** Pairs every call with its delivery; lost calls and unmatched calls are `dropped`. */
export function matchDeliveries(calls: readonly CapturedCall[], requests: readonly CollectRequest[]): CallDelivery[] {
  const unclaimed = requests.flatMap((request) => request.events.map((event) => ({ request, strings: event.strings })));
  const match = (call: CapturedCall): CallDelivery => {
    const token = callToken(call);
    if (call.state === "lost" || token === null) return { call, delivery: "dropped", request: null, ingested: null };
    const index = unclaimed.findIndex((event) => event.strings.includes(token));
    if (index < 0) return { call, delivery: "dropped", request: null, ingested: null };
    const { request } = unclaimed.splice(index, 1)[0]!;
    return { call, delivery: deliveryOf(request), request, ingested: null };
  };
  // Calls known by an event name or a user id claim their events first: an attribute value (the
  // token of `people.set({ plan: "pro" })`) may stand in another call's event as well.
  const named = calls.map((call) => (call.name === null ? null : match(call)));
  return calls.map((call, index) => named[index] ?? match(call));
}

/**
 * The delivery of every page's calls. With the events the service ingested (null when its recent
 * events were not read), a call the collector accepted — or whose request the browser never
 * showed, as beacons sent on unload may be — is `accepted` only when a listed event of the same
 * kind and name (user id for an identify) vouches for it, else `dropped`. Each listed event
 * vouches for one call, pages in order; lost and rejected calls stay as they are.
 */
export function reconcileDeliveries(pages: readonly PageArtifacts[], ingested: readonly ApiRecentEvent[] | null): RecordedDelivery[][] {
  const unclaimed = ingested === null ? null : [...ingested];
  return pages.map((page) =>
    matchDeliveries(page.calls, page.collect).map((match): RecordedDelivery => {
      const recorded = { delivery: match.delivery, ingested: null, request: match.request === null ? null : page.collect.indexOf(match.request) };
      if (unclaimed === null || match.call.state === "lost" || match.delivery === "rejected" || match.delivery === "intercepted") return recorded;
      const index = unclaimed.findIndex((event) => event.kind === match.call.kind && event.name === match.call.name);
      if (index < 0) return { ...recorded, delivery: "dropped", ingested: false };
      unclaimed.splice(index, 1);
      return { ...recorded, delivery: "accepted", ingested: true };
    }),
  );
}

/** A page's calls with the deliveries recorded for them, each beside its call and its request. */
export function callDeliveries(page: PageArtifacts, recorded: readonly RecordedDelivery[]): CallDelivery[] {
  return page.calls.map((call, index) => {
    const { delivery, ingested, request } = recorded[index]!;
    return { call, delivery, ingested, request: request === null ? null : page.collect[request]! };
  });
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
  if (request.status === null) return "dropped";
  if (request.status < 200 || request.status >= 300) return "rejected";
  return request.intercepted ? "intercepted" : "accepted";
}

/** True when every call that can still be delivered has an answered request. */
export function deliverySettled(calls: readonly CapturedCall[], requests: readonly CollectRequest[]): boolean {
  const inFlight = requests.some((request) => request.status === null && request.failure === null);
  if (inFlight) return false;
  return matchDeliveries(calls, requests).every(
    (match) => match.call.state === "lost" || callToken(match.call) === null || match.request !== null,
  );
}
