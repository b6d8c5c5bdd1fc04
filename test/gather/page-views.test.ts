import { expect, test } from "@playwright/test";
import { pageViewsSent, withPageViews, type PagePlace } from "../../src/gather/page-views.js";
import { RouteWatch, type RouteMessage } from "../../src/gather/routes.js";
import type { CapturedCall, CollectRequest, RouteVisit } from "../../src/artifacts/types.js";
import { routeOf } from "../../src/url/route.js";

/**
 * Pairing the page's page-view calls with the events the collector got, and placing the page views
 * an SDK makes on its own (PostHog's on history changes), on values: the routes the page showed,
 * the calls the recorder saw and the events PostHog's collect requests carried.
 */
const ORIGIN = "http://app.test";
const STARTED_AT = 1_800_000_000_000;
const POSTHOG = { pageEvent: "$pageview", page: [], track: ["capture"] };

/** The observer's message for a visit of `route` at `ms`, both of the page's clocks read as one (`spreadMs` 0). */
function visit(route: string, how: RouteVisit["how"], ms: number): RouteMessage {
  const at = STARTED_AT + ms;
  return { url: `${ORIGIN}${route}`, how, at, clocks: { at, wall: at, spreadMs: 0 } };
}

/** A page that showed `visits` (`[route, how, ms since the start]`), on one clock for the page and the wall. */
function placeOf(visits: readonly [string, RouteVisit["how"], number][]): PagePlace {
  const routes = new RouteWatch();
  for (const [route, how, ms] of visits) routes.note(visit(route, how, ms));
  return { routes, startedAt: STARTED_AT, pageUrl: `${ORIGIN}${visits.at(-1)![0]}` };
}

/** The app's `capture("$pageview")`, made at `atMs` on `route`. */
function pageCall(route: string, atMs: number): CapturedCall {
  return {
    kind: "page",
    method: "capture",
    name: "$pageview",
    properties: null,
    atMs,
    state: "direct",
    documentUrl: `${ORIGIN}${route}`,
    step: null,
    route,
  };
}

/** One collect request carrying PostHog `$pageview`s, each made at its ms on the route its URL names. */
function posthogBatch(views: readonly [string, number, string?][]): CollectRequest {
  return {
    url: `${ORIGIN}/e/`,
    method: "POST",
    atMs: 5_000,
    status: 200,
    failure: null,
    decodeError: null,
    intercepted: false,
    events: views.map(([route, ms, navigationType], index) => {
      const raw = {
        event: "$pageview",
        uuid: `view-${index}`,
        timestamp: new Date(STARTED_AT + ms).toISOString(),
        properties: {
          $current_url: `${ORIGIN}${route}`,
          ...(navigationType ? { navigation_type: navigationType } : {}),
        },
      };
      return { raw, strings: ["$pageview", `view-${index}`, `${ORIGIN}${route}`] };
    }),
  };
}

const described = (calls: readonly CapturedCall[]) =>
  calls.map((call) => [
    call.madeBy ?? "page",
    call.route,
    call.atMs,
    call.pageUrl === undefined || call.pageUrl === null ? null : routeOf(call.pageUrl),
  ]);

test("a router's page view made within the millisecond its route changed is paired with its own event, not the last route's", () => {
  // The routes changed a fraction of a millisecond after the whole millisecond the calls read.
  const place = placeOf([
    ["/", "load", 100],
    ["/pricing", "push", 1000.4],
    ["/about", "push", 2000.4],
    ["/pricing", "back", 2200.3],
    ["/about", "forward", 2400.2],
  ]);
  const calls = [
    pageCall("/pricing", 1000),
    pageCall("/about", 2000),
    pageCall("/pricing", 2230),
    pageCall("/about", 2400),
  ];
  // PostHog's own page views: on load, a few ms after pushState (under load, past the slack), at popstate before the router's hook.
  const collect = posthogBatch([
    ["/", 120],
    ["/pricing", 1001],
    ["/pricing", 1009, "pushState"],
    ["/about", 2008],
    ["/about", 2012, "pushState"],
    ["/pricing", 2201, "popstate"],
    ["/pricing", 2231],
    ["/about", 2400],
    ["/about", 2401, "popstate"],
  ]);
  const made = withPageViews(calls, [collect], POSTHOG, place);
  expect(described(made)).toEqual([
    ["page", "/pricing", 1000, "/pricing"],
    ["page", "/about", 2000, "/about"],
    ["page", "/pricing", 2230, "/pricing"],
    ["page", "/about", 2400, "/about"],
    ["sdk", "/", 120, "/"],
    ["sdk", "/pricing", 1009, "/pricing"],
    ["sdk", "/about", 2012, "/about"],
    ["sdk", "/pricing", 2201, "/pricing"],
    ["sdk", "/about", 2401, "/about"],
  ]);
});

test("a page view made before the call is never the call's: the SDK's own, made at popstate, stays the SDK's", () => {
  const place = placeOf([
    ["/", "load", 100],
    ["/pricing", "push", 1000],
    ["/", "back", 2000],
  ]);
  const made = withPageViews(
    [pageCall("/", 2150)],
    [
      posthogBatch([
        ["/", 2001, "popstate"],
        ["/", 2151],
      ]),
    ],
    POSTHOG,
    place,
  );
  expect(described(made)).toEqual([
    ["page", "/", 2150, "/"],
    ["sdk", "/", 2001, "/"],
  ]);
});

test("a call's event made after the next route change is not its own; the call is left unsent and the event is the SDK's", () => {
  const place = placeOf([
    ["/", "load", 100],
    ["/pricing", "push", 1000],
  ]);
  const made = withPageViews([pageCall("/", 500)], [posthogBatch([["/pricing", 1010]])], POSTHOG, place);
  expect(described(made)).toEqual([
    ["page", "/", 500, null],
    ["sdk", "/pricing", 1010, "/pricing"],
  ]);
});

test("a queued call (made before the SDK loaded) is paired with its event, sent whenever the SDK got to it", () => {
  const place = placeOf([
    ["/", "load", 100],
    ["/pricing", "push", 1000],
  ]);
  const queued = { ...pageCall("/", 150), state: "queued" as const };
  const made = withPageViews([queued], [posthogBatch([["/pricing", 1200]])], POSTHOG, place);
  expect(described(made)).toEqual([["page", "/", 150, "/pricing"]]);
});

test("a retry of one message is one page view, and a call on a route the page never showed still takes the first event after it", () => {
  const place = placeOf([["/", "load", 100]]);
  const batch = posthogBatch([["/", 300]]);
  const made = withPageViews([pageCall("/elsewhere", 200)], [batch, batch], POSTHOG, place);
  expect(described(made)).toEqual([["page", "/elsewhere", 200, "/"]]);
});

test("with routeQuery ignore a filter change is no route the page waits for a page view of; by default it is one", () => {
  const visits: [string, RouteVisit["how"], number][] = [
    ["/shop/", "load", 100],
    ["/shop/?color=red", "push", 1000],
  ];
  const sent = (routeQuery: "keep" | "ignore") => {
    const routes = new RouteWatch(routeQuery);
    for (const [route, how, ms] of visits) routes.note(visit(route, how, ms));
    const place = { routes, startedAt: STARTED_AT, pageUrl: `${ORIGIN}/shop/?color=red` };
    return pageViewsSent([], [posthogBatch([["/shop/", 120]])], { ...POSTHOG, pageViews: true }, place);
  };
  expect(sent("keep")).toBe(false);
  expect(sent("ignore")).toBe(true);
});

test("a clock reading the page's thread was away in the middle of does not move the SDK's stamps: a page view made as its call is still its", () => {
  const place = placeOf([["/", "load", 100]]);
  // A later renaming whose Date.now() was read 40 ms after its page clock (the thread descheduled in between).
  const renamed = visit("/", "replace", 900);
  if (!("clocks" in renamed)) throw new Error("a visit's message");
  place.routes.note({ ...renamed, clocks: { ...renamed.clocks, wall: renamed.clocks.wall + 40, spreadMs: 40 } });
  expect(place.routes.onPageClock(STARTED_AT + 1000)).toBe(STARTED_AT + 1000);
  const made = withPageViews([pageCall("/", 1000)], [posthogBatch([["/", 1000]])], POSTHOG, place);
  expect(described(made)).toEqual([["page", "/", 1000, "/"]]);
});
