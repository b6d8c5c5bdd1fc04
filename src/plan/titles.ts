/** Test titles and tags: deterministic, so Allure history and Playwright sharding stay stable. */

/** The tag a viewport's results carry in the report (`@mobile`): one Playwright project gathers every viewport, so the tag, not a project, tells them apart. */
export function viewportTag(viewport: string): string {
  return `@${viewport.replace(/[^\w-]+/g, "-")}`;
}

/** `demo-shop › signup`. */
export function pageTitle(slug: string, page: string): string {
  return `${slug} › ${page}`;
}
