import type { BrowserContext, BrowserContextOptions } from "playwright";
import { secretValue } from "../privacy/secrets.js";
import type { AuthSpec } from "../audit-spec/schema.js";
import type { RequestTags } from "./traffic.js";

/**
 * The secrets that get the audit into a closed site, read from the variables `auth` names, and
 * scoped so that they reach the base URL's origin alone: Basic credentials and headers go to
 * that scheme, host and port only; cookies are host-only on its host.
 */
export interface SiteCredentials {
  /** The base URL's origin: the one place the credentials go. */
  origin: string;
  basic: { username: string; password: string } | null;
  headers: { name: string; value: string }[];
  cookies: { name: string; value: string }[];
}

/** The credentials of `auth` on the base URL's origin; null without `auth`. */
export function siteCredentials(
  auth: AuthSpec | undefined,
  baseUrl: string,
  env: NodeJS.ProcessEnv,
): SiteCredentials | null {
  if (auth === undefined) return null;
  return {
    origin: new URL(baseUrl).origin,
    basic: auth.basic
      ? { username: secretValue(auth.basic.usernameEnv, env), password: secretValue(auth.basic.passwordEnv, env) }
      : null,
    headers: Object.entries(auth.headers ?? {}).map(([name, variable]) => ({
      name,
      value: secretValue(variable, env),
    })),
    cookies: (auth.cookies ?? []).map((cookie) => ({ name: cookie.name, value: secretValue(cookie.valueEnv, env) })),
  };
}

/** The closed site's headers as the request tagger sends them: to its origin alone. */
export function originHeaders(credentials: SiteCredentials | null): RequestTags["originHeaders"] {
  return credentials === null || credentials.headers.length === 0
    ? null
    : { origin: credentials.origin, headers: credentials.headers };
}

/**
 * A context's options for the site: Basic credentials answered only to the origin's challenge
 * (Playwright's `httpCredentials` reach every origin without `origin`), and the storage state to
 * start from (a file, or the state a login ended with).
 */
export function accessContextOptions(
  credentials: SiteCredentials | null,
  storageState: BrowserContextOptions["storageState"] | null,
): BrowserContextOptions {
  return {
    ...(credentials?.basic ? { httpCredentials: { ...credentials.basic, origin: credentials.origin } } : {}),
    ...(storageState ? { storageState } : {}),
  };
}

/** Sets the site's cookies host-only on the origin's host: a domain without a leading dot covers no subdomain. */
export async function addSiteCookies(context: BrowserContext, credentials: SiteCredentials | null): Promise<void> {
  if (credentials === null || credentials.cookies.length === 0) return;
  const { hostname, protocol } = new URL(credentials.origin);
  await context.addCookies(
    credentials.cookies.map((cookie) => ({
      ...cookie,
      domain: hostname,
      path: "/",
      secure: protocol === "https:",
      httpOnly: true,
      sameSite: "Lax" as const,
    })),
  );
}
