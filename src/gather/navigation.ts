import type { Page } from "playwright";
import type { PageAccess, PageArtifacts, VisitorSignals } from "../artifacts/types.js";
import { firstLine } from "../text/wording.js";
import { isAuthRefusal, landingOf } from "./landing.js";
import type { PageInput } from "../schedule/page-input.js";
import type { Gathering, GathererPart } from "./part.js";
import { withQueryParam } from "./traffic.js";

/** How long the page may take to load. */
export const NAVIGATION_TIMEOUT_MS = 30_000;

type NavigationSlice = Pick<
  PageArtifacts,
  "requestedUrl" | "finalUrl" | "navigations" | "loadError" | "documentStatus" | "visitor" | "access"
>;

/** The navigation part: loads the page, and notes every URL its main frame was sent to and where it landed. */
export class NavigationPart implements GathererPart {
  /** A page never opened was sent nowhere and loaded nothing; no login of its own got it in. */
  static empty(input: Pick<PageInput, "page" | "baseUrl" | "variation">): NavigationSlice {
    return {
      requestedUrl: pageUrl(input),
      finalUrl: null,
      navigations: [],
      loadError: null,
      documentStatus: null,
      access: { login: null, landedUrl: null, passwordField: false, authRefused: false },
    };
  }

  /** The page's URL, with a preview link's parameters and the traffic's query parameter. */
  readonly requestedUrl: string;
  /**
   * Every URL the main frame was sent to, redirects included: a redirect's target may fail to
   * load and never become a document, but the page was still sent there.
   */
  private readonly navigations: string[] = [];
  private failedNavigation: { url: string; error: string } | null = null;
  private loadError: string | null = null;
  private documentStatus: number | null = null;
  private authRefused = false;
  private landing: Pick<PageAccess, "landedUrl" | "passwordField"> = { landedUrl: null, passwordField: false };
  private visitor: VisitorSignals | null = null;
  /** Where the page was, and how many URLs it had been sent to, when it was loaded once more; null without a reload. */
  private beforeReloading: { url: string; navigations: number } | null = null;

  constructor(private readonly gathering: Gathering<"page" | "baseUrl" | "variation">) {
    this.requestedUrl = withQueryParam(pageUrl(gathering.input), gathering.run.traffic.queryParam);
  }

  async attach(page: Page): Promise<void> {
    const note = (url: string) => {
      if (this.navigations.at(-1) !== url) this.navigations.push(url);
    };
    page.on("request", (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) note(request.url());
    });
    page.on("requestfailed", (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame())
        this.failedNavigation = { url: request.url(), error: request.failure()?.errorText ?? "failed" };
    });
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) note(frame.url());
    });
  }

  /** Loads the page, then reads where it landed and what it reads of its browser; true when it loaded. */
  async load(page: Page): Promise<boolean> {
    try {
      const response = await page.goto(this.requestedUrl, { waitUntil: "load", timeout: NAVIGATION_TIMEOUT_MS });
      this.documentStatus = response?.status() ?? null;
      if (this.documentStatus !== null && this.documentStatus >= 400)
        this.loadError = `the server answered HTTP ${this.documentStatus}`;
    } catch (error) {
      const failed = this.failedNavigation;
      this.loadError =
        failed !== null && failed.url !== this.requestedUrl
          ? `it redirected to ${failed.url}, which failed (${failed.error})`
          : firstLine(error);
      this.authRefused = isAuthRefusal(error);
    }
    if (this.loadError !== null) return false;
    this.landing = await landingOf(page, this.requestedUrl);
    this.visitor = await visitorSignals(page);
    return true;
  }

  /** How many URLs the main frame was sent to so far. */
  count(): number {
    return this.navigations.length;
  }

  /** Notes where the page is before it is loaded once more: where it went is where it went before. */
  noteReload(page: Page): void {
    this.beforeReloading = { url: page.url(), navigations: this.navigations.length };
  }

  /** The URLs the main frame was sent to before any reload. */
  ownNavigations(): string[] {
    return this.beforeReloading === null
      ? this.navigations
      : this.navigations.slice(0, this.beforeReloading.navigations);
  }

  async finish(): Promise<NavigationSlice> {
    const { run, page, loaded } = this.gathering;
    return {
      requestedUrl: this.requestedUrl,
      finalUrl: loaded ? (this.beforeReloading?.url ?? page.url()) : null,
      navigations: this.ownNavigations(),
      loadError: this.loadError,
      documentStatus: this.documentStatus,
      visitor: this.visitor,
      access: { login: run.login, ...this.landing, authRefused: this.authRefused },
    };
  }
}

/** The page's URL as the plan gives it: its path on the base URL, with a preview link's parameters. */
function pageUrl(input: Pick<PageInput, "page" | "baseUrl" | "variation">): string {
  return withPreviewQuery(new URL(input.page.path, input.baseUrl), input.variation?.query ?? {});
}

/** The page's URL with a preview link's parameters added. */
function withPreviewQuery(url: URL, query: Readonly<Record<string, string>>): string {
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.href;
}

/** What the page reads of its browser; null when the page could not be read (it moved on meanwhile). */
function visitorSignals(page: Page): Promise<VisitorSignals | null> {
  return page
    .evaluate(() => ({ webdriver: navigator.webdriver, userAgent: navigator.userAgent, online: navigator.onLine }))
    .catch(() => null);
}
