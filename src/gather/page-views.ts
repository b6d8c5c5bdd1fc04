import { routeOf } from "../url/route.js";
import { callToken } from "../artifacts/delivery.js";
import type { CapturedCall, CollectRequest } from "../artifacts/types.js";
import { CLOCK_SLACK_MS, firstSendings, routeOfCall } from "../artifacts/page-views.js";
import { isPageViewEvent, madeAtEpochMs, pageViewName, recordedUrl } from "../vendors/payload.js";
import type { SdkSpec } from "../audit-spec/schema.js";
import type { Page } from "playwright";
import type { NetworkCapture } from "./network.js";
import type { Gathering, GathererPart } from "./part.js";
import type { RouteWatch } from "./routes.js";

/** A page-view event of the collect requests, with when its SDK says it was made. */
interface SentPageView {
  raw: unknown;
  strings: readonly string[];
  madeAt: number;
}

/** Where the page was: its routes and steps, the test's start and the page's last URL. */
export interface PagePlace {
  routes: RouteWatch;
  startedAt: number;
  pageUrl: string;
}

/**
 * The page's calls with the URL each page view's payload records, then the page views the SDK made
 * on its own (PostHog's on load and on each history change), which no call on the global shows.
 * Each page-view call is paired with the first page-view event made after it, on its route, that
 * carries its name; the events left over are the SDK's own, placed by what their payload says: made when it
 * says, on the route its URL names (else the route current then).
 */
export function withPageViews(
  calls: readonly CapturedCall[],
  collect: readonly CollectRequest[],
  sdk: Pick<SdkSpec, "pageEvent" | "page" | "track">,
  place: PagePlace,
): CapturedCall[] {
  return paired(calls, collect, sdk, place).calls;
}

/** The calls with their page views, and how many of the page's page-view calls were not sent (yet). */
function paired(
  calls: readonly CapturedCall[],
  collect: readonly CollectRequest[],
  sdk: Pick<SdkSpec, "pageEvent" | "page" | "track">,
  place: PagePlace,
): { calls: CapturedCall[]; unsent: number } {
  // A message sent again under the id its SDK gave it (a retry, a queue persisted from an earlier document) is one page view.
  const firstSending = firstSendings();
  const sent: SentPageView[] = collect.flatMap((request) =>
    request.events.flatMap((event) =>
      isPageViewEvent(event.raw, sdk) && firstSending(event.raw)
        ? [
            {
              raw: event.raw,
              strings: event.strings,
              madeAt: place.routes.onPageClock(madeAtEpochMs(event.raw) ?? place.startedAt + request.atMs),
            },
          ]
        : [],
    ),
  );
  let unsent = 0;
  const withUrls = calls.map((call) => {
    if (call.kind !== "page" || call.state === "lost") return call;
    const own = takeOwn(sent, call, place);
    if (own === null) unsent++;
    return { ...call, pageUrl: own === null ? null : recordedUrl(own.raw) };
  });
  return { calls: [...withUrls, ...sent.map((view) => ownPageView(view, sdk, place))], unsent };
}

/**
 * Removes from `sent` and returns the event a page-view call sent: the first one, made no earlier
 * than the call, that carries its name and was made while the call's route was current (a queued
 * call's, any time after); null when none was sent (yet). The call's visit is found by the route
 * it was made on, not by its time alone: a router's hook makes its page view within the
 * millisecond the route changed.
 */
function takeOwn(sent: SentPageView[], call: CapturedCall, place: PagePlace): SentPageView | null {
  const token = callToken(call);
  if (token === null) return null;
  const at = place.startedAt + call.atMs;
  const visit = place.routes.visitOf(routeOfCall(call), at);
  const from = Math.max(at, visit?.fromMs ?? -Infinity) - CLOCK_SLACK_MS;
  const until = call.state === "queued" || visit === undefined ? Infinity : visit.untilMs + CLOCK_SLACK_MS;
  let first = -1;
  for (const [index, view] of sent.entries()) {
    if (!view.strings.includes(token) || view.madeAt < from || view.madeAt >= until) continue;
    if (first < 0 || view.madeAt < sent[first]!.madeAt) first = index;
  }
  return first < 0 ? null : sent.splice(first, 1)[0]!;
}

/** A page view the SDK made on its own, as a call. */
function ownPageView(
  view: SentPageView,
  sdk: Pick<SdkSpec, "pageEvent" | "page" | "track">,
  place: PagePlace,
): CapturedCall {
  const url = recordedUrl(view.raw);
  const route = url === null ? place.routes.routeAt(view.madeAt) : routeOf(url);
  return {
    kind: "page",
    method: sdk.page[0] ?? sdk.track[0]!,
    name: pageViewName(view.raw) ?? sdk.pageEvent,
    properties: null,
    atMs: Math.max(0, Math.round(view.madeAt - place.startedAt)),
    state: "direct",
    documentUrl: url ?? place.pageUrl,
    step: place.routes.stepAt(view.madeAt),
    ...(route === null ? {} : { route }),
    pageUrl: url,
    madeBy: "sdk",
  };
}

/**
 * With `sdk.pageViews`: true once the page made or sent as many page views as the routes it showed,
 * and each page-view call of the page's was sent, so that a batching SDK's last ones (PostHog's,
 * queued for 3 s) are waited for as expected calls are.
 */
export function pageViewsSent(
  calls: readonly CapturedCall[],
  collect: readonly CollectRequest[],
  sdk: Pick<SdkSpec, "pageEvent" | "page" | "track" | "pageViews">,
  place: PagePlace,
): boolean {
  if (!sdk.pageViews) return true;
  const { calls: made, unsent } = paired(calls, collect, sdk, place);
  // A page's call whose event has not left yet: what the SDK made beside it is in the same batch.
  return (
    unsent === 0 &&
    made.filter((call) => call.kind === "page" && call.state !== "lost").length >= place.routes.visitCount()
  );
}

/** Where the gathering's page is now: its routes and steps, the start and its URL. */
export function placeOf(gathering: Gathering<never>, routes: RouteWatch, page: Page): PagePlace {
  return { routes, startedAt: gathering.startedAt, pageUrl: page.url() };
}

/** The page views part: with `sdk.pageViews`, the page is not done until each route's page view was sent. */
export class PageViewsPart implements GathererPart {
  constructor(
    private readonly gathering: Gathering<"sdk">,
    private readonly routes: RouteWatch,
    private readonly network: NetworkCapture,
    private readonly recorded: readonly CapturedCall[],
  ) {}

  isSettled(): boolean {
    const { gathering } = this;
    return pageViewsSent(
      this.recorded,
      this.network.collect,
      gathering.input.sdk,
      placeOf(gathering, this.routes, gathering.page),
    );
  }
}
