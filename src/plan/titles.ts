/** Test titles and tags: deterministic, so Allure history and Playwright sharding stay stable. */

/** The tag that selects a test for a viewport's Playwright project. */
export function viewportTag(viewport: string): string {
  return `@${viewport.replace(/[^\w-]+/g, "-")}`;
}

/** `demo-shop › signup`. */
export function pageTitle(slug: string, page: string): string {
  return `${slug} › ${page}`;
}
