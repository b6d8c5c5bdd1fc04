import type { Page } from "playwright";
import type { PageArtifacts } from "../artifacts/types.js";
import type { NetworkCapture } from "./network.js";
import type { GathererPart } from "./part.js";
import { VARIATION_SOURCE } from "./variation.js";

/** How Chromium's console reports a request that failed: an HTTP error status or a network error. */
const FAILED_REQUEST = /^Failed to load resource\b/;

/** The page errors part: what the page threw and what it logged as an error. */
export class PageErrorsPart implements GathererPart {
  /** A page never opened threw nothing. */
  static empty(): Pick<PageArtifacts, "errors"> {
    return { errors: [] };
  }

  private readonly errors: PageArtifacts["errors"] = [];

  constructor(private readonly network: NetworkCapture) {}

  async attach(page: Page): Promise<void> {
    page.on("pageerror", (error) => {
      // What the variation's js throws later (from a timer, a listener) is the variation's, not the page's.
      if (!error.stack?.includes(VARIATION_SOURCE)) this.errors.push({ kind: "exception", message: error.message });
    });
    page.on("console", (message) => {
      // A collect request the collector refused is judged by events.delivered, not as a page error;
      // the favicon is the browser's own request, not the page's.
      const source = message.location().url;
      if (message.type() === "error" && !this.network.isCollectUrl(source) && !isFavicon(source)) {
        const text = message.text();
        // Chromium's line for a failed request names no URL; the message's source is the request's.
        this.errors.push({
          kind: "console",
          message: text,
          ...(FAILED_REQUEST.test(text) && source !== "" ? { url: source } : {}),
        });
      }
    });
  }

  async finish(): Promise<Pick<PageArtifacts, "errors">> {
    return { errors: this.errors };
  }
}

/** The icon browsers ask every site for on their own. */
function isFavicon(url: string): boolean {
  return URL.canParse(url) && new URL(url).pathname === "/favicon.ico";
}
