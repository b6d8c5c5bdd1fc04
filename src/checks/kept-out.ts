import type { PageArtifacts } from "../artifacts/types.js";
import { loginFailure, samePath, type LoginFailure } from "../artifacts/site-entry.js";
import type { AuthSpec } from "../spec/schema.js";

/**
 * Whether a closed site kept the audit out of a page × viewport: page.access reports it, and every
 * other check of that page × viewport skips, saying so, instead of judging a login page or nothing.
 */

/** How the site kept the audit out of one page × viewport. */
export type KeptOut =
  /** The viewport's login did not get in: the page was not opened. */
  | { kind: "login"; failure: LoginFailure }
  /** The page answered 401 or 403. */
  | { kind: "status"; status: number }
  /** The browser gave up on the site's HTTP authentication: it had no credentials for it. */
  | { kind: "refused" }
  /** With `auth.login`, the page landed or ended on the login's path. */
  | { kind: "login-page"; url: string }
  /** With `auth.login`, the page landed on a host the login passes through (single sign-on). */
  | { kind: "sign-in-host"; url: string };

/** How the site kept the audit out of the page, or null when it let it in (or the page failed for another reason). */
export function keptOut(page: PageArtifacts, auth: AuthSpec | undefined): KeptOut | null {
  const failure = page.access.login === null ? null : loginFailure(page.access.login);
  if (failure !== null) return { kind: "login", failure };
  if (page.access.authRefused) return { kind: "refused" };
  if (page.documentStatus === 401 || page.documentStatus === 403) return { kind: "status", status: page.documentStatus };
  const login = auth?.login;
  if (login === undefined || page.access.landedUrl === null) return null;
  const loginUrl = new URL(login.path, page.requestedUrl).href;
  // The login page audited as a page of its own is no page sent back to it.
  if (samePath(page.requestedUrl, loginUrl)) return null;
  const sentBack = [page.access.landedUrl, page.finalUrl].find((url) => url !== null && samePath(url, loginUrl));
  if (sentBack !== undefined) return { kind: "login-page", url: sentBack! };
  if (login.hosts.includes(new URL(page.access.landedUrl).hostname)) return { kind: "sign-in-host", url: page.access.landedUrl };
  return null;
}

/** Why a page × viewport cannot be judged, as every check but page.access says it; null when it can. */
export function notJudgedReason(page: PageArtifacts, auth: AuthSpec | undefined): string | null {
  if (keptOut(page, auth) !== null) return "Not judged: the site kept the audit out (page.access says why).";
  if (page.loadError !== null) return "Not judged: the page did not load.";
  return null;
}
