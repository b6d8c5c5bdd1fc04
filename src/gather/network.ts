import type { BrowserContext, Request, Response } from "playwright";
import type { CollectRequest, KeySighting, SdkScriptLoad } from "../artifacts.js";
import { urlMatcher } from "../glob.js";
import type { SdkSpec } from "../spec/schema.js";
import { decodeCollectBody } from "./payload.js";

/** Delivery-level capture: the SDK script's response and every collect request with its answer. */
export class NetworkCapture {
  readonly sdkScripts: SdkScriptLoad[] = [];
  readonly collect: CollectRequest[] = [];
  /** Project keys seen in collect requests' URLs or payloads. */
  readonly keySightings: KeySighting[] = [];
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
    /** True when the audit answers collect requests itself (traffic.collect: intercept). */
    private readonly intercepted: boolean,
  ) {
    this.isCollectUrl = urlMatcher(sdk.collect);
    this.isSdkUrl = urlMatcher(sdk.script);
    context.on("request", (request) => this.onRequest(request));
    // The response event carries the status without a round trip to the browser, which
    // requestfinished's `request.response()` costs on every request of every page.
    context.on("response", (response) => this.onResponse(response));
    context.on("requestfailed", (request) => this.onFailed(request));
  }

  private onRequest(request: Request): void {
    const url = request.url();
    if (this.isSdkUrl(url)) {
      const load: SdkScriptLoad = { url, status: null, failure: null, atMs: this.sinceStart(Date.now()) };
      this.sdkScripts.push(load);
      this.entryByRequest.set(request, load);
    } else if (this.isCollectUrl(url)) {
      const { events, strings, error } = decodeCollectBody(request.postDataBuffer(), url, request.headers()["content-encoding"]);
      for (const key of this.projectKeys) {
        if (url.includes(key) || strings.includes(key)) this.keySightings.push({ key, where: "collect", detail: url });
      }
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
