import { consentSteps, MIN_SCRUBBED_LENGTH, secretValues } from "./secrets.js";
import type { AuditSpec } from "../audit-spec/schema.js";

/**
 * The redaction policy: what setup-audit may print or write of what it captured. The API key
 * never appears anywhere. The shareable report travels by e-mail to people outside the team, so
 * it errs on the side of hiding: a value is shown only when it plainly is a segment value (`pro`,
 * `business`, `42`), never when it could identify a person.
 */

/** What a secret is replaced with. */
const REDACTED = "[redacted]";

/** Each secret's forms, worked out once: a run hides its few secrets in every string it writes. */
const formsBySecret = new Map<string, readonly string[]>();

/** The forms of `secret` (encodedForms), from the cache. */
function secretForms(secret: string): readonly string[] {
  let forms = formsBySecret.get(secret);
  if (forms === undefined) {
    forms = encodedForms(secret);
    formsBySecret.set(secret, forms);
  }
  return forms;
}

/**
 * The forms a secret travels in, longest first: as it is, URL-encoded, and in base64 and base64url
 * (an Authorization header's, a token's), padding left off. Inside longer encoded text (Basic
 * auth's `user:password`) a secret starts at any of three byte alignments: there, the characters
 * that encode its bytes alone are its form, those shared with its neighbours are not.
 */
function encodedForms(secret: string): string[] {
  const encoded = [0, 1, 2].flatMap((offset) => {
    const base64 = Buffer.concat([Buffer.alloc(offset), Buffer.from(secret)])
      .toString("base64")
      .replace(/=+$/, "");
    const inner = base64.slice(offset === 0 ? 0 : 4, -4);
    const forms = offset === 0 ? [base64, ...(inner.length >= 8 ? [inner] : [])] : inner.length >= 8 ? [inner] : [];
    return forms.flatMap((form) => [form, form.replaceAll("+", "-").replaceAll("/", "_")]);
  });
  return [...new Set([secret, encodeURIComponent(secret), ...encoded])].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of `secret` (plain, URL-encoded or base64) replaced by `mark`. */
export function redactSecret(text: string, secret: string, mark = REDACTED): string {
  if (secret === "") return text;
  return secretForms(secret).reduce(
    (redacted, form) => (redacted.includes(form) ? redacted.split(form).join(mark) : redacted),
    text,
  );
}

/** The secrets of a spec run: the API key (when the spec names one and it is set), every typed value and every secret of a closed site that is set. */
export function secretsOf(spec: AuditSpec, env: NodeJS.ProcessEnv): string[] {
  const steps = [...spec.pages.flatMap((page) => page.steps), ...consentSteps(spec).flatMap((answer) => answer.steps)];
  const typed = steps.flatMap((step) => ("fill" in step && step.fill.value !== undefined ? [step.fill.value] : []));
  return [...credentialsOf(spec, env), ...typed];
}

/** The credentials of a spec run, as the environment holds them: the API key and every secret of a closed site that is set. */
export function credentialsOf(spec: AuditSpec, env: NodeJS.ProcessEnv): string[] {
  const apiKey = spec.api ? env[spec.api.keyEnv] : undefined;
  return [...(apiKey ? [apiKey] : []), ...secretValues(spec, env)];
}

/** The secrets of every spec a run audits, read from `env` as the run's processes see it. */
export function runSecrets(targets: readonly { spec: AuditSpec }[], env: NodeJS.ProcessEnv): string[] {
  return targets.flatMap((target) => secretsOf(target.spec, env));
}

/** A copy of a plain-data value with `change` applied to every string and every key in it. */
function mapStrings<T>(value: T, change: (text: string) => string): T {
  if (typeof value === "string") return change(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => mapStrings(item, change)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [change(key), mapStrings(item, change)])) as T;
  }
  return value;
}

/** A copy of a plain-data value with `secret` redacted from every string and every key in it. */
export function redactDeep<T>(value: T, secret: string): T {
  return mapStrings(value, (text) => redactSecret(text, secret));
}

/** Stands for a hidden value; says what was there so the reader can still reason about it. */
export function maskedValue(value: unknown): string {
  if (typeof value === "string") return `«masked string, ${value.length} chars»`;
  if (value === null) return "«masked null»";
  if (Array.isArray(value)) return `«masked list of ${value.length}»`;
  return `«masked ${typeof value}»`;
}

/**
 * A plan-like value: a number, a boolean, or a short lower-case token. Mixed case, spaces, `@`,
 * dots and more than two digits are what names, e-mails, phone numbers and ids look like.
 */
export function isPlanLike(value: unknown): boolean {
  if (typeof value === "number" || typeof value === "boolean") return true;
  return typeof value === "string" && /^[a-z][a-z0-9_-]{0,23}$/.test(value) && (value.match(/\d/g)?.length ?? 0) <= 2;
}

/**
 * The properties of a call as the report shows them: keys kept, values shown only when
 * `showValue(key, value)` allows it, nested objects masked as a whole.
 */
export function maskProperties(properties: unknown, showValue: (key: string, value: unknown) => boolean): unknown {
  if (properties === null || properties === undefined) return properties ?? null;
  if (typeof properties !== "object" || Array.isArray(properties)) return maskedValue(properties);
  return Object.fromEntries(
    Object.entries(properties as Record<string, unknown>).map(([key, value]) => [
      key,
      showValue(key, value) ? value : maskedValue(value),
    ]),
  );
}

/** A URL with its credentials gone and every query value and the fragment hidden, except values listed in `keep` (project keys). */
export function redactUrl(url: string, keep: ReadonlySet<string> = new Set()): string {
  if (!URL.canParse(url)) return maskedValue(url);
  const parsed = new URL(url);
  parsed.username = "";
  parsed.password = "";
  for (const [name, value] of [...parsed.searchParams]) {
    if (!keep.has(value)) parsed.searchParams.set(name, "…");
  }
  if (parsed.hash) parsed.hash = "…";
  // URLSearchParams encodes the ellipsis; it reads better as typed.
  return parsed.href.replaceAll("%E2%80%A6", "…");
}

/** A URL without a user name and password in it; as it is when it has none. */
export function withoutUserInfo(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.username === "" && parsed.password === "") return url;
  parsed.username = "";
  parsed.password = "";
  return parsed.href;
}

/** Where a URL points, for a message: origin and path, without the query and fragment that may carry personal data or secrets. Other text is kept as it is. */
export function shareableUrl(text: string): string {
  if (!/^https?:/i.test(text) || !URL.canParse(text)) return text;
  const url = new URL(text);
  return `${url.origin}${url.pathname}`;
}

/** An e-mail address: what the personal-data detector reports as one (a false alarm fails a page). */
export const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
/**
 * Anything shaped like an e-mail address, which free text never shows: wider than EMAIL, since
 * hiding a non-address costs little. But not a package's version in a CDN URL
 * (`posthog-js@1.449.2/dist/array.js`), which names the SDK script a message is about.
 */
const EMAIL_LIKE = /[\w.%+-]+@(?!\d+(?:\.\d+){1,2}(?:-[\w.]+)?(?![\w.]))[\w-]+(?:\.[\w-]+)+/g;
/** `identify("u_123")` as messages write a call: the quoted argument is a user id. */
const IDENTIFY_USER_ID = /\bidentify\("(?:[^"\\]|\\.)*"\)/g;

/**
 * Free text for the report (page errors, check messages) with e-mail addresses, identify user ids
 * and the given secrets (the API key, the journey's typed values, a closed site's secrets; plain, URL-encoded or
 * base64) replaced by a mark.
 */
export function scrubText(text: string, secrets: readonly string[]): string {
  return hideSecrets(text, hiddenOf(secrets))
    .replace(EMAIL_LIKE, "«email»")
    .replace(IDENTIFY_USER_ID, "identify(«user id»)");
}

/** `text` with the secrets hiddenOf gave replaced by a mark. */
function hideSecrets(text: string, hidden: readonly string[]): string {
  return hidden.reduce((scrubbed, secret) => redactSecret(scrubbed, secret, "«redacted»"), text);
}

/** The secrets hidden, longest first (short ones would blank out ordinary words: a run names them in a warning at its start): a secret inside another (the user name in Basic auth's pair) must not break the longer one's forms. */
function hiddenOf(secrets: readonly string[]): string[] {
  return secrets.filter((secret) => secret.length >= MIN_SCRUBBED_LENGTH).sort((a, b) => b.length - a.length);
}

/** A copy of plain data (a finding's evidence) with the given secrets hidden in every string, as scrubText hides them. */
export function hideSecretsDeep<T>(value: T, secrets: readonly string[]): T {
  const hidden = hiddenOf(secrets);
  return mapStrings(value, (text) => hideSecrets(text, hidden));
}
