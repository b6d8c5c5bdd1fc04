/** Test titles: deterministic, so Allure history and Playwright sharding stay stable. */

/** `demo-shop › signup`. */
export function pageTitle(slug: string, page: string): string {
  return `${slug} › ${page}`;
}
