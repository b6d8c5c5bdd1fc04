import { isRecord } from "../text/parse-json.js";
import type { CapturedCall, CollectRequest } from "../artifacts/types.js";
import { firstSendings, isPageViewEvent, madeAtEpochMs, pageViewName, recordedUrl } from "../artifacts/page-views.js";
import { routeOf } from "../url/route.js";
import type { SdkSpec } from "../audit-spec/schema.js";

/**
 * The calls a page's collect requests carried, read back from their payloads: what the audit
 * judges when it could not watch the SDK's methods (a frozen API, a global redefined beyond
 * reach). Reads the vendors' shapes (Segment and RudderStack `type`/`event`/`traits`, PostHog
 * `$identify` and `$set`, Mixpanel engage `$set`, Amplitude `event_type`/`event_properties` and
 * `$identify` with `user_properties.$set`) and generic fields (`event`, `name`, `kind`,
 * `type`, `traits`, `attributes`, `attrs`). Page views (`type: "page"`, a track named
 * `sdk.pageEvent`) are page-kind calls. An event sent again under the id its SDK gave it (a retry
 * of one message) is one call. The events an SDK sends by itself (by the names their vendors keep,
 * and Amplitude's campaign `$identify`) are no call, and the properties PostHog's and Mixpanel's
 * libraries add to every event are not the page's.
 */
export function carriedCalls(
  requests: readonly CollectRequest[],
  sdk: Pick<SdkSpec, "track" | "identify" | "page" | "pageEvent">,
  documentUrl: string,
  placeAt?: PlaceAt,
): CapturedCall[] {
  const firstSending = firstSendings();
  return requests.flatMap((request) =>
    request.events.flatMap((event): CapturedCall[] => {
      const call = isPageViewEvent(event.raw, sdk) ? pageView(event.raw, sdk) : readEvent(event.raw);
      if (call === null || !firstSending(event.raw)) return [];
      const method =
        call.kind === "identify"
          ? sdk.identify[0]!
          : call.kind === "page"
            ? (sdk.page[0] ?? sdk.track[0]!)
            : sdk.track[0]!;
      const url = recordedUrl(event.raw);
      const place = placeAt?.(madeAtEpochMs(event.raw), request.atMs);
      const route = url === null ? (place?.route ?? null) : routeOf(url);
      return [
        {
          ...call,
          method,
          atMs: request.atMs,
          state: "direct",
          seenOn: "network",
          documentUrl: url ?? documentUrl,
          ...(place === undefined ? {} : { step: place.step }),
          ...(route === null ? {} : { route }),
          ...(call.kind === "page" ? { pageUrl: url } : {}),
        },
      ];
    }),
  );
}

/**
 * Where the page was when a carried call was made: its journey step and route when its SDK says it
 * made it (epoch milliseconds, wall clock), else when its request left (from the start).
 */
export type PlaceAt = (madeAtWallMs: number | null, sentAtMs: number) => { step: number | null; route: string | null };

type EventCall = Pick<CapturedCall, "kind" | "name" | "properties">;

function pageView(raw: unknown, sdk: Pick<SdkSpec, "pageEvent">): EventCall {
  const record = isRecord(raw) ? raw : {};
  return {
    kind: "page",
    name: pageViewName(raw) ?? sdk.pageEvent,
    properties: isRecord(record.properties) ? record.properties : null,
  };
}

const IDENTIFY_EVENTS = new Set(["$identify", "identify"]);

function readEvent(raw: unknown): EventCall | null {
  if (!isRecord(raw)) return null;
  const type = text(raw.type) ?? text(raw.kind);
  const event = text(raw.event) ?? text(raw.event_type) ?? text(raw.name);
  const properties = firstRecord(raw.properties, raw.event_properties);
  const context = isRecord(raw.context) ? raw.context : null;
  const userProperties = isRecord(raw.user_properties) ? raw.user_properties : null;
  const attributes = firstRecord(
    raw.traits,
    context?.traits,
    raw.$set,
    properties?.$set,
    userProperties?.$set,
    raw.attributes,
    raw.attrs,
  );
  const userId =
    text(raw.userId) ??
    text(raw.user_id) ??
    text(raw.$distinct_id) ??
    text(raw.distinct_id) ??
    text(properties?.distinct_id);
  if (
    type === "identify" ||
    (event !== null && IDENTIFY_EVENTS.has(event)) ||
    (event === null && attributes !== null)
  ) {
    return isCampaignIdentify(userProperties) ? null : { kind: "identify", name: userId, properties: attributes };
  }
  // Any other type (Segment's and RudderStack's page, screen, group, alias) is neither kind.
  if (event === null || (type !== null && type !== "track") || OWN_EVENT.test(event)) return null;
  return { kind: "track", name: event, properties: pageProperties(properties) };
}

/**
 * The names the vendors keep for the events their SDKs send by themselves: PostHog's and Mixpanel's
 * `$…` ($pageview, $pageleave, $autocapture, $web_vitals, $feature_flag_called, $set,
 * $mp_web_page_view), Mixpanel's `mp_…`, Amplitude's `[Amplitude] …` and its session events.
 */
const OWN_EVENT = /^(\$|mp_|\[Amplitude\] )|^session_(start|end)$/;

/** Amplitude's web attribution: an `$identify` it sends by itself, setting once the campaign's `initial_*` keys. */
function isCampaignIdentify(userProperties: Record<string, unknown> | null): boolean {
  const once = userProperties?.$setOnce;
  return isRecord(once) && "initial_referrer" in once;
}

/** The keys PostHog's and Mixpanel's libraries add to every event's properties. */
const LIBRARY_KEY = /^(\$|mp_)|^(token|distinct_id|time)$/;

/** A track's properties as the page gave them: without the keys PostHog's and Mixpanel's libraries add (both stamp `$lib_version`). */
function pageProperties(properties: Record<string, unknown> | null): Record<string, unknown> | null {
  if (properties === null || !("$lib_version" in properties)) return properties;
  return Object.fromEntries(Object.entries(properties).filter(([key]) => !LIBRARY_KEY.test(key)));
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function firstRecord(...candidates: unknown[]): Record<string, unknown> | null {
  return (candidates.find(isRecord) as Record<string, unknown> | undefined) ?? null;
}
