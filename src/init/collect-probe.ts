import { randomBytes } from "node:crypto";
import type { BrowserContext, Page, Route } from "playwright";
import { decodeCollectBody } from "../gather/payload.js";

/** Where an SDK sent the calls the probe made, and how long after them. */
export interface ProbeResult {
  /** The URLs of the requests that carried a probe call, in the order they were sent. */
  urls: string[];
  /** Milliseconds from the probe's calls to the first such request; null when none came. */
  delayMs: number | null;
}

/**
 * Learns a generic SDK's collect endpoint by calling its methods with a marker (a made-up event
 * name and user id) and watching for the requests that carry it. Those requests are answered
 * inside the browser, so the service never receives the probe; other requests go on as usual.
 */
export async function probeCollect(context: BrowserContext, page: Page, global: string, methods: readonly string[], timeoutMs: number): Promise<ProbeResult> {
  const marker = `setup_audit_init_probe_${randomBytes(4).toString("hex")}`;
  const urls: string[] = [];
  let calledAt = Number.NaN;
  let firstAt: number | null = null;
  let arrived: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (arrived = resolve));
  const handler = async (route: Route) => {
    const request = route.request();
    if (!carries(request.url(), request.postDataBuffer(), request.headers()["content-encoding"], marker)) return route.fallback();
    urls.push(request.url());
    firstAt ??= Date.now();
    arrived();
    // The page may close while the request waits; it then needs no answer.
    await route.fulfill({ status: 200, json: {} }).catch(() => undefined);
  };
  await context.route("**/*", handler);
  try {
    calledAt = Date.now();
    await page.evaluate(callEach, { global, methods, marker }).catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([first, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    // Calls an SDK batches may leave in a second request soon after the first.
    if (firstAt !== null) await page.waitForTimeout(500);
  } finally {
    await context.unroute("**/*", handler);
  }
  return { urls, delayMs: firstAt === null ? null : firstAt - calledAt };
}

/** True when the request's URL or decoded body carries the marker. */
function carries(url: string, body: Buffer | null, contentEncoding: string | undefined, marker: string): boolean {
  if (url.includes(marker) || body?.includes(marker)) return true;
  return decodeCollectBody(body, url, contentEncoding).strings.some((text) => text.includes(marker));
}

/** What the page runs: each method called with the marker as the event name, the user id and an attribute. */
function callEach({ global, methods, marker }: { global: string; methods: readonly string[]; marker: string }): void {
  for (const path of methods) {
    const parts = path.split(".");
    let holder: unknown = (window as unknown as Record<string, unknown>)[global];
    for (const part of parts.slice(0, -1)) holder = holder === null || holder === undefined ? undefined : (holder as Record<string, unknown>)[part];
    const method = holder === null || holder === undefined ? undefined : (holder as Record<string, unknown>)[parts.at(-1)!];
    try {
      if (typeof method === "function") method.call(holder, marker, { setup_audit_probe: marker });
    } catch {
      // An SDK that refuses the probe's arguments says nothing about where it sends calls.
    }
  }
}
