/**
 * URL globs (src/url/glob.ts) written from URLs a page requested: any scheme and host (`**`), the
 * path as seen (percent-encoded, as the globs are matched), with the parts that change between
 * installs or releases (the key, content hashes, version numbers) turned into `*`.
 */

/** A content hash or a build id: hex of 8 or more, or a long run of letters with digits. */
const HASH = /^(?:[0-9a-f]{8,}|(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,})$/;
const VERSION = /^v?\d+\.\d+\.\d+(?:[-.][\w.]+)?$/;

/** One path segment with its changing parts as `*`: a key, a hash or a version, whole or between dots (`app.3f9a1c2b.js`). */
function generalSegment(segment: string, keys: readonly string[]): string {
  if (segment === "") return segment;
  let general = segment;
  for (const key of keys) if (key !== "" && general.includes(key)) general = general.replaceAll(key, "*");
  if (HASH.test(general) || VERSION.test(general)) return "*";
  return general
    .split(".")
    .map((part) => (HASH.test(part) ? "*" : part))
    .join(".");
}

/** The URL's path as a glob: `**` for scheme, host and anything before, then the path with its changing parts as `*`. */
export function pathGlob(url: string, keys: readonly string[] = []): string {
  const { pathname } = new URL(url);
  return `**${pathname
    .split("/")
    .map((segment) => generalSegment(segment, keys))
    .join("/")}`;
}

/** One glob for several URLs: their path globs, alone or as `**` + `{a,b}` when they differ. */
export function urlsGlob(urls: readonly string[], keys: readonly string[] = []): string {
  const globs = [...new Set(urls.map((url) => pathGlob(url, keys)))];
  if (globs.length === 1) return globs[0]!;
  return `**{${globs.map((glob) => glob.slice(2)).join(",")}}`;
}
