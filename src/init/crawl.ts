import { routeOf } from "../url/route.js";
import { wordsOf } from "../text/wording.js";

/**
 * The pages init lists: the start URL, then the links the pages it loaded lead to, breadth
 * first, up to a limit. Only links on the start URL's origin are followed, because a spec's
 * pages are paths on one base URL; anchors, other schemes and files that are no pages are left out.
 */

/** Paths of files a link may lead to that are no pages to audit. */
const NOT_A_PAGE = /\.(?:pdf|zip|gz|png|jpe?g|gif|svg|webp|ico|css|js|mjs|json|xml|txt|mp4|mp3|woff2?)$/i;

/** Breadth-first order of the pages to list: each found once, at most `limit`. */
export class CrawlQueue {
  private readonly listed: string[] = [];
  private readonly queued: string[] = [];
  private readonly origin: string;

  constructor(
    start: URL,
    private readonly limit: number,
  ) {
    this.origin = start.origin;
    this.queued.push(routeOf(start.href));
  }

  /** The next page's path to load, or undefined when the limit is reached or no link is left. */
  next(): string | undefined {
    if (this.listed.length >= this.limit) return undefined;
    const path = this.queued.shift();
    if (path !== undefined) this.listed.push(path);
    return path;
  }

  /** Queues the links a loaded page holds (absolute URLs), in document order. */
  add(links: readonly string[]): void {
    for (const link of links) {
      if (!URL.canParse(link)) continue;
      const url = new URL(link);
      if (!isSitePage(url, this.origin)) continue;
      const path = routeOf(url.href);
      if (!this.listed.includes(path) && !this.queued.includes(path)) this.queued.push(path);
    }
  }
}

/** True when a link leads to a page of the site on `origin`, not to another site or a file. */
export function isSitePage(url: URL, origin: string): boolean {
  return url.origin === origin && !NOT_A_PAGE.test(url.pathname);
}

/** A page id for a path (`/` is `home`, `/pricing/pro?plan=1` is `pricing-pro-plan-1`), unique among `taken`. */
export function pageIdFor(path: string, taken: ReadonlySet<string>): string {
  const words = wordsOf(path.toLowerCase());
  const base = (words.join("-") || "home").slice(0, 60).replace(/-$/, "");
  let id = base;
  for (let suffix = 2; taken.has(id); suffix++) id = `${base}-${suffix}`;
  return id;
}
