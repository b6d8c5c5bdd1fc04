import { routeKey, routeOf, type RouteQuery } from "../url/route.js";
import type { CapturedCall, RouteVisit } from "./types.js";
import { messageIdOf } from "../vendors/payload.js";

/**
 * Page views and routes: the spans of a page's route visits, where a call or a page view belongs,
 * and which sendings of one message are retries. Read the same way by the gatherer (the page views
 * an SDK makes on its own) and by the checks; what a vendor's payload holds is src/vendors/.
 */

/**
 * How far apart the SDK's stamp of an event (its Date.now) and the page's stamp of the same moment
 * may read: a page view made as the route changed may read a few milliseconds early.
 */
export const CLOCK_SLACK_MS = 5;

/**
 * A route the page showed from one route change to the next: the names it had (a replaceState
 * renames it, and with `sdk.routeQuery: ignore` so does a change of the query alone), how it came,
 * when it began and when the next route change came (Infinity while it was current to the end), all
 * in the milliseconds of the visits it was read from.
 */
export interface RouteSpan {
  routes: string[];
  how: Exclude<RouteVisit["how"], "replace">;
  fromMs: number;
  untilMs: number;
}

/**
 * The spans of a page's route visits, in order, a replaceState folded into the span it renames, and
 * so is a change within the document that leaves the route as `routeQuery` tells routes apart.
 */
export function routeSpans(visits: readonly RouteVisit[], routeQuery: RouteQuery): RouteSpan[] {
  const spans: RouteSpan[] = [];
  for (const visit of visits) {
    const last = spans.at(-1);
    const sameRoute =
      last !== undefined &&
      visit.how !== "load" &&
      routeKey(last.routes.at(-1)!, routeQuery) === routeKey(visit.route, routeQuery);
    if (last !== undefined && (visit.how === "replace" || sameRoute)) {
      last.routes.push(visit.route);
      continue;
    }
    if (last !== undefined) last.untilMs = visit.atMs;
    spans.push({
      routes: [visit.route],
      how: visit.how === "replace" ? "push" : visit.how,
      fromMs: visit.atMs,
      untilMs: Infinity,
    });
  }
  return spans;
}

/**
 * The span in which something made at `atMs` on `route` was made: the last one that showed the
 * route and had begun by then (a page view made as the route changed may read a little early).
 */
export function spanOf<Span extends RouteSpan>(
  spans: readonly Span[],
  route: string,
  atMs: number,
  routeQuery: RouteQuery,
): Span | undefined {
  return spans.findLast((span) => showsRoute(span, route, routeQuery) && span.fromMs <= atMs + CLOCK_SLACK_MS);
}

/** True when a span showed `route` under one of its names, as `routeQuery` tells routes apart. */
export function showsRoute(span: Pick<RouteSpan, "routes">, route: string, routeQuery: RouteQuery): boolean {
  const key = routeKey(route, routeQuery);
  return span.routes.some((name) => routeKey(name, routeQuery) === key);
}

/** The route current when a call was made; for artifacts saved before routes were noted, its document's. */
export function routeOfCall(call: Pick<CapturedCall, "route" | "documentUrl">): string {
  return call.route ?? routeOf(call.documentUrl);
}

/**
 * A filter true for the first sending of each message, false for an event sent again under the id
 * its SDK gave it (a retry, a queue persisted from an earlier document); true for an event with no id.
 */
export function firstSendings(): (raw: unknown) => boolean {
  const seen = new Set<string>();
  return (raw) => {
    const id = messageIdOf(raw);
    if (id === null) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  };
}
