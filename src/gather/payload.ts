import { gunzipSync } from "node:zlib";
import type { DeliveredEvent } from "../artifacts/types.js";
import { decodeBase64Text } from "../text/base64.js";

/**
 * Decoders for collect payloads: JSON, `text/plain` JSON, form-encoded (plain or base64) JSON and
 * gzip, batched or not. The only place that knows how events travel.
 */

/** What a collect request carried: its events, every string of the whole payload, and why it could not be read. */
export interface DecodedCollect {
  events: DeliveredEvent[];
  /** Every string in the payload, envelope included (where an SDK puts its project key). */
  strings: string[];
  /** The payloads as decoded, envelope included: the body's and each JSON query parameter's. */
  payloads: unknown[];
  error: string | null;
}

/** Decodes a collect request's body and query string. */
export function decodeCollectBody(
  body: Buffer | null,
  url: string,
  contentEncoding: string | undefined,
): DecodedCollect {
  const candidates: unknown[] = [];
  let error: string | null = null;
  if (body && body.length > 0) {
    try {
      const text = isGzip(body, contentEncoding) ? gunzipSync(body).toString("utf8") : body.toString("utf8");
      candidates.push(parseLoose(text));
    } catch (cause) {
      error = `the body could not be decoded: ${(cause as Error).message}`;
    }
  }
  // Pixel-style deliveries put the payload in the query string instead.
  for (const value of new URL(url).searchParams.values()) {
    const parsed = tryJson(value) ?? tryJson(decodeBase64Text(value));
    if (parsed !== undefined) candidates.push(parsed);
  }
  const events = candidates.flatMap(eventsOf);
  return {
    events,
    strings: candidates.flatMap(stringsOf),
    payloads: candidates,
    error: events.length > 0 ? null : error,
  };
}

function isGzip(body: Buffer, contentEncoding: string | undefined): boolean {
  return contentEncoding?.includes("gzip") === true || (body[0] === 0x1f && body[1] === 0x8b);
}

/** JSON, or a form body whose fields hold JSON (plain or base64), or the raw text. */
function parseLoose(text: string): unknown {
  const json = tryJson(text);
  if (json !== undefined) return json;
  if (/^[\w.%-]+=/.test(text)) {
    const fields = [...new URLSearchParams(text).values()];
    const decoded = fields
      .map((value) => tryJson(value) ?? tryJson(decodeBase64Text(value)))
      .filter((value) => value !== undefined);
    if (decoded.length > 0) return decoded;
  }
  const base64 = tryJson(decodeBase64Text(text));
  if (base64 !== undefined) return base64;
  throw new Error("neither JSON, form-encoded JSON nor base64 JSON");
}

function tryJson(text: string | null): unknown {
  if (text === null) return undefined;
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Splits a payload into events: an array is a batch; an object holding an array of objects
 * (`events`, `batch`, …) is an envelope whose array is the batch; any other object is one event.
 */
function eventsOf(payload: unknown): DeliveredEvent[] {
  if (Array.isArray(payload)) return payload.flatMap(eventsOf);
  if (payload === null || typeof payload !== "object") return [];
  const batch = Object.values(payload).find(
    (value) =>
      Array.isArray(value) && value.length > 0 && value.every((item) => item !== null && typeof item === "object"),
  );
  if (batch) return (batch as unknown[]).flatMap(eventsOf);
  return [{ strings: stringsOf(payload), raw: payload }];
}

/** Every string value inside a value, depth first. */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}
