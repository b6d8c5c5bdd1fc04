/** Test titles and tags: deterministic, so Allure history and Playwright sharding stay stable. */

/** A viewport as a tag (`@mobile`, `@iPhone-13`): every report result of that viewport carries it. */
export function viewportTag(viewport: string): string {
  return `@${viewport.replace(/[^\w-]+/g, "-")}`;
}

/** `demo-shop › signup`. */
export function pageTitle(slug: string, page: string): string {
  return `${slug} › ${page}`;
}
