/** Keeps the API key out of everything setup-audit writes or prints. */

/** What a secret is replaced with. */
export const REDACTED = "[redacted]";

/** `text` with every occurrence of `secret` (plain or URL-encoded) replaced by `mark`. */
export function redactSecret(text: string, secret: string, mark = REDACTED): string {
  if (secret === "") return text;
  const forms = [...new Set([secret, encodeURIComponent(secret)])];
  return forms.reduce((redacted, form) => redacted.split(form).join(mark), text);
}

/** A copy of a plain-data value with `secret` redacted from every string and every key in it. */
export function redactDeep<T>(value: T, secret: string): T {
  if (typeof value === "string") return redactSecret(value, secret) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactDeep(item, secret)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [redactSecret(key, secret), redactDeep(item, secret)]),
    ) as T;
  }
  return value;
}
