import { randomBytes } from "node:crypto";
import type { BrowserContext, Page, Route } from "playwright";
import { decodeCollectBody } from "../gather/payload.js";

/** Where an SDK sent the calls the probe made, and how long after them. */
export interface ProbeResult {
  /** The URLs of the requests that carried a probe call, in the order they were sent. */
  urls: string[];
  /** Milliseconds from the probe's calls to the request that carried the last method's marker; null when none came. */
  delayMs: number | null;
}

/**
 * Learns a generic SDK's collect endpoint by calling each of its methods with a marker of its
 * own (a made-up event name and user id) and watching for the requests that carry them, until
 * every method's marker has left or `timeoutMs` passed: an SDK may send an identify at once and
 * batch a track for seconds. Those requests are answered inside the browser, so the service
 * never receives the probe: the route stays until the caller closes the context, which also
 * catches a call the SDK sends after the probe stopped waiting. Other requests go on as usual.
 */
export async function probeCollect(
  context: BrowserContext,
  page: Page,
  global: string,
  methods: readonly string[],
  timeoutMs: number,
): Promise<ProbeResult> {
  const base = `setup_audit_init_probe_${randomBytes(4).toString("hex")}`;
  // `_1x` is no part of `_10x`: each method's marker is told apart from the others'.
  const markers = methods.map((_, index) => `${base}_${index}x`);
  const waiting = new Set(markers);
  const urls: string[] = [];
  let calledAt = Number.NaN;
  let lastAt: number | null = null;
  let allArrived: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (allArrived = resolve));
  await context.route("**/*", async (route: Route) => {
    const request = route.request();
    const carried = carriedMarkers(
      request.url(),
      request.postDataBuffer(),
      request.headers()["content-encoding"],
      base,
      markers,
    );
    if (carried.length === 0) return route.fallback();
    urls.push(request.url());
    // Every marker the request carries: one batch may carry them all.
    if (carried.filter((marker) => waiting.delete(marker)).length > 0) lastAt = Date.now();
    if (waiting.size === 0) allArrived();
    // The page may close while the request waits; it then needs no answer.
    await route.fulfill({ status: 200, json: {} }).catch(() => undefined);
  });
  calledAt = Date.now();
  const called = await page.evaluate(callEach, { global, methods, markers }).catch((): string[] => []);
  // A method that is missing or threw sends nothing to wait for.
  for (const marker of markers) if (!called.includes(marker)) waiting.delete(marker);
  if (waiting.size === 0) allArrived();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([arrived, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
  return { urls, delayMs: lastAt === null ? null : lastAt - calledAt };
}

/** The markers the request's URL or decoded body carries; none when it carries no probe call. */
function carriedMarkers(
  url: string,
  body: Buffer | null,
  contentEncoding: string | undefined,
  base: string,
  markers: readonly string[],
): string[] {
  const texts = [url, body?.toString("utf8") ?? "", ...decodeCollectBody(body, url, contentEncoding).strings];
  if (!texts.some((text) => text.includes(base))) return [];
  return markers.filter((marker) => texts.some((text) => text.includes(marker)));
}

/** What the page runs: each method called with its marker as the event name, the user id and an attribute; returns the markers of the methods that took their call. */
function callEach({
  global,
  methods,
  markers,
}: {
  global: string;
  methods: readonly string[];
  markers: readonly string[];
}): string[] {
  return methods.flatMap((path, index) => {
    const marker = markers[index]!;
    const parts = path.split(".");
    let holder: unknown = (window as unknown as Record<string, unknown>)[global];
    for (const part of parts.slice(0, -1))
      holder = holder === null || holder === undefined ? undefined : (holder as Record<string, unknown>)[part];
    const method =
      holder === null || holder === undefined ? undefined : (holder as Record<string, unknown>)[parts.at(-1)!];
    if (typeof method !== "function") return [];
    try {
      method.call(holder, marker, { setup_audit_probe: marker });
      return [marker];
    } catch {
      // An SDK that refuses the probe's arguments says nothing about where it sends calls.
      return [];
    }
  });
}
