import type { BrowserContext, Page } from "playwright";
import type { PageArtifacts, RouteVisit } from "../artifacts/types.js";
import { routeSpans, spanOf, type RouteSpan } from "../artifacts/page-views.js";
import { routeOf, type RouteQuery } from "../url/route.js";
import type { Gathering, GathererPart } from "./part.js";
import { withDeadline } from "./deadline.js";

/**
 * Where the page was when it made a call: the route it showed and the journey step being walked.
 *
 * Routes are observed in the page through the browser's Navigation API, which reports every change
 * of the tab's current history entry without the page's `history` being touched: a document's
 * first route (`load`), `pushState` and same-document navigations (`push`), and back or forward
 * traversals within the document (each followed by its `popstate`). `replaceState` is no route
 * change (it renames the visit: `replace`), nor is a change of an anchor alone; a change of a hash
 * router's route (`#/pricing`) is one (src/url/route.ts).
 */

/**
 * What the observer tells the gatherer: the tab's current entry changed to `url` (`at` on the page's
 * clock, as the recorder stamps calls), or the browser cannot tell route changes. Whether the route
 * changed is the gatherer's to tell, from the URL. `clocks` is one reading of both of the page's
 * clocks, for the gatherer to place the SDKs' timestamps: `wall` by `Date.now()`, taken between two
 * readings of the page's clock `spreadMs` apart (how long the thread may have been away in between).
 */
export type RouteMessage =
  | { url: string; how: RouteVisit["how"]; at: number; clocks: ClockReading }
  | { unobservable: true };

/** `Date.now()` read between two readings of the page's clock (`performance`), `at` the first of them. */
export interface ClockReading {
  at: number;
  wall: number;
  spreadMs: number;
}

const BINDING = "__setupAuditRoute";

/** Watches one page's routes and the journey's steps, on the page test's clock. */
export class RouteWatch {
  /** The routes shown, `atMs` in epoch milliseconds on the page's clock. */
  private readonly visits: RouteVisit[] = [];
  /** When each journey step started: on the wall clock (the audit's `Date.now()`), and on the page's own clock when it could be read. */
  private readonly stepStarts: { wall: number; page: number | null }[] = [];
  private observable = true;
  /**
   * How far the wall clock (`Date.now()`: the audit's, and the SDKs' timestamps) runs ahead of the
   * page's (`performance`), from the reading with the narrowest spread: on a loaded machine the
   * page's thread may be descheduled between two reads, and a reading across that gap would place
   * every SDK timestamp that much too early (a page view before the call that made it).
   */
  private clocks: ClockReading = { at: 0, wall: 0, spreadMs: Infinity };

  /** `routeQuery`: whether a change of the query alone is a route change (`sdk.routeQuery`). */
  constructor(private readonly routeQuery: RouteQuery = "keep") {}

  /** Installs the observer in every document of the context, before any page script runs. */
  static async install(context: BrowserContext, routeQuery: RouteQuery = "keep"): Promise<RouteWatch> {
    const watch = new RouteWatch(routeQuery);
    await watch.observe(context);
    return watch;
  }

  /** Installs the observer for this watch in every document of the context, before any page script runs. */
  async observe(context: BrowserContext): Promise<void> {
    await context.exposeBinding(BINDING, (_source, message: RouteMessage) => this.note(message));
    await context.addInitScript(observeRoutes, BINDING);
  }

  /**
   * Notes that journey step `index` starts now; `pageAt`: the page's clock read as it started (null
   * when the page could not tell), so that the page's calls are placed on the clock they were timed
   * by. The wall clock may be set (a virtual machine's clock stepped forward) between the page's
   * load and its journey: a step placed through the reading of the load would then start after the
   * calls it made.
   */
  stepStarted(index: number, pageAt: number | null = null): void {
    this.stepStarts[index] = { wall: Date.now(), page: pageAt };
  }

  /** The step being walked at `epochMs` (the page's clock, epoch milliseconds); null before the first. */
  stepAt(epochMs: number): number | null {
    const index = this.stepStarts.findLastIndex((start) => (start.page ?? this.onPageClock(start.wall)) <= epochMs);
    return index < 0 ? null : index;
  }

  /** The step being walked at `wallMs` (an SDK's timestamp: the wall clock, as the steps' starts were read); null before the first. */
  stepAtWall(wallMs: number): number | null {
    const index = this.stepStarts.findLastIndex((start) => start.wall <= wallMs);
    return index < 0 ? null : index;
  }

  /** A moment of the wall clock (`Date.now()`, an SDK's timestamp) on the page's clock. */
  onPageClock(wallMs: number): number {
    return wallMs - (this.clocks.wall - this.clocks.at);
  }

  /** The route current at `epochMs`; null before the first document started. */
  routeAt(epochMs: number): string | null {
    return this.visits.findLast((visit) => visit.atMs <= epochMs)?.route ?? null;
  }

  /** The visit of `route` in which a call made at `epochMs` (the page's clock) was made; undefined when the page had not shown the route by then. */
  visitOf(route: string, epochMs: number): RouteSpan | undefined {
    return spanOf(routeSpans(this.visits, this.routeQuery), route, epochMs, this.routeQuery);
  }

  /** How many routes the page showed so far: its loads and route changes, a renaming (a replaceState; with routeQuery ignore, a change of the query alone) left out. */
  visitCount(): number {
    return routeSpans(this.visits, this.routeQuery).length;
  }

  /** Every route the page showed, in order, on the test's clock; null when the browser could not tell route changes. */
  finish(sinceStart: (epochMs: number) => number): RouteVisit[] | null {
    if (!this.observable) return null;
    return this.visits.map((visit) => ({ ...visit, atMs: sinceStart(visit.atMs) }));
  }

  /**
   * What the observer in the page tells: the tab's entry changed, a route change unless it shows the
   * route already shown (an anchor, an entry pushed for the same route); or the browser cannot tell route changes.
   */
  note(message: RouteMessage): void {
    if ("unobservable" in message) {
      this.observable = false;
      return;
    }
    if (message.clocks.spreadMs < this.clocks.spreadMs) this.clocks = message.clocks;
    const route = routeOf(message.url);
    if (message.how !== "load" && route === this.visits.at(-1)?.route) return;
    this.visits.push({ route, how: message.how, atMs: message.at });
  }
}

/** The routes part: the watch, installed before the page exists; its slice, the routes the page showed before any reload. */
export class RoutesPart implements GathererPart {
  /** A page never opened went through no route. */
  static empty(): Pick<PageArtifacts, "routes"> {
    return {};
  }

  readonly watch: RouteWatch;

  constructor(private readonly gathering: Gathering<"sdk">) {
    this.watch = new RouteWatch(gathering.input.sdk.routeQuery);
  }

  install(): Promise<void> {
    return this.watch.observe(this.gathering.context);
  }

  async finish(): Promise<Pick<PageArtifacts, "routes">> {
    const visits = this.watch.finish(this.gathering.sinceStart);
    return { routes: visits === null ? null : this.gathering.beforeReload(visits) };
  }
}

/** The page's clock now (epoch milliseconds, the clock its calls are timed by); null when the page does not answer within two seconds (it is navigating, or hung). */
export function readPageClock(page: Page): Promise<number | null> {
  const reading = page.evaluate(() => performance.timeOrigin + performance.now());
  return withDeadline(reading, 2_000, "the page's clock did not answer").catch(() => null);
}

/** The observer, serialised into the page, so it must be self-contained. */
function observeRoutes(binding: string): void {
  // Routes are the tab's: frames have their own history entries, never the visitor's page.
  // Nor is a document that is no page of a site (the tab's first about:blank).
  if (window !== window.top || !/^https?:$/.test(location.protocol)) return;
  const win = window as unknown as Record<string, unknown>;
  const send = (message: RouteMessage) => {
    const deliver = win[binding];
    if (typeof deliver === "function") deliver(message);
  };
  const now = () => performance.timeOrigin + performance.now();
  // Read again while the thread was away between the reads (a few tries: one good reading is enough).
  const readClocks = (): ClockReading => {
    let best: ClockReading = { at: 0, wall: 0, spreadMs: Infinity };
    for (let tries = 0; tries < 5 && best.spreadMs >= 1; tries++) {
      const at = now();
      const wall = Date.now();
      const spreadMs = now() - at;
      if (spreadMs < best.spreadMs) best = { at, wall, spreadMs };
    }
    return best;
  };
  const routeChanged = (how: RouteVisit["how"]) => {
    const clocks = readClocks();
    send({ url: location.href, how, at: clocks.at, clocks });
  };
  routeChanged("load");
  type Entry = { index: number };
  type EntryChange = Event & { navigationType: string | null; from: Entry };
  const navigation = win.navigation as (EventTarget & { currentEntry: Entry | null }) | undefined;
  if (navigation === undefined) {
    send({ unobservable: true });
    return;
  }
  navigation.addEventListener("currententrychange", (event) => {
    const { navigationType, from } = event as EntryChange;
    const traversal = (navigation.currentEntry?.index ?? 0) < from.index ? "back" : "forward";
    const how =
      navigationType === "traverse"
        ? traversal
        : navigationType === "replace"
          ? "replace"
          : navigationType === "push"
            ? "push"
            : null;
    if (how === null) return;
    routeChanged(how);
  });
}
