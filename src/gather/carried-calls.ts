import { isRecord } from "../text/parse-json.js";
import { isPageViewEvent, madeAtEpochMs, pageViewName, readCarriedCall, recordedUrl } from "../vendors/payload.js";
import type { CapturedCall, CollectRequest } from "../artifacts/types.js";
import { firstSendings } from "../artifacts/page-views.js";
import { routeOf } from "../url/route.js";
import type { SdkSpec } from "../audit-spec/schema.js";

/**
 * The calls a page's collect requests carried, read back from their payloads (each vendor's shape
 * is its module in src/vendors/): what the audit judges when it could not watch the SDK's methods
 * (a frozen API, a global redefined beyond reach), and the calls made outside its global. Page
 * views (`type: "page"`, a track named `sdk.pageEvent`) are page-kind calls. An event sent again
 * under the id its SDK gave it (a retry of one message) is one call. The events an SDK sends by
 * itself are no call.
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
      const call = isPageViewEvent(event.raw, sdk) ? pageView(event.raw, sdk) : readCarriedCall(event.raw);
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
