import { routeKey, routeOf, type RouteQuery } from "../url/route.js";
import type { CapturedCall, RouteVisit } from "./types.js";
import { isRecord } from "../text/parse-json.js";
import type { SdkSpec } from "../audit-spec/schema.js";

/**
 * Page views and routes in the vendors' payloads: which collected event is a page view, the URL a
 * vendor records with it, when it was made, and the id that marks a retry of one message. Read the
 * same way by the gatherer (the page views an SDK makes on its own) and by the checks.
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

/** True when a collected event is a page view: Segment's and RudderStack's `type: "page"`, or an event named `sdk.pageEvent` (PostHog's `$pageview`). */
export function isPageViewEvent(raw: unknown, sdk: Pick<SdkSpec, "pageEvent">): boolean {
  if (!isRecord(raw)) return false;
  if (raw.type === "page") return true;
  const name = raw.event ?? raw.event_type ?? raw.name;
  return sdk.pageEvent !== null && name === sdk.pageEvent;
}

/** The name a page-view event carries (PostHog's `$pageview`, a Segment page's name), else its type (Segment's `page`): what its call's delivery is matched by. */
export function pageViewName(raw: unknown): string | null {
  if (!isRecord(raw)) return null;
  const name = [raw.event, raw.event_type, raw.name, raw.type].find(
    (candidate) => typeof candidate === "string" && candidate !== "",
  );
  return typeof name === "string" ? name : null;
}

/** The URL a page view's payload records (PostHog's and Mixpanel's `$current_url`, Segment's and RudderStack's `url`, Amplitude's `[Amplitude] Page URL`); null when it records none. */
export function recordedUrl(raw: unknown): string | null {
  if (!isRecord(raw)) return null;
  const properties = record(raw.properties) ?? record(raw.event_properties);
  const page = record(record(raw.context)?.page);
  const candidates = [properties?.$current_url, properties?.url, page?.url, properties?.["[Amplitude] Page URL"]];
  const found = candidates.find((candidate) => typeof candidate === "string" && URL.canParse(candidate));
  return typeof found === "string" ? found : null;
}

/** When the SDK says the event was made, in epoch milliseconds: `timestamp`, `originalTimestamp` (ISO), `time` (milliseconds, or Mixpanel's seconds); null when it does not say. */
export function madeAtEpochMs(raw: unknown): number | null {
  if (!isRecord(raw)) return null;
  for (const stamp of [raw.timestamp, raw.originalTimestamp]) {
    if (typeof stamp === "string" && !Number.isNaN(Date.parse(stamp))) return Date.parse(stamp);
  }
  const time = raw.time ?? record(raw.properties)?.time;
  if (typeof time !== "number" || !Number.isFinite(time)) return null;
  // Mixpanel counts seconds; the others milliseconds.
  return time < 1e11 ? time * 1000 : time;
}

/** The id an SDK gives one message, which its retries repeat (Segment's and RudderStack's messageId, PostHog's uuid, Amplitude's insert_id, Mixpanel's $insert_id); null when it has none. */
function messageIdOf(raw: unknown): string | null {
  if (!isRecord(raw)) return null;
  const id = raw.messageId ?? raw.uuid ?? raw.insert_id ?? record(raw.properties)?.$insert_id;
  return typeof id === "string" && id !== "" ? id : null;
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

function record(value: unknown): Record<string, unknown> | null {
  return isRecord(value) ? value : null;
}
