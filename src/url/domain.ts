/**
 * The domain rule: every URL audited for an environment stays on its domain, subdomains included.
 * The spec loader and the CLI refuse URLs that break it up front; page.domain judges where the
 * pages actually went.
 */

/** The domain an environment's URLs must stay on: its `domain`, or else its base URL's host. */
export function environmentDomain(env: { baseUrl: string; domain?: string | undefined }): string {
  const domain = env.domain ?? new URL(env.baseUrl).hostname;
  // `.example.test` and `*.example.test` are common ways to write "this domain and below".
  return domain
    .trim()
    .toLowerCase()
    .replace(/^\*?\./, "")
    .replace(/\.$/, "");
}

/** True when the URL's host is `domain` itself or one of its subdomains. */
export function isOnDomain(url: string, domain: string): boolean {
  if (!URL.canParse(url)) return false;
  const host = new URL(url).hostname.replace(/\.$/, "");
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * True when a document URL took the visitor to another site. Browser-internal documents
 * (about:blank, a data: URL, Chromium's error page) are no site, so they leave nothing.
 */
export function leavesDomain(url: string, domain: string): boolean {
  return /^https?:/i.test(url) && !isOnDomain(url, domain);
}
