/**
 * base64 as pages send it: the standard or the URL-safe alphabet, padded or not. The one place
 * that tells whether a string is base64 (collect payloads, the personal-data detector) and how a
 * value looks once encoded (the canary watch).
 */

/** Shorter strings in base64's alphabet are words far more often than encoded text. */
const MIN_LENGTH = 8;

/** The text inside a base64 (or base64url) string, padded or not; null when it is not one, or holds binary data. */
export function decodeBase64Text(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed.length < MIN_LENGTH || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return null;
  const standard = trimmed.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (standard.length % 4 === 1) return null;
  const bytes = Buffer.from(standard, "base64");
  // Only a canonical encoding round-trips; words that merely use base64's alphabet do not.
  if (bytes.toString("base64").replace(/=+$/, "") !== standard) return null;
  const decoded = bytes.toString("utf8");
  // Control characters and invalid UTF-8 (decoded as U+FFFD) are what binary data looks like.
  return /[\p{Cc}\uFFFD]/u.test(decoded.replace(/[\t\n\r]/g, " ")) ? null : decoded;
}

/** A value base64-encoded in the standard and the URL-safe alphabet, unpadded, so that each is found inside a padded encoding too. */
export function base64Forms(value: string): string[] {
  const standard = Buffer.from(value).toString("base64").replace(/=+$/, "");
  return [standard, standard.replace(/\+/g, "-").replace(/\//g, "_")];
}
