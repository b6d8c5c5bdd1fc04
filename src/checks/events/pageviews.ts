import type { CapturedCall, PageArtifacts } from "../../artifacts/types.js";
import { routeOfCall, routeSpans, showsRoute, spanOf, type RouteSpan } from "../../artifacts/page-views.js";
import { routeOf, type RouteQuery } from "../../url/route.js";
import type { Judgement } from "../../findings/finding.js";
import { defineCheck, describeCall, madeCalls, perLoadedPage, type Verdict, LOADED_PAGE } from "../check.js";

/** A route the page showed from one route change to the next, with the page views made while it was current. */
interface Visit extends RouteSpan {
  views: CapturedCall[];
}

/** events.pageviews: with `sdk.pageViews`, each route the page showed got one page view, while it was current. */
export const eventsPageviews = defineCheck({
  id: "events.pageviews",
  scope: "page",
  title: "Each route gets one page view",
  failureTitle: "Routes got no page view, or more than one",
  family: "Goal/event mismatch",
  severity: "critical",
  requires: [...LOADED_PAGE, "routes", "calls"],
  failsWhen:
    "with `sdk.pageViews`: a route the page showed (the load, then each route change: a pushState, or a back or forward, that changes the path, the query (unless `sdk.routeQuery: ignore`) or a hash router's route `#/…`) got no page view while it was current, got more than one, or got one whose URL (where the vendor records one) is another route; the evidence lists every route with its page views (see [Single-page apps](single-page-apps.md#routes))",
  why: "Page views are the denominator of most funnels. A router change that sends two (the SDK's automatic one and the app's own) doubles the traffic; a back or forward step that sends none loses it; one sent before the route changes counts the previous page again. Every rate built on them shifts without any error.",
  evaluate(context): Judgement[] {
    if (!context.spec.sdk.pageViews) return [];
    return perLoadedPage(context, (page) => judgePageViews(page, context.spec.sdk.routeQuery));
  },
});

/** The verdict on one page × viewport's routes and page views. */
function judgePageViews(page: PageArtifacts, routeQuery: RouteQuery): Verdict {
  if (page.routes === undefined)
    return { status: "skip", message: "Not judged: these artifacts were saved before routes were noted." };
  if (page.routes === null)
    return {
      status: "skip",
      message: "Not judged: the browser could not tell route changes (it has no Navigation API).",
    };
  const visits: Visit[] = routeSpans(page.routes, routeQuery).map((span) => ({ ...span, views: [] }));
  if (visits.length === 0)
    return { status: "skip", message: "Not judged: the page showed no route the audit could observe." };
  const strays: CapturedCall[] = [];
  for (const view of madeCalls(page).filter((call) => call.kind === "page")) {
    const visit = spanOf(visits, routeOfCall(view), view.atMs, routeQuery);
    if (visit === undefined) strays.push(view);
    else visit.views.push(view);
  }
  const problems = [
    ...visits.flatMap((visit) => visitProblems(visit, routeQuery)),
    ...strays.map(
      (view) => `${describeView(view)} was made on ${routeOfCall(view)}, a route the page did not show then`,
    ),
  ];
  const evidence = {
    routes: visits.map((visit) => ({
      route: visit.routes.at(-1)!,
      how: visit.how,
      atMs: visit.fromMs,
      pageViews: visit.views.map(viewEvidence),
    })),
    ...(strays.length > 0 ? { elsewhere: strays.map(viewEvidence) } : {}),
  };
  if (problems.length > 0) {
    return {
      status: "fail",
      message: `On ${page.viewport}: ${problems.join("; ")}. Send one page view per route, after the route changed (the router's afterEach), on back and forward too, and either the SDK's automatic page views or your own, not both.`,
      evidence,
    };
  }
  return {
    status: "pass",
    message: `Each of the ${visits.length} route(s) the page showed got one page view while it was current.`,
    evidence,
  };
}

function visitProblems(visit: Visit, routeQuery: RouteQuery): string[] {
  const where = `${visit.routes.at(-1)} (${HOW[visit.how]})`;
  if (visit.views.length === 0) return [`${where} got no page view`];
  const many =
    visit.views.length > 1
      ? [`${where} got ${visit.views.length} page views (${visit.views.map(describeView).join(", ")})`]
      : [];
  const elsewhere = visit.views.flatMap((view) => {
    const named = view.pageUrl ? routeOf(view.pageUrl) : null;
    return named === null || showsRoute(visit, named, routeQuery)
      ? []
      : [`${where} got a page view whose URL names ${named}`];
  });
  return [...many, ...elsewhere];
}

const HOW: Record<Visit["how"], string> = {
  load: "loaded",
  push: "after a route change",
  back: "after back",
  forward: "after forward",
};

function describeView(view: CapturedCall): string {
  if (view.madeBy === "sdk") return `the SDK's own${view.name === null ? " page view" : ` "${view.name}"`}`;
  return view.kind === "page" && view.name === null ? `${view.method}()` : describeCall(view);
}

function viewEvidence(view: CapturedCall): Record<string, unknown> {
  return {
    call: describeView(view),
    atMs: view.atMs,
    step: view.step ?? null,
    route: routeOfCall(view),
    url: view.pageUrl ? routeOf(view.pageUrl) : null,
  };
}
