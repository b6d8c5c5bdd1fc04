/** A route: the document's own path and query (`/app/pricing?billing=annual`), never its fragment; a text that is no URL as it is. */
export function routeOf(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}
