import type { KeySighting, PageArtifacts } from "../artifacts/types.js";
import { decodeBasicAuth } from "../gather/network.js";
import { decodeCollectBody } from "../gather/payload.js";
import { isKeyShapedName } from "../gather/sdk-tag.js";
import { escapeRegExp } from "../text/wording.js";
import { isKeyToken } from "../text/key-token.js";
import type { FirstLook } from "./first-look.js";

/**
 * Finding the key a site installs, where `sdk.key` looks for it. The first look proposes
 * candidates: values under key-shaped names (`data-project-key`, `writeKey`, `token`) in the
 * SDK's tag, its global, request URLs, payloads and headers, Basic auth users, the first string
 * argument of the SDK's init call in the page's inline scripts (`analytics.load("<key>")`), the
 * place a preset's script URL keeps the key (`…/analytics.js/v1/<key>/…`), and key-looking
 * segments of the SDK's script URL. The gatherer, given them as the keys to look for, then says
 * where each one is seen on every page and viewport, and the key seen most widely is the one.
 */

/** A value that can be a key: one word of letters, digits, `_` and `-`, 6 to 128 long, not a plain word. */
export function isKeyLike(value: string): boolean {
  return /^[A-Za-z0-9_-]{6,128}$/.test(value) && /[\d_-]/.test(value) && !/^\d+$/.test(value);
}

/** A path segment that can only be a key: long, with letters and digits (Segment's `/analytics.js/v1/<writeKey>/`). */
function isKeyLikeSegment(segment: string): boolean {
  return /^[A-Za-z0-9_-]{16,128}$/.test(segment) && /\d/.test(segment) && /[A-Za-z]/.test(segment);
}

/** The SDK as far as the candidates need it: its script URLs, its global, its init methods and the key its tag declares. */
export interface SdkFootprint {
  /** The SDK's script URLs the page requested. */
  scriptUrls: readonly string[];
  global: string;
  /** The key-shaped attribute value of the SDK's script tag (readSdkTag), or null. */
  tagKey: string | null;
  /** The SDK's init method paths (`load`, `init`): their first string argument is the key. */
  init: readonly string[];
  /** Where the preset's script URL keeps the key (its first group); null when it does not. */
  scriptKey: RegExp | null;
}

/** The first string argument of each `<global>.<init>("…")` call in the page's inline scripts (a snippet's `analytics.load("<key>")`). */
function initArguments(scripts: readonly string[], sdk: SdkFootprint): string[] {
  if (sdk.init.length === 0) return [];
  const call = new RegExp(
    `\\b${escapeRegExp(sdk.global)}\\s*\\.\\s*(?:${sdk.init.map(escapeRegExp).join("|")})\\s*\\(\\s*(['"\`])([^'"\`]*)\\1`,
    "g",
  );
  return scripts.flatMap((text) => [...text.matchAll(call)].map((match) => match[2]!));
}

/** The values that may be the installed key, most telling first, each once. */
export function keyCandidates(look: FirstLook, sdk: SdkFootprint): string[] {
  const found: string[] = [];
  // Values under key-shaped names, and where SDKs put their key, are tokens; elsewhere they must look like keys.
  const add = (value: unknown, shaped: (value: string) => boolean = isKeyLike) => {
    if (typeof value === "string" && shaped(value) && value !== sdk.global && !found.includes(value)) found.push(value);
  };
  add(sdk.tagKey, isKeyToken);
  for (const url of sdk.scriptUrls) add(sdk.scriptKey?.exec(new URL(url).pathname)?.[1], isKeyToken);
  for (const value of initArguments(look.inlineScripts, sdk)) add(value, isKeyToken);
  for (const url of sdk.scriptUrls) {
    for (const segment of new URL(url).pathname.split("/")) if (isKeyLikeSegment(segment)) add(segment);
  }
  for (const global of look.globals) {
    // An SDK's settings name storage keys too (Segment's `anonKey: "ajs_anonymous_id"`): from a property, only a value with a digit.
    if (global.name === sdk.global || global.type === "string")
      for (const property of global.keyProperties) if (/\d/.test(property.value)) add(property.value);
  }
  for (const request of look.requests) {
    if (request.resourceType === "document") continue;
    const url = new URL(request.url);
    for (const [name, value] of url.searchParams) if (isKeyShapedName(name)) add(value, isKeyToken);
    for (const segment of url.pathname.split("/"))
      if (isKeyLikeSegment(segment) && sdk.scriptUrls.some((script) => new URL(script).origin === url.origin))
        add(segment);
    for (const [name, value] of Object.entries(request.headers)) {
      // A Basic credential's user (RudderStack's write key), or a Bearer or Token credential.
      if (name === "authorization")
        add(decodeBasicAuth(value)?.user ?? /^\s*(?:bearer|token)\s+(\S+)\s*$/i.exec(value)?.[1], isKeyToken);
      else if (isKeyShapedName(name)) add(value, isKeyToken);
    }
    for (const payload of decodeCollectBody(request.body, request.url, request.headers["content-encoding"]).payloads)
      for (const value of keyShapedValues(payload)) add(value, isKeyToken);
  }
  return found;
}

/** String values under key-shaped names, anywhere in a decoded payload. */
function keyShapedValues(payload: unknown, depth = 0): string[] {
  if (payload === null || typeof payload !== "object" || depth > 6) return [];
  return Object.entries(payload).flatMap(([name, value]) =>
    typeof value === "string" ? (isKeyShapedName(name) ? [value] : []) : keyShapedValues(value, depth + 1),
  );
}

/** Where a key was seen on one page × viewport. */
export interface KeyPlace {
  page: string;
  viewport: string;
  where: KeySighting["where"];
  detail: string;
}

/** A key and every place it was seen. */
export interface KeySeen {
  key: string;
  places: KeyPlace[];
  /** The page × viewports it was seen on, as `page · viewport`. */
  units: string[];
}

/** The key the pages install (seen on the most page × viewports, then in the most kinds of places), and the other keys seen. */
export interface KeyChoice {
  installed: KeySeen | null;
  others: KeySeen[];
  /** Page × viewports that loaded, to say "on 3 of 4". */
  loadedUnits: number;
}

/** Picks the installed key from what the gatherer saw on every page × viewport. */
export function chooseKey(pages: readonly PageArtifacts[]): KeyChoice {
  const byKey = new Map<string, KeyPlace[]>();
  const note = (key: string, place: KeyPlace) => byKey.set(key, [...(byKey.get(key) ?? []), place]);
  for (const page of pages) {
    if (page.sdkTagKey !== null)
      note(page.sdkTagKey, {
        page: page.page,
        viewport: page.viewport,
        where: "script-tag",
        detail: "the SDK's script tag",
      });
    for (const sighting of page.keySightings) {
      // Every init call's first string is reported; a URL or a name given there is no key.
      if (sighting.where === "init" && !isKeyToken(sighting.key)) continue;
      note(sighting.key, { page: page.page, viewport: page.viewport, where: sighting.where, detail: sighting.detail });
    }
  }
  const seen = [...byKey]
    // A value seen only among the SDK global's properties is one of its settings (a storage key's name), not a key it installs.
    .filter(([, places]) => places.some((place) => place.where !== "sdk-global"))
    .map(
      ([key, places]): KeySeen => ({
        key,
        places,
        units: [...new Set(places.map((place) => `${place.page} · ${place.viewport}`))],
      }),
    );
  const kinds = (entry: KeySeen) => new Set(entry.places.map((place) => place.where)).size;
  // Stable: among equals, the key noted first wins (the SDK's tag, then the order of the first page's sightings).
  const ranked = seen
    .map((entry, index) => ({ entry, index }))
    .sort(
      (a, b) => b.entry.units.length - a.entry.units.length || kinds(b.entry) - kinds(a.entry) || a.index - b.index,
    );
  return {
    installed: ranked[0]?.entry ?? null,
    others: ranked.slice(1).map(({ entry }) => entry),
    loadedUnits: pages.filter((page) => page.loadError === null).length,
  };
}
