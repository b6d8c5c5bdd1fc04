import type { BrowserContext, Request } from "playwright";
import { Signal } from "../gather/signal.js";

/**
 * The requests of a browser context still waiting for their response, watched from before the
 * page loads. Init waits for them to rest before it reads the page's globals, as SDKs swap their
 * stub for the real SDK once their settings come back. A request counts as done once its
 * response came, not once its body finished loading: Playwright's `networkidle` waits for the
 * latter, which a real Segment page's collect call never reports, so it never came on any
 * Segment site and init waited out its whole timeout there.
 */
export class NetworkWatch {
  private readonly waiting = new Set<Request>();
  private activity = 0;
  private readonly changed = new Signal();

  constructor(context: BrowserContext) {
    // A redirect is a response of its own, and the request it leads to another.
    context.on("request", (request) => {
      this.waiting.add(request);
      this.touch();
    });
    context.on("response", (response) => this.done(response.request()));
    context.on("requestfailed", (request) => this.done(request));
  }

  /**
   * Resolves true once no request has waited for its response, and none started or was answered,
   * for `quietMs` (of `pageClock` too, when given: a page whose thread runs late still gets its
   * quiet window); false when `timeoutMs` passed first.
   */
  rest(quietMs: number, timeoutMs: number, pageClock?: (ms: number) => Promise<unknown>): Promise<boolean> {
    return this.changed.waitForQuiet(
      () => this.waiting.size === 0,
      () => this.activity,
      quietMs,
      timeoutMs,
      { pageClock },
    );
  }

  private done(request: Request): void {
    this.waiting.delete(request);
    this.touch();
  }

  private touch(): void {
    this.activity++;
    this.changed.notify();
  }
}
