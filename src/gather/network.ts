import type { BrowserContext, Request, Response } from "playwright";
import type { CollectRequest, KeySighting, PageArtifacts, SdkScriptLoad } from "../artifacts/types.js";
import { urlMatcher } from "../url/glob.js";
import type { SdkSpec } from "../audit-spec/schema.js";
import { decodeCollectBody } from "./payload.js";
import type { Gathering, GathererPart } from "./part.js";
import { interceptCollect, SiteRequestTagger, tagsAnything, type RequestTags } from "./traffic.js";

/** Headers that say where the request came from, not what the SDK sent: the page's own URL is no key place. */
const NOT_SDK_HEADERS = new Set(["referer"]);

/** The user and password of an `Authorization: Basic …` value, decoded; null when it is no Basic credential. */
export function decodeBasicAuth(value: string): { user: string; password: string } | null {
  const match = /^\s*basic\s+([A-Za-z0-9+/_-]+=*)\s*$/i.exec(value);
  if (!match) return null;
  const text = Buffer.from(match[1]!.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("utf8");
  const colon = text.indexOf(":");
  return colon === -1 ? { user: text, password: "" } : { user: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** The spec's keys found in a script URL's path or query (decoded or not): `script-url` sightings naming the URL. */
export function keysInScriptUrl(url: string, projectKeys: readonly string[]): KeySighting[] {
  const decoded = safeDecode(url);
  return projectKeys
    .filter((key) => key !== "" && (url.includes(key) || decoded.includes(key)))
    .map((key) => ({ key, where: "script-url", detail: url }));
}

/** `text` URL-decoded; as it is when it does not decode. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The spec's keys in a collect request's headers: in the decoded user or password of a Basic
 * `authorization` (RudderStack sends `writeKey:`), or anywhere in any other header's value.
 * Each sighting names the header, never its value.
 */
export function keysInHeaders(
  headers: Readonly<Record<string, string>>,
  projectKeys: readonly string[],
): KeySighting[] {
  const sightings: KeySighting[] = [];
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    if (NOT_SDK_HEADERS.has(name)) continue;
    const basic = name === "authorization" ? decodeBasicAuth(value) : null;
    const texts = basic === null ? [value] : [value, basic.user, basic.password];
    for (const key of projectKeys) {
      if (key !== "" && texts.some((text) => text.includes(key)))
        sightings.push({ key, where: "header", detail: name });
    }
  }
  return sightings;
}

/** Delivery-level capture: the SDK script's response and every collect request with its answer. */
export class NetworkCapture {
  readonly sdkScripts: SdkScriptLoad[] = [];
  readonly collect: CollectRequest[] = [];
  /** Project keys seen in the SDK script's URL and in collect requests' URLs, payloads and headers. */
  readonly keySightings: KeySighting[] = [];
  /** Each sighting once, by key, place and detail. */
  private readonly sightingIds = new Set<string>();
  /** Reads of collect requests' full headers still under way. */
  private readonly pending = new Set<Promise<void>>();
  readonly isCollectUrl: (url: string) => boolean;
  readonly isSdkUrl: (url: string) => boolean;
  /** The entry each watched request fills in once it is answered or fails. */
  private readonly entryByRequest = new Map<Request, SdkScriptLoad | CollectRequest>();

  constructor(
    context: BrowserContext,
    sdk: SdkSpec,
    private readonly projectKeys: readonly string[],
    private readonly sinceStart: (epochMs: number) => number,
    private readonly onChange: () => void,
    /** False while requests are not the page's to keep (part.ts `observing`). */
    private readonly observing: () => boolean = () => true,
  ) {
    this.isCollectUrl = urlMatcher(sdk.collect);
    this.isSdkUrl = urlMatcher(sdk.script);
    context.on("request", (request) => this.onRequest(request));
    // The response event carries the status without a round trip to the browser, which
    // requestfinished's `request.response()` costs on every request of every page.
    context.on("response", (response) => this.onResponse(response));
    context.on("requestfailed", (request) => this.onFailed(request));
  }

  /** True once the audit answers collect requests itself (traffic.collect: intercept, or a reload): each says so. */
  private intercepted = false;

  /** From now on the audit answers the collect requests itself, and nothing reaches the service. */
  async intercept(context: BrowserContext): Promise<void> {
    if (this.intercepted) return;
    this.intercepted = true;
    await interceptCollect(context, this.isCollectUrl);
  }

  private onRequest(request: Request): void {
    const url = request.url();
    if (this.isSdkUrl(url)) {
      const load: SdkScriptLoad = { url, status: null, failure: null, atMs: this.sinceStart(Date.now()) };
      this.sdkScripts.push(load);
      this.entryByRequest.set(request, load);
      this.addSightings(keysInScriptUrl(url, this.projectKeys));
      this.onChange();
    } else if (this.isCollectUrl(url) && this.observing()) {
      const headers = request.headers();
      const { events, strings, error } = decodeCollectBody(request.postDataBuffer(), url, headers["content-encoding"]);
      for (const key of this.projectKeys) {
        if (url.includes(key) || strings.includes(key)) this.addSightings([{ key, where: "collect", detail: url }]);
      }
      this.addSightings(keysInHeaders(headers, this.projectKeys));
      this.readAllHeaders(request);
      const entry: CollectRequest = {
        url,
        method: request.method(),
        atMs: this.sinceStart(Date.now()),
        status: null,
        failure: null,
        events,
        decodeError: error,
        intercepted: this.intercepted,
      };
      this.collect.push(entry);
      this.entryByRequest.set(request, entry);
      this.onChange();
    }
  }

  /**
   * Resolves once every collect request seen so far has had its full headers read (the
   * synchronous `headers()` lacks some the network stack adds, cookies among them), or once
   * `timeoutMs` passed: a request that is never answered never has them. Await it before
   * reading `keySightings` for the artifacts.
   */
  async settled(timeoutMs = 500): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, left)));
      await Promise.race([Promise.all([...this.pending]), bound]);
      clearTimeout(timer);
    }
  }

  /** Reads the request's full headers in the background; a request whose page is gone has none to add. */
  private readAllHeaders(request: Request): void {
    const read: Promise<void> = request
      .allHeaders()
      .then(
        (headers) => this.addSightings(keysInHeaders(headers, this.projectKeys)),
        () => undefined,
      )
      .finally(() => this.pending.delete(read));
    this.pending.add(read);
  }

  private addSightings(sightings: readonly KeySighting[]): void {
    for (const sighting of sightings) {
      const id = `${sighting.key} ${sighting.where} ${sighting.detail}`;
      if (this.sightingIds.has(id)) continue;
      this.sightingIds.add(id);
      this.keySightings.push(sighting);
    }
  }

  private onResponse(response: Response): void {
    const entry = this.entryByRequest.get(response.request());
    if (!entry) return;
    entry.status = response.status();
    this.onChange();
  }

  private onFailed(request: Request): void {
    const entry = this.entryByRequest.get(request);
    if (!entry) return;
    entry.failure = request.failure()?.errorText ?? "failed";
    this.onChange();
  }
}

/** The network part: the SDK script's loads and the collect requests, watched from before the page exists. */
export class NetworkPart implements GathererPart {
  /** A page never opened loaded no script and sent no request. */
  static empty(): Pick<PageArtifacts, "sdkScripts" | "collect"> {
    return { sdkScripts: [], collect: [] };
  }

  readonly capture: NetworkCapture;

  constructor(private readonly gathering: Gathering<"sdk" | "projectKeys">) {
    const { context, input, sinceStart, changed } = gathering;
    this.capture = new NetworkCapture(
      context,
      input.sdk,
      input.projectKeys,
      sinceStart,
      () => changed.notify(),
      () => gathering.observing,
    );
  }

  activity(): number {
    return this.capture.collect.length;
  }

  async finish(): Promise<Pick<PageArtifacts, "sdkScripts" | "collect">> {
    // Headers some requests reveal only asynchronously (cookies) may still carry a key.
    await this.capture.settled();
    return { sdkScripts: this.capture.sdkScripts, collect: this.gathering.beforeReload(this.capture.collect) };
  }
}

/** The traffic part: tags the page's requests to the site, and answers its collect requests itself when told to. */
export class TrafficPart implements GathererPart {
  constructor(
    private readonly gathering: Gathering<"siteDomain">,
    private readonly network: NetworkCapture,
  ) {}

  async attach(): Promise<void> {
    const { input, run, context } = this.gathering;
    const tags: RequestTags = {
      header: run.traffic.header,
      domain: input.siteDomain,
      originHeaders: run.originHeaders,
    };
    run.browserTagger?.tagFor(tags);
    // A remote browser's pages are tagged each through a session of its own.
    if (tagsAnything(tags) && run.browserTagger === null)
      await SiteRequestTagger.tagPage(await this.gathering.cdp(), tags);
    if (run.traffic.collect === "intercept") await this.network.intercept(context);
  }
}
