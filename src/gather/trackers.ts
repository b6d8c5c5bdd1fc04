import type { TrackerSeen } from "../artifacts/types.js";

/**
 * Known third-party trackers, from third-party-web: the database of third-party entities that
 * Lighthouse and the HTTP Archive use, each entity with its domains and one category. It ships in
 * the package and is read from it, offline. A request is a tracker's when its host is one of an
 * entity's domains, the entity's category is one that tracks visitors, and the entity is not the
 * page's own (a site of Google's calling Google Analytics is no third party).
 */

/** The database's categories that track visitors; CDNs, hosting, tag managers, consent managers, video and content embeds do not by themselves. */
export const TRACKING_CATEGORIES: ReadonlySet<string> = new Set([
  "ad",
  "analytics",
  "social",
  "marketing",
  "customer-success",
]);

/** Tells the known tracker a request reaches, or null. */
export type TrackerMatcher = (url: string) => TrackerSeen | null;

/**
 * The matcher for the requests of a page at `pageUrl`. The database is loaded once per process, when
 * the first consent unit starts (its JSON takes some 40 ms to read); a lookup is a few map reads.
 */
export async function trackerMatcher(pageUrl: string): Promise<TrackerMatcher> {
  // The subset without the HTTP Archive's statistics: the same entities and domains, in a smaller JSON.
  const { getEntity } = (await import("third-party-web/nostats-subset.js")).default;
  const ownCompany = getEntity(pageUrl)?.company;
  return (url) => {
    if (!/^(https?|wss?):/.test(url)) return null;
    const entity = getEntity(url);
    if (entity === undefined || !TRACKING_CATEGORIES.has(entity.category) || entity.company === ownCompany) return null;
    return { name: entity.name, category: entity.category };
  };
}
