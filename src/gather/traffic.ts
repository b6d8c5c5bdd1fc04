import type { Browser, BrowserContext, BrowserContextOptions, CDPSession } from "playwright";
import { isOnDomain } from "../url/domain.js";
import type { TrafficSpec } from "../audit-spec/schema.js";
import { toolVersion } from "../package/version.js";
import { deviceFor } from "../browser/viewports.js";
import { visitorUserAgent } from "../browser/visitor.js";
import { decodeCollectBody } from "./payload.js";

/**
 * Own-traffic hygiene: audit traffic says what it is (a user-agent suffix, a header, a query
 * parameter) so the site and the service can leave it out of their numbers, and the intercept
 * mode answers collect requests inside the browser so that nothing reaches the service at all.
 */

/** A name and a value that tag audit traffic: a header or a query parameter. */
export interface TrafficTag {
  name: string;
  value: string;
}

/** A spec's `traffic` settings with this run's defaults filled in. */
export interface TrafficTags {
  /** Appended after a space to the device's user agent; "" for none. */
  userAgentSuffix: string;
  /** Header added to every request the page sends to the site's domain; null for none. */
  header: TrafficTag | null;
  /** Query parameter added to each audited page's URL; null for none. */
  queryParam: TrafficTag | null;
  /** `intercept`: collect requests are answered inside the browser and never reach the service. */
  collect: TrafficSpec["collect"];
}

/** The tags of one run: a header's or query parameter's value defaults to the run's id, the suffix to `setup-audit/VERSION`. */
export function resolveTraffic(traffic: TrafficSpec, runId: string): TrafficTags {
  const tag = (option: { name: string; value?: string | undefined } | false) =>
    option === false ? null : { name: option.name, value: option.value ?? runId };
  return {
    userAgentSuffix: traffic.userAgentSuffix ?? `setup-audit/${toolVersion()}`,
    header: tag(traffic.header),
    queryParam: tag(traffic.queryParam),
    collect: traffic.collect,
  };
}

/** The device's user agent with the suffix appended: sites still see a real browser, the service a recognisable one. */
export function auditUserAgent(deviceUserAgent: string, suffix: string): string {
  return suffix === "" ? deviceUserAgent : `${deviceUserAgent} ${suffix}`;
}

/**
 * The options of a fresh context for a viewport, in a browser of `browserVersion`: its device (the
 * browser type is the worker's), its user agent at that browser's version with the suffix, and,
 * when collect requests are intercepted, no service workers: Playwright's routes miss what a
 * service worker fetches, and nothing may slip past them.
 */
export function auditContextOptions(
  viewport: string,
  traffic: TrafficTags,
  browserVersion: string,
): BrowserContextOptions {
  const { defaultBrowserType: _browserType, ...device } = deviceFor(viewport)!;
  return {
    ...device,
    userAgent: auditUserAgent(visitorUserAgent(device.userAgent, browserVersion), traffic.userAgentSuffix),
    ...(traffic.collect === "intercept" ? { serviceWorkers: "block" as const } : {}),
  };
}

/** The URL with the tag's query parameter set (unchanged without one). */
export function withQueryParam(url: string, param: TrafficTag | null): string {
  if (param === null) return url;
  const tagged = new URL(url);
  tagged.searchParams.set(param.name, param.value);
  return tagged.href;
}

/** What the requests of the page being audited get: the traffic header on the site's domain, a closed site's headers on its origin alone. */
export interface RequestTags {
  /** The traffic header, for every request to `domain` (subdomains included); null for none. */
  header: TrafficTag | null;
  /** The site's domain. */
  domain: string;
  /** A closed site's headers (`auth.headers`), secrets, and the one origin (scheme, host, port) they go to; null for none. */
  originHeaders: { origin: string; headers: TrafficTag[] } | null;
}

/** The headers a request to `url` gets. */
export function headersFor(tags: RequestTags, url: string): TrafficTag[] {
  const toOrigin =
    tags.originHeaders !== null && URL.canParse(url) && new URL(url).origin === tags.originHeaders.origin;
  return [
    ...(tags.header !== null && isOnDomain(url, tags.domain) ? [tags.header] : []),
    ...(toOrigin ? tags.originHeaders!.headers : []),
  ];
}

/** True when some request gets a header. */
export function tagsAnything(tags: RequestTags): boolean {
  return tags.header !== null || tags.originHeaders !== null;
}

/**
 * Adds the traffic header to every request a page sends to the site's domain (subdomains
 * included), and a closed site's headers to its origin alone. Not `extraHTTPHeaders`: it goes to
 * every host (a secret with it), and a custom header makes third parties' CORS preflights fail
 * (the bundled collector refuses it). Not `route()` either: a route pauses every request, turns
 * the HTTP cache off and answers every CORS preflight itself, which would hide a collector that
 * refuses preflights. A CDP Fetch session pauses only requests to the site's domains and adds the
 * headers after the CORS checks, so nothing else changes.
 *
 * A browser the worker launched itself gets one session for all its pages, set up once: the
 * page being audited says which headers go where. A browser on another machine may serve other
 * clients too, so each page there gets a session of its own.
 */
export class SiteRequestTagger {
  private tags: RequestTags | null = null;

  private constructor(private readonly session: CDPSession) {
    session.on("Fetch.requestPaused", (event) => {
      // The patterns match more than the domains (`*` spans dots and slashes): the URL decides.
      const added = this.tags === null ? [] : headersFor(this.tags, event.request.url);
      const headers =
        added.length === 0
          ? undefined
          : Object.entries({
              ...event.request.headers,
              ...Object.fromEntries(added.map((tag) => [tag.name, tag.value])),
            }).map(([name, value]) => ({ name, value }));
      // The page may close while a request waits; its request then needs no answer.
      session.send("Fetch.continueRequest", { requestId: event.requestId, headers }).catch(() => undefined);
    });
  }

  /** One session for every page of a browser the worker owns, pausing requests to any of `domains`. */
  static async forBrowser(browser: Browser, domains: readonly string[]): Promise<SiteRequestTagger> {
    const tagger = new SiteRequestTagger(await browser.newBrowserCDPSession());
    await tagger.pause(domains);
    return tagger;
  }

  /** Tags one page's requests, from the start, through a session on that page. */
  static async tagPage(session: CDPSession, tags: RequestTags): Promise<void> {
    const tagger = new SiteRequestTagger(session);
    tagger.tagFor(tags);
    await tagger.pause([tags.domain]);
  }

  /** From now on, requests get the headers `tags` give them; null: no request gets one. */
  tagFor(tags: RequestTags | null): void {
    this.tags = tags;
  }

  private async pause(domains: readonly string[]): Promise<void> {
    const hosts = [...new Set(domains)].flatMap((domain) => [domain, `*.${domain}`]);
    const patterns = hosts
      .flatMap((host) => [`*://${host}/*`, `*://${host}:*`])
      .map((urlPattern) => ({ urlPattern, requestStage: "Request" as const }));
    await this.session.send("Fetch.enable", { patterns });
  }
}

/**
 * Answers every collect request inside the browser, as a collector would: 200 when its body
 * decodes (or it has none), 400 with the reason when it does not. Nothing reaches the service.
 */
export async function interceptCollect(context: BrowserContext, isCollectUrl: (url: string) => boolean): Promise<void> {
  await context.route(
    (url) => isCollectUrl(url.href),
    async (route) => {
      const request = route.request();
      const { error } = decodeCollectBody(
        request.postDataBuffer(),
        request.url(),
        request.headers()["content-encoding"],
      );
      const answer = error === null ? { status: "accepted" } : { status: "rejected", error };
      // The page may close while the request waits; its request then needs no answer.
      await route.fulfill({ status: error === null ? 200 : 400, json: answer }).catch(() => undefined);
    },
  );
}
