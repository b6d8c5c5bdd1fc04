import { isRecord } from "../text/parse-json.js";
import { VENDORS } from "./presets.js";
import type { PayloadShape } from "./vendor.js";

/**
 * Reading a collected event whatever SDK sent it: each vendor's shape (its module in this
 * folder), then the plain names an SDK no preset names uses (the service's own: `kind`, `name`,
 * `attributes`). A field is read from the first of all the shapes' paths the event holds, so a
 * spec that spells its SDK out, with no preset, reads the vendor's events all the same.
 */

/** The plain names: the service's own SDK (`kind`, `name`, `attributes`, `userId`) and SDKs like it. */
const PLAIN: PayloadShape = {
  type: ["kind"],
  pageViewType: null,
  name: ["name"],
  properties: ["properties"],
  attributes: ["attributes", "attrs"],
  userId: ["userId"],
  identifyEvents: ["identify"],
  pageUrl: [],
  madeAtIso: [],
  madeAtNumber: [],
  messageId: [],
  ownEvents: null,
  libraryKeys: null,
};

const SHAPES: readonly PayloadShape[] = [...Object.values(VENDORS).map((vendor) => vendor.payload), PLAIN];

type PathField = {
  [Field in keyof PayloadShape]-?: PayloadShape[Field] extends readonly string[] ? Field : never;
}[keyof PayloadShape];

/** Every shape's paths for one field, in the shapes' order, each once. */
function pathsOf(field: PathField): readonly string[] {
  return [...new Set(SHAPES.flatMap((shape) => shape[field]))];
}

const PATHS = {
  type: pathsOf("type"),
  name: pathsOf("name"),
  properties: pathsOf("properties"),
  attributes: pathsOf("attributes"),
  userId: pathsOf("userId"),
  pageUrl: pathsOf("pageUrl"),
  madeAtIso: pathsOf("madeAtIso"),
  madeAtNumber: pathsOf("madeAtNumber"),
  messageId: pathsOf("messageId"),
};
const IDENTIFY_EVENTS = new Set(pathsOf("identifyEvents"));

/** The value at a dotted path of an event; undefined when it holds none. */
function at(event: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((object, part) => (isRecord(object) ? object[part] : undefined), event);
}

/** The value at the first of `paths` that holds a string, number or boolean, as text; null when none does. */
export function textAt(event: unknown, paths: readonly string[]): string | null {
  for (const path of paths) {
    const value = at(event, path);
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return String(value);
  }
  return null;
}

/** The first non-empty string at one of `paths`; null when none holds one. */
function firstText(event: unknown, paths: readonly string[]): string | null {
  for (const path of paths) {
    const value = at(event, path);
    if (typeof value === "string" && value !== "") return value;
  }
  return null;
}

/** The first object at one of `paths`; null when none holds one. */
function firstRecord(event: unknown, paths: readonly string[]): Record<string, unknown> | null {
  for (const path of paths) {
    const value = at(event, path);
    if (isRecord(value)) return value;
  }
  return null;
}

/** A track or an identify as an event carried it. */
export interface CarriedCall {
  kind: "track" | "identify";
  name: string | null;
  properties: Record<string, unknown> | null;
}

/**
 * The track or identify a collected event is; null for anything else (a page view, a group, an
 * alias) and for the events an SDK sends by itself. A track's properties come without the keys a
 * vendor's library adds to every event.
 */
export function readCarriedCall(event: unknown): CarriedCall | null {
  if (!isRecord(event)) return null;
  const type = firstText(event, PATHS.type);
  const name = firstText(event, PATHS.name);
  const attributes = firstRecord(event, PATHS.attributes);
  if (type === "identify" || (name !== null && IDENTIFY_EVENTS.has(name)) || (name === null && attributes !== null)) {
    if (SHAPES.some((shape) => shape.ownIdentify?.(event))) return null;
    return { kind: "identify", name: firstText(event, PATHS.userId), properties: attributes };
  }
  // Any other type (Segment's and RudderStack's page, screen, group, alias) is neither kind.
  if (name === null || (type !== null && type !== "track") || SHAPES.some((shape) => shape.ownEvents?.test(name)))
    return null;
  return { kind: "track", name, properties: pageProperties(firstRecord(event, PATHS.properties)) };
}

/** A track's properties as the page gave them: without the keys the vendors' libraries add (which stamp `$lib_version`). */
function pageProperties(properties: Record<string, unknown> | null): Record<string, unknown> | null {
  if (properties === null || !("$lib_version" in properties)) return properties;
  return Object.fromEntries(
    Object.entries(properties).filter(([key]) => !SHAPES.some((shape) => shape.libraryKeys?.test(key))),
  );
}

/** True when a collected event is a page view: a vendor's page type (Segment's `type: "page"`), or an event named `pageEvent` (PostHog's `$pageview`). */
export function isPageViewEvent(event: unknown, sdk: { pageEvent: string | null }): boolean {
  if (!isRecord(event)) return false;
  if (SHAPES.some((shape) => shape.pageViewType !== null && firstText(event, shape.type) === shape.pageViewType))
    return true;
  return sdk.pageEvent !== null && firstText(event, PATHS.name) === sdk.pageEvent;
}

/** The name a page-view event carries (PostHog's `$pageview`, a Segment page's name), else its type (Segment's `page`): what its call's delivery is matched by. */
export function pageViewName(event: unknown): string | null {
  return firstText(event, [...PATHS.name, ...PATHS.type]);
}

/** The URL a page view's payload records (PostHog's and Mixpanel's `$current_url`, Segment's and RudderStack's `url`, Amplitude's `[Amplitude] Page URL`); null when it records none. */
export function recordedUrl(event: unknown): string | null {
  for (const path of PATHS.pageUrl) {
    const value = at(event, path);
    if (typeof value === "string" && URL.canParse(value)) return value;
  }
  return null;
}

/** When the SDK says the event was made, in epoch milliseconds (an ISO stamp, or a number of milliseconds or Mixpanel's seconds); null when it does not say. */
export function madeAtEpochMs(event: unknown): number | null {
  for (const path of PATHS.madeAtIso) {
    const stamp = at(event, path);
    if (typeof stamp === "string" && !Number.isNaN(Date.parse(stamp))) return Date.parse(stamp);
  }
  for (const path of PATHS.madeAtNumber) {
    const time = at(event, path);
    // Mixpanel counts seconds; the others milliseconds.
    if (typeof time === "number" && Number.isFinite(time)) return time < 1e11 ? time * 1000 : time;
  }
  return null;
}

/** The id an SDK gives one message, which its retries repeat (Segment's and RudderStack's messageId, PostHog's uuid, Amplitude's insert_id, Mixpanel's $insert_id); null when it has none. */
export function messageIdOf(event: unknown): string | null {
  return firstText(event, PATHS.messageId);
}

/** The objects in the list at a dotted path of `value` (the value itself when the path is empty); none when it holds no list. */
export function recordsAt(value: unknown, path: string): Record<string, unknown>[] {
  const list = path === "" ? value : at(value, path);
  return Array.isArray(list) ? list.filter(isRecord) : [];
}

/** The number at a dotted path of an event; null when it holds none. */
export function numberAt(event: unknown, path: string): number | null {
  const value = at(event, path);
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
