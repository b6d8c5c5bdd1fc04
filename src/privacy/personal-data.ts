import { isIPv4, isIPv6 } from "node:net";
import { decodeBase64Text } from "../text/base64.js";
import { jsonObjectIn } from "../text/parse-json.js";
import { EMAIL } from "./redact.js";
import { wordsOf } from "../text/wording.js";

/**
 * The personal-data detector: finds personal data in identify attributes by key name and by
 * value, also when the value hides inside a URL-encoded, base64 or JSON string. A finding
 * carries a masked value only: raw personal data never leaves this module.
 */

/** The kinds of personal data the detector knows. */
export type PersonalDataKind =
  | "email"
  | "phone"
  | "name"
  | "address"
  | "postcode"
  | "birth-date"
  | "national-id"
  | "ip-address"
  | "card-number"
  | "bank-account";

/** Each kind as a message names it: "an email address". */
export const PERSONAL_DATA_LABEL: Record<PersonalDataKind, string> = {
  email: "an email address",
  phone: "a phone number",
  name: "a person's name",
  address: "a postal address",
  postcode: "a postcode",
  "birth-date": "a birth date",
  "national-id": "a national id number",
  "ip-address": "an IP address",
  "card-number": "a card number",
  "bank-account": "a bank account number",
};

/** How a value hid personal data: as is, or inside a URL-encoded or base64 string. */
export type PersonalDataEncoding = "plain" | "url-encoded" | "base64";

/** Personal data found inside one string. */
export interface ValueMatch {
  kind: PersonalDataKind;
  /** The outermost encoding that had to be undone to see it. */
  encoding: PersonalDataEncoding;
  /** The matched text, already masked. */
  masked: string;
}

/** Personal data found in one attribute. */
export interface PersonalDataHit {
  /** The attribute's key; a dotted path for nested objects and JSON strings. */
  key: string;
  kind: PersonalDataKind;
  /** `value` when the value itself looks like personal data, `key` when only its name says so. */
  by: "key" | "value";
  encoding: PersonalDataEncoding;
  /** The value, masked (`j***@e***.org`). */
  masked: string;
}

/** One key-name rule: a kind, judged on the key's words and on its folded name (lower case, no separators). */
interface KeyRule {
  kind: PersonalDataKind;
  matches(tokens: readonly string[], folded: string): boolean;
}

// Checked in order: `email_address` is an email and `ip_address` an IP before either is an address.
const KEY_RULES: readonly KeyRule[] = [
  { kind: "email", matches: (tokens, folded) => folded.includes("email") || tokens.includes("mail") },
  {
    kind: "ip-address",
    matches: (tokens, folded) =>
      tokens.some((token) => ["ip", "ipv4", "ipv6", "ipaddress"].includes(token)) || folded.endsWith("ipaddress"),
  },
  {
    kind: "phone",
    matches: (tokens, folded) =>
      folded.includes("phone") || tokens.some((token) => ["mobile", "tel", "cell", "msisdn", "fax"].includes(token)),
  },
  {
    kind: "name",
    matches: (_tokens, folded) =>
      folded === "name" ||
      [
        "firstname",
        "lastname",
        "fullname",
        "surname",
        "forename",
        "givenname",
        "familyname",
        "middlename",
        "maidenname",
        "username",
        "displayname",
        "nickname",
        "realname",
      ].some((name) => folded.endsWith(name)),
  },
  {
    kind: "postcode",
    matches: (tokens, folded) =>
      /post(al)?code|zipcode/.test(folded) || tokens.includes("zip") || tokens.includes("plz"),
  },
  { kind: "birth-date", matches: (tokens, folded) => folded.includes("birth") || tokens.includes("dob") },
  {
    kind: "national-id",
    matches: (tokens, folded) =>
      tokens.includes("ssn") ||
      tokens.includes("nino") ||
      /socialsecurity|nationalid|passport|taxid|taxnumber|driverslicen[cs]e|driverlicen[cs]e|idcardnumber/.test(folded),
  },
  { kind: "card-number", matches: (_tokens, folded) => /(card|cc)(number|num|no)$|creditcard|^cvv|^cvc/.test(folded) },
  { kind: "bank-account", matches: (tokens, folded) => tokens.includes("iban") || folded.includes("bankaccount") },
  {
    kind: "address",
    matches: (tokens, folded) =>
      folded.includes("address") ||
      tokens.some((token) => ["street", "addr", "housenumber"].includes(token)) ||
      folded.includes("streetname"),
  },
];

/** The kind of personal data a key's name says it holds; null when the name says nothing. */
export function personalDataKindOfKey(key: string): PersonalDataKind | null {
  const tokens = wordsOf(key);
  const folded = tokens.join("");
  return KEY_RULES.find((rule) => rule.matches(tokens, folded))?.kind ?? null;
}

// A `+` is a strong enough sign to look for international numbers anywhere in a text.
const INTERNATIONAL_PHONE = /(?<![\w+])\+[1-9][\d\s().-]{6,22}\d(?!\w)/g;
const PHONE_SHAPES: readonly RegExp[] = [
  // 0044 20 7946 0958: international with the 00 prefix, written with separators.
  /^00[1-9]\d{0,3}(?:[\s.-]\(?\d+\)?)+$/,
  // (555) 123-4567, 555-123-4567, 555.123.4567: North American, with its separators.
  /^(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}$/,
  // 020 7946 0958, 030/1234567, 06 12 34 56 78, 07700900123: national with a trunk 0.
  /^0[1-9]\d{0,4}(?:[\s/.-]?\d{2,}){1,4}$/,
];
// Separators between the fields of query strings, JSON and lists; a phone number never spans them.
const FIELD_SEPARATORS = /[&=?;,|#"'{}[\]<>\n\r\t]+/;

/** The first personal data in a plain text, masked; null when there is none. */
function plainMatch(text: string): Omit<ValueMatch, "encoding"> | null {
  const email = text.match(EMAIL)?.[0];
  if (email !== undefined) return { kind: "email", masked: maskValue(email, "email") };
  for (const international of text.matchAll(INTERNATIONAL_PHONE)) {
    const digits = digitsOf(international[0]).length;
    if (digits >= 8 && digits <= 15) return { kind: "phone", masked: maskValue(international[0], "phone") };
  }
  for (const field of text.split(FIELD_SEPARATORS)) {
    const piece = field.trim().replace(/^(?:tel|mailto):/i, "");
    if (isCardNumber(piece)) return { kind: "card-number", masked: maskValue(piece, "card-number") };
    if (isIban(piece)) return { kind: "bank-account", masked: maskValue(piece, "bank-account") };
    if (isIPv4(piece) || isRoutableLookingIPv6(piece))
      return { kind: "ip-address", masked: maskValue(piece, "ip-address") };
    if (isNationalPhone(piece)) return { kind: "phone", masked: maskValue(piece, "phone") };
  }
  return null;
}

/** `::1` and `fe80::1` are the machine itself or its link, not a visitor: an IPv6 worth reporting has three groups. */
function isRoutableLookingIPv6(piece: string): boolean {
  return isIPv6(piece) && piece.split(":").filter((group) => group !== "").length >= 3;
}

function digitsOf(text: string): string {
  return text.replace(/\D/g, "");
}

function isNationalPhone(piece: string): boolean {
  const digits = digitsOf(piece).length;
  return digits >= 9 && digits <= 15 && PHONE_SHAPES.some((shape) => shape.test(piece));
}

// Issuer prefixes of the card networks: a Luhn-valid number with another prefix is an id, not a card.
const CARD_PREFIX =
  /^(?:4|5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720)|3[47]|3(?:0[0-5]|[68])|35|6(?:011|5|4[4-9]|2)|5[06-9]|6\d)/;

function isCardNumber(piece: string): boolean {
  if (!/^\d(?:[ -]?\d){12,18}$/.test(piece)) return false;
  const digits = digitsOf(piece);
  return CARD_PREFIX.test(digits) && passesLuhn(digits);
}

/** True when a string of digits passes the Luhn checksum that card numbers carry. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

function isIban(piece: string): boolean {
  const compact = piece.replace(/ /g, "").toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
  const rearranged = `${compact.slice(4)}${compact.slice(0, 4)}`.replace(/[A-Z]/g, (letter) =>
    String(letter.charCodeAt(0) - 55),
  );
  let remainder = 0;
  for (const digit of rearranged) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1;
}

/** The text inside a URL-encoded string; null when it is not one. */
function urlDecoded(text: string): string | null {
  if (!/%[0-9A-Fa-f]{2}/.test(text)) return null;
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * The first personal data in a string, looking through URL encoding and base64 (and both), or
 * null. Plan names, UUIDs, dates, prices, order numbers and short ids are not personal data.
 */
export function detectPersonalValue(value: string): ValueMatch | null {
  const plain = plainMatch(value);
  if (plain) return { ...plain, encoding: "plain" };
  const layers: [PersonalDataEncoding, (text: string) => string | null][] = [
    ["url-encoded", urlDecoded],
    ["base64", decodeBase64Text],
  ];
  for (const [encoding, decode] of layers) {
    const decoded = decode(value);
    if (decoded === null) continue;
    const inner = detectPersonalValue(decoded);
    if (inner) return { kind: inner.kind, masked: inner.masked, encoding };
  }
  return null;
}

/**
 * Every attribute that holds personal data, by key name or by value, walking into nested objects,
 * arrays and JSON strings. Keys in `allow` (top-level names or dotted paths) are exempt, with
 * everything inside them.
 */
export function findPersonalData(attributes: unknown, allow: readonly string[] = []): PersonalDataHit[] {
  return scan(attributes, allow).hits;
}

/** Whether `allow` exempts the attribute at `key` (a dotted path): it, or an object it is in, or its top-level name is listed. */
export function isAllowedKey(key: string, allow: readonly string[]): boolean {
  const segments = key.split(".");
  return segments.some((_, index) => isListed(segments.slice(0, index + 1).join("."), allow));
}

/** The rule findPersonalData applies at each path it visits. */
function isListed(path: string, allow: readonly string[]): boolean {
  return allow.includes(path) || allow.includes(path.split(".")[0]!);
}

/**
 * A copy of `attributes` safe to show (in an attachment, say): every value `findPersonalData`
 * reports is replaced by its masked form, and whatever lies too deep to inspect by `…`.
 */
export function redactPersonalData(attributes: unknown, allow: readonly string[] = []): unknown {
  return scan(attributes, allow).redacted;
}

// Deeper than this, nobody nests segment attributes: the walk stops instead of recursing forever.
const MAX_DEPTH = 4;

function scan(attributes: unknown, allow: readonly string[]): { hits: PersonalDataHit[]; redacted: unknown } {
  const hits: PersonalDataHit[] = [];
  const found = (hit: PersonalDataHit) => {
    hits.push(hit);
    return hit.masked;
  };
  const visit = (value: unknown, path: string, depth: number): unknown => {
    if (path !== "" && isListed(path, allow)) return value;
    const name = path.split(".").at(-1) ?? "";
    const byKey = name === "" ? null : personalDataKindOfKey(name);
    if (typeof value === "string" || typeof value === "number") {
      const text = String(value);
      const json = typeof value === "string" && depth < MAX_DEPTH ? jsonObjectIn(text) : undefined;
      if (json !== undefined) return JSON.stringify(visit(json, path, depth + 1));
      const byValue = detectPersonalValue(text);
      if (byValue)
        return found({
          key: path || "(attributes)",
          kind: byValue.kind,
          by: "value",
          encoding: byValue.encoding,
          masked: byValue.masked,
        });
      if (byKey && carriesData(byKey, text))
        return found({ key: path, kind: byKey, by: "key", encoding: "plain", masked: maskValue(text, byKey) });
      return value;
    }
    if (value === null || typeof value !== "object") return value;
    if (depth >= MAX_DEPTH) return "…";
    if (byKey && Object.keys(value).length > 0)
      return found({
        key: path,
        kind: byKey,
        by: "key",
        encoding: "plain",
        masked: Array.isArray(value) ? "[…]" : "{…}",
      });
    const entries = Object.entries(value).map(
      ([key, inner]) => [key, visit(inner, path === "" ? key : `${path}.${key}`, depth + 1)] as const,
    );
    return Array.isArray(value) ? entries.map(([, inner]) => inner) : Object.fromEntries(entries);
  };
  const redacted = visit(attributes, "", 0);
  return { hits, redacted };
}

// Kinds whose values always contain a digit, and kinds whose values always contain a letter.
const DIGIT_KINDS: ReadonlySet<PersonalDataKind> = new Set([
  "phone",
  "postcode",
  "birth-date",
  "national-id",
  "ip-address",
  "card-number",
  "bank-account",
]);
const LETTER_KINDS: ReadonlySet<PersonalDataKind> = new Set(["email", "name", "address"]);

/**
 * Whether a value under a telling key name can hold that personal data: `mobile: "ios"` is a
 * device, `email_count: 3` a number and `email_opt_in: "yes"` a flag, none of them personal.
 */
function carriesData(kind: PersonalDataKind, text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === "" || /^(?:true|false|yes|no|none|null|undefined|unknown|n\/a)$/i.test(trimmed)) return false;
  if (DIGIT_KINDS.has(kind)) return /\d/.test(trimmed);
  return !LETTER_KINDS.has(kind) || /\p{L}/u.test(trimmed);
}

/**
 * A value with its personal part hidden, safe for reports: `j***@e***.org` for an email, the
 * last digits of a phone or card, the first part of an IP, the first character of anything else.
 */
export function maskValue(value: string, kind: PersonalDataKind): string {
  const text = value.trim();
  switch (kind) {
    case "email": {
      const [local = "", domain = ""] = text.split("@");
      const labels = domain.split(".");
      const tld = labels.length > 1 ? `.${labels.at(-1)}` : "";
      return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***${tld}`;
    }
    case "phone":
      return keepLastDigits(text, 2);
    case "card-number":
      return keepLastDigits(text, 4);
    case "ip-address":
      return text.includes(":") ? `${text.split(":")[0]}:***` : `${text.split(".")[0]}.***.***.***`;
    case "bank-account":
      return `${text.slice(0, 2)}***${text.replace(/ /g, "").slice(-2)}`;
    default:
      return text.length <= 2 ? "***" : `${text.slice(0, 1)}***`;
  }
}

/** Every digit but the last `kept` turned into `*`, the layout kept: `+** ** **** **58`. */
function keepLastDigits(text: string, kept: number): string {
  let toHide = digitsOf(text).length - kept;
  return text.replace(/\d/g, (digit) => (toHide-- > 0 ? "*" : digit));
}
