import type { PageArtifacts } from "../artifacts/types.js";
import type { Step } from "../audit-spec/schema.js";
import { routeOf } from "../url/route.js";
import { isSitePage } from "./crawl.js";

/**
 * The journey init drafts on a single-page app: its first page's first link to another route,
 * followed without a new document, so that `events.pageviews` judges a route change. A link that
 * loads another document drafts none: that page is listed as a page of its own.
 */

/** A link of a page as init can click it: where it leads (absolute) and a selector that finds it alone. */
export interface PageLink {
  href: string;
  selector: string;
}

/** The page's links, each with its selector: its id when no other element has it, else its href as written. Serialised into the page. */
export function readLinks(): PageLink[] {
  const anchors = [...document.querySelectorAll<HTMLAnchorElement>("a[href]")];
  return anchors.map((anchor) => {
    const byId = anchor.id === "" ? null : `#${CSS.escape(anchor.id)}`;
    const unique = byId !== null && document.querySelectorAll(byId).length === 1;
    const written = (anchor.getAttribute("href") ?? "").replace(/["\\]/g, "\\$&");
    return { href: anchor.href, selector: unique ? byId : `a[href="${written}"]` };
  });
}

/** The first link to another path of the page's own site, or null. */
export function firstInAppLink(links: readonly PageLink[], pageUrl: string): PageLink | null {
  const page = new URL(pageUrl);
  return (
    links.find((link) => {
      if (!URL.canParse(link.href)) return false;
      const url = new URL(link.href);
      return isSitePage(url, page.origin) && url.pathname !== page.pathname;
    }) ?? null
  );
}

/** A journey through one link: its click, then its path in the address bar. */
export interface LinkJourney {
  click: string;
  waitForUrl: string;
}

export function journeyThrough(link: PageLink): LinkJourney {
  return { click: link.selector, waitForUrl: `**${new URL(link.href).pathname}` };
}

/** The journey as a spec's steps. */
export function stepsOf(journey: LinkJourney): Step[] {
  return [{ click: journey.click }, { waitForUrl: journey.waitForUrl }];
}

/** True when a page walked the link's steps and changed route to it within its document (a pushState, no new document). */
export function followedInApp(page: PageArtifacts, link: PageLink): boolean {
  const route = routeOf(link.href);
  return (
    page.loadError === null &&
    page.stepError === null &&
    (page.routes ?? []).some((visit) => visit.how === "push" && visit.route === route)
  );
}
