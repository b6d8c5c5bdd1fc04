import { expect, test } from "@playwright/test";
import type { CapturedCall, RouteVisit } from "../../../src/artifacts/types.js";
import { eventsPageviews } from "../../../src/checks/events/pageviews.js";
import { callWith, contextOf, pageWith, specWith } from "../../support/artifacts.js";

const ORIGIN = "http://127.0.0.1:47414";
const spec = specWith({
  sdk: { preset: "posthog", pageViews: true },
  pages: [{ id: "app", path: "/app/", steps: [{ click: "#pricing" }, { back: true }, { forward: true }] }],
});
/** The journey's routes: the load of /app/, a link to /app/pricing, back, forward. */
const ROUTES: RouteVisit[] = [
  { route: "/app/", how: "load", atMs: 10 },
  { route: "/app/pricing", how: "push", atMs: 1000 },
  { route: "/app/", how: "back", atMs: 2000 },
  { route: "/app/pricing", how: "forward", atMs: 3000 },
];
const view = (route: string, atMs: number, overrides: Partial<CapturedCall> = {}) =>
  callWith({
    kind: "page",
    method: "capture",
    name: "$pageview",
    properties: null,
    atMs,
    route,
    documentUrl: `${ORIGIN}${route}`,
    pageUrl: `${ORIGIN}${route}`,
    ...overrides,
  });
const judge = (calls: CapturedCall[], routes: RouteVisit[] | null | undefined = ROUTES) =>
  eventsPageviews.evaluate(contextOf([pageWith({ page: "app", calls, routes })], spec));
const correct = () => [
  view("/app/", 300),
  view("/app/pricing", 1003),
  view("/app/", 2001, { madeBy: "sdk" }),
  view("/app/pricing", 3002, { madeBy: "sdk" }),
];

test("passes when each route visited got one page view while it was current, the SDK's own counted", () => {
  const [finding] = judge(correct());
  expect(finding).toMatchObject({ check: "events.pageviews", status: "pass", page: "app", viewport: "desktop" });
  expect(
    (finding?.evidence.routes as { route: string; how: string; pageViews: unknown[] }[]).map(
      ({ route, how, pageViews }) => [route, how, pageViews.length],
    ),
  ).toEqual([
    ["/app/", "load", 1],
    ["/app/pricing", "push", 1],
    ["/app/", "back", 1],
    ["/app/pricing", "forward", 1],
  ]);
});

test("fails on a route change that sent two page views, naming the route and both calls", () => {
  const [finding] = judge([...correct(), view("/app/pricing", 1004, { madeBy: "sdk" })]);
  expect(finding?.status).toBe("fail");
  expect(finding?.message).toContain(
    `/app/pricing (after a route change) got 2 page views (capture("$pageview"), the SDK's own "$pageview")`,
  );
});

test("fails on back and forward steps that sent none", () => {
  const [finding] = judge(correct().slice(0, 2));
  expect(finding?.status).toBe("fail");
  expect(finding?.message).toContain(
    "/app/ (after back) got no page view; /app/pricing (after forward) got no page view",
  );
});

test("a page view made just before the route changed counts for the previous route, leaving the new one without", () => {
  const calls = correct();
  calls[1] = view("/app/", 999);
  const [finding] = judge(calls);
  expect(finding?.message).toContain("/app/ (loaded) got 2 page views");
  expect(finding?.message).toContain("/app/pricing (after a route change) got no page view");
});

test("fails on a page view made on the new route whose URL names the previous one", () => {
  const calls = correct();
  calls[1] = view("/app/pricing", 1003, { pageUrl: `${ORIGIN}/app/` });
  const [finding] = judge(calls);
  expect(finding?.status).toBe("fail");
  expect(finding?.message).toContain("/app/pricing (after a route change) got a page view whose URL names /app/");
});

test("a replaceState renames the visit, and a page view of either name counts once for it", () => {
  const routes: RouteVisit[] = [
    { route: "/app/", how: "load", atMs: 10 },
    { route: "/app/home", how: "replace", atMs: 20 },
  ];
  const [finding] = judge([view("/app/home", 300)], routes);
  expect(finding?.status).toBe("pass");
  expect(finding?.message).toContain("Each of the 1 route(s)");
});

test("a track call is no page view, and a lost page view is none either", () => {
  const [finding] = judge(
    [view("/app/", 300, { state: "lost" }), callWith({ name: "$pageview_like", route: "/app/" })],
    ROUTES.slice(0, 1),
  );
  expect(finding?.message).toContain("/app/ (loaded) got no page view");
});

test("says nothing without sdk.pageViews, and skips when the routes are unknown", () => {
  const plain = specWith({ sdk: { preset: "posthog" } });
  expect(eventsPageviews.evaluate(contextOf([pageWith({ calls: correct(), routes: ROUTES })], plain))).toEqual([]);
  expect(judge(correct(), null)[0]).toMatchObject({
    status: "skip",
    message: expect.stringContaining("could not tell route changes"),
  });
  expect(eventsPageviews.evaluate(contextOf([pageWith({ page: "app", calls: correct() })], spec))[0]).toMatchObject({
    status: "skip",
    message: expect.stringContaining("saved before routes were noted"),
  });
  expect(judge(correct(), [])[0]).toMatchObject({
    status: "skip",
    message: expect.stringContaining("showed no route"),
  });
});

test("a hash router: each hash route got one page view, whose URL names that hash route", () => {
  const routes: RouteVisit[] = [
    { route: "/app/", how: "load", atMs: 10 },
    { route: "/app/#/", how: "replace", atMs: 20 },
    { route: "/app/#/pricing", how: "push", atMs: 1000 },
    { route: "/app/#/", how: "back", atMs: 2000 },
  ];
  const views = [view("/app/", 300), view("/app/#/pricing", 1003), view("/app/#/", 2001)];
  const [finding] = judge(views, routes);
  expect(finding?.message).toBe("Each of the 3 route(s) the page showed got one page view while it was current.");
  const [missing] = judge(views.slice(0, 2), routes);
  expect(missing?.message).toContain("/app/#/ (after back) got no page view");
  const [elsewhere] = judge(
    [view("/app/", 300), view("/app/#/pricing", 1003, { pageUrl: `${ORIGIN}/app/#/` })],
    routes.slice(0, 3),
  );
  expect(elsewhere?.message).toContain("/app/#/pricing (after a route change) got a page view whose URL names /app/#/");
});

test("a change of the query alone is a route change by default (routeQuery keep), and none with routeQuery ignore", () => {
  const routes: RouteVisit[] = [
    { route: "/shop/", how: "load", atMs: 10 },
    { route: "/shop/?color=red", how: "push", atMs: 1000 },
    { route: "/shop/?color=red&page=2", how: "push", atMs: 2000 },
    { route: "/shop/?color=red", how: "back", atMs: 3000 },
    { route: "/about", how: "push", atMs: 4000 },
  ];
  const calls = [view("/shop/", 300), view("/about", 4002, { madeBy: "sdk" })];
  const judgeWith = (routeQuery?: "keep" | "ignore") =>
    eventsPageviews.evaluate(
      contextOf(
        [pageWith({ page: "app", calls, routes })],
        specWith({
          sdk: { preset: "posthog", pageViews: true, ...(routeQuery ? { routeQuery } : {}) },
          pages: [{ id: "app", path: "/shop/" }],
        }),
      ),
    )[0];
  const kept = judgeWith();
  expect(kept?.status).toBe("fail");
  expect(kept?.message).toContain(
    "/shop/?color=red (after a route change) got no page view; /shop/?color=red&page=2 (after a route change) got no page view; /shop/?color=red (after back) got no page view",
  );
  const ignored = judgeWith("ignore");
  expect(ignored?.status).toBe("pass");
  expect(
    (ignored?.evidence.routes as { route: string; how: string; pageViews: unknown[] }[]).map(({ how, pageViews }) => [
      how,
      pageViews.length,
    ]),
  ).toEqual([
    ["load", 1],
    ["push", 1],
  ]);
  // A page view whose URL names the route with other filters names the same route.
  const filtered = [view("/shop/", 300, { pageUrl: `${ORIGIN}/shop/?color=blue` }), calls[1]!];
  expect(
    eventsPageviews.evaluate(
      contextOf(
        [pageWith({ page: "app", calls: filtered, routes })],
        specWith({
          sdk: { preset: "posthog", pageViews: true, routeQuery: "ignore" },
          pages: [{ id: "app", path: "/shop/" }],
        }),
      ),
    )[0]?.status,
  ).toBe("pass");
});
