import type { AuthSpec } from "../audit-spec/schema.js";
import type { LoginOutcome, PageArtifacts } from "./types.js";

/**
 * Whether a closed site let the audit in: the rules the gatherer needs to go on after a login,
 * and how page.access tells that it kept the audit out of a page × viewport (every other check
 * of it then skips, saying so, instead of judging a login page or nothing). Pure functions of
 * what was gathered.
 */

/** True when two URLs name the same path on their site; a trailing slash makes no other page. */
export function samePath(url: string, other: string): boolean {
  const pathOf = (text: string) => (URL.canParse(text) ? new URL(text).pathname.replace(/(.)\/$/, "$1") : text);
  return pathOf(url) === pathOf(other);
}

/** Why a login did not get in. */
export type LoginFailure =
  | { kind: "load"; error: string }
  | { kind: "status"; status: number }
  | { kind: "blocked"; host: string }
  | { kind: "step"; step: number; message: string }
  | { kind: "stayed"; url: string };

/** Why the login did not get in, or null when it did: it loaded, was let through, walked every step and left the login's path. */
export function loginFailure(outcome: LoginOutcome): LoginFailure | null {
  if (outcome.blockedHost !== null) return { kind: "blocked", host: outcome.blockedHost };
  if (outcome.loadError !== null) return { kind: "load", error: outcome.loadError };
  if (outcome.documentStatus !== null && outcome.documentStatus >= 400)
    return { kind: "status", status: outcome.documentStatus };
  if (outcome.stepError !== null) return { kind: "step", ...outcome.stepError };
  if (outcome.finalUrl === null || samePath(outcome.finalUrl, outcome.requestedUrl))
    return { kind: "stayed", url: outcome.finalUrl ?? outcome.requestedUrl };
  return null;
}

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
  if (page.documentStatus === 401 || page.documentStatus === 403)
    return { kind: "status", status: page.documentStatus };
  const login = auth?.login;
  if (login === undefined || page.access.landedUrl === null) return null;
  const loginUrl = new URL(login.path, page.requestedUrl).href;
  // The login page audited as a page of its own is no page sent back to it.
  if (samePath(page.requestedUrl, loginUrl)) return null;
  const sentBack = [page.access.landedUrl, page.finalUrl].find((url) => url !== null && samePath(url, loginUrl));
  if (sentBack !== undefined) return { kind: "login-page", url: sentBack! };
  if (login.hosts.includes(new URL(page.access.landedUrl).hostname))
    return { kind: "sign-in-host", url: page.access.landedUrl };
  return null;
}
