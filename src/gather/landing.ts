import type { Page } from "playwright";
import type { PageAccess } from "../artifacts/types.js";
import { samePath } from "../artifacts/site-entry.js";

/** True when a navigation failed because the browser gave up on the site's HTTP authentication: it had no credentials for it. */
export function isAuthRefusal(error: unknown): boolean {
  return String(error).includes("net::ERR_INVALID_AUTH_CREDENTIALS");
}

/**
 * Where a page that loaded landed, before its journey, and whether a password field waits there.
 * The field is looked for only when the site sent the audit to another path: a page asked for may
 * have one of its own (a signup form).
 */
export async function landingOf(
  page: Page,
  requestedUrl: string,
): Promise<Pick<PageAccess, "landedUrl" | "passwordField">> {
  const landedUrl = page.url();
  if (samePath(landedUrl, requestedUrl)) return { landedUrl, passwordField: false };
  const fields = await page
    .locator("input[type=password]:visible")
    .count()
    .catch(() => 0);
  return { landedUrl, passwordField: fields > 0 };
}
