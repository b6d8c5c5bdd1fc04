/**
 * A route: the document's own path and query (`/app/pricing?billing=annual`), and, for a hash
 * router, its hash route after them (`/app/#/pricing`); a text that is no URL as it is.
 *
 * A fragment that starts with `/` or `!/` (`#/pricing`, `#!/pricing`) is a hash router's route; any
 * other fragment (`#section`) is an anchor, no part of the route, and so is a hash route's own
 * fragment (`#/pricing#faq`).
 */
export function routeOf(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}${hashRouteOf(parsed.hash)}`;
}

/** The hash route of a URL's fragment, `#` included (`#/pricing`); empty for an anchor or no fragment. */
function hashRouteOf(hash: string): string {
  if (!/^#!?\//.test(hash)) return "";
  const anchor = hash.indexOf("#", 1);
  return anchor < 0 ? hash : hash.slice(0, anchor);
}

/** Whether a change of the query alone is a route change (`keep`, the default) or not (`ignore`: filters, paging). */
export type RouteQuery = "keep" | "ignore";

/** The route as `routeQuery` tells routes apart: as it is, or without its queries (the document's and the hash route's). */
export function routeKey(route: string, routeQuery: RouteQuery): string {
  return routeQuery === "keep" ? route : route.replace(/\?[^#]*/g, "");
}
