/**
 * Makes Allure's HTML safe to forward: it must open offline and tell no one it was opened. Allure's
 * "awesome" template always adds a Google Analytics tag (no option turns it off), so the tag is cut
 * out, and a Content-Security-Policy lets the page load nothing from any other host even if a
 * future template adds something new.
 *
 * Regular expressions rather than an HTML parser: they cut two known elements out of Allure's own
 * template and insert one tag, leaving the megabytes around them as they are, where a parser would
 * rebuild the whole document (or, as a tokenizer with offsets, do the same cutting with a
 * dependency). The final check is textual on purpose: it also finds a remote URL inside an inline
 * script, which a parser sees as text although the script may still write it into the page.
 */

/** The policy: everything inline, from data:/blob: URLs, or from the report's own folder. */
export const REPORT_CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline' data:",
  "style-src 'self' 'unsafe-inline' data:",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "frame-src 'self' data: blob:",
  "form-action 'none'",
].join("; ");

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const REMOTE_SRC = /\bsrc\s*=\s*["']?\s*(https?:)?\/\//i;
const ANALYTICS = /googletagmanager|google-analytics|\bgtag\s*\(/i;
const REMOTE_REFERENCE =
  /<(script|link|img|iframe|embed|object|source|audio|video)\b[^>]*\b(src|href|data)\s*=\s*["']?\s*(https?:)?\/\/[^"'\s>]*/i;

/** The report's HTML with analytics and every remote script removed and the CSP added; throws if a remote reference survives. */
export function makeOffline(html: string): string {
  const withoutTrackers = html.replace(SCRIPT, (script, attributes: string, body: string) =>
    REMOTE_SRC.test(attributes) || ANALYTICS.test(body) ? "" : script,
  );
  const head = withoutTrackers.match(/<head\b[^>]*>/i);
  if (!head)
    throw new Error(
      "The Allure report has no <head>: its template changed, so setup-audit cannot make it safe to share.",
    );
  const insertAt = head.index! + head[0].length;
  const offline = `${withoutTrackers.slice(0, insertAt)}\n    <meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">${withoutTrackers.slice(insertAt)}`;
  const remote = offline.match(REMOTE_REFERENCE);
  if (remote) {
    throw new Error(
      `The Allure report still loads from another host (${remote[0].slice(0, 120)}): its template changed, so setup-audit will not write a report that calls out.`,
    );
  }
  return offline;
}
