import type { CapturedCall, CollectRequest, Delivery } from "./artifacts.js";

/**
 * Matches calls to the collect requests that carried them. A call is carried by an event that
 * holds its token (the event name of a `track`, the user id of an `identify`) among its strings;
 * each event carries one call, in order.
 */

/** What happened to one call, and the request that carried it. */
export interface CallDelivery {
  call: CapturedCall;
  delivery: Delivery;
  /** The collect request that carried the call; null when none did. */
  request: CollectRequest | null;
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
  return calls.map((call) => {
    const token = callToken(call);
    if (call.state === "lost" || token === null) return { call, delivery: "dropped", request: null };
    const index = unclaimed.findIndex((event) => event.strings.includes(token));
    if (index < 0) return { call, delivery: "dropped", request: null };
    const { request } = unclaimed.splice(index, 1)[0]!;
    return { call, delivery: deliveryOf(request), request };
  });
}

function deliveryOf(request: CollectRequest): Delivery {
  if (request.status === null) return "dropped";
  return request.status >= 200 && request.status < 300 ? "accepted" : "rejected";
}

/** True when every call that can still be delivered has an answered request. */
export function deliverySettled(calls: readonly CapturedCall[], requests: readonly CollectRequest[]): boolean {
  const inFlight = requests.some((request) => request.status === null && request.failure === null);
  if (inFlight) return false;
  return matchDeliveries(calls, requests).every(
    (match) => match.call.state === "lost" || callToken(match.call) === null || match.request !== null,
  );
}
