import type { BrowserContext } from "playwright";
import type { LoginOutcome } from "../artifacts/types.js";
import { isOnDomain } from "../url/domain.js";
import type { AuthSpec } from "../audit-spec/schema.js";
import { firstLine } from "../text/wording.js";
import { Signal } from "./signal.js";
import { runSteps } from "./steps.js";
import { SiteRequestTagger, tagsAnything, type RequestTags } from "./traffic.js";

/** A closed site's login journey (`auth.login`). */
export type LoginSpec = NonNullable<AuthSpec["login"]>;

const NAVIGATION_TIMEOUT_MS = 30_000;

/** What walking a login needs besides the context. */
export interface LoginOptions {
  baseUrl: string;
  /** The environment's domain: the login stays on it, or on a host it lists. */
  siteDomain: string;
  login: LoginSpec;
  /** The headers the login's requests get (the traffic header, the site's own). */
  tags: RequestTags;
  /** The tagger of the browser the worker owns; null to tag through a session on the page (a remote browser). */
  browserTagger: SiteRequestTagger | null;
  /** How long one step may take (default 15 s). */
  stepTimeoutMs?: number;
}

/**
 * Walks the login journey in a context set up for the site, and says how it went; never judges.
 * The main frame is never let off the site's domain but to a host the login lists (a single
 * sign-on provider): the secrets its steps type must not be typed into another site.
 */
export async function walkLogin(context: BrowserContext, options: LoginOptions): Promise<LoginOutcome> {
  const page = await context.newPage();
  options.browserTagger?.tagFor(options.tags);
  if (options.browserTagger === null && tagsAnything(options.tags))
    await SiteRequestTagger.tagPage(await context.newCDPSession(page), options.tags);
  const requestedUrl = new URL(options.login.path, options.baseUrl).href;
  const listed = new Set(options.login.hosts);
  const letThrough = (url: URL) =>
    !/^https?:$/.test(url.protocol) || isOnDomain(url.href, options.siteDomain) || listed.has(url.hostname);
  let blockedHost: string | null = null;
  await page.route(
    (url) => !letThrough(url),
    async (route) => {
      const request = route.request();
      if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return route.fallback();
      blockedHost ??= new URL(request.url()).hostname;
      await route.abort("blockedbyclient");
    },
  );
  let documentStatus: number | null = null;
  let loadError: string | null = null;
  try {
    documentStatus =
      (await page.goto(requestedUrl, { waitUntil: "load", timeout: NAVIGATION_TIMEOUT_MS }))?.status() ?? null;
  } catch (error) {
    loadError = firstLine(error);
  }
  let stepError: LoginOutcome["stepError"] = null;
  if (loadError === null && (documentStatus === null || documentStatus < 400)) {
    stepError = await runSteps(page, options.login.steps, {
      baseUrl: options.baseUrl,
      timeoutMs: options.stepTimeoutMs ?? 15_000,
      hasCall: () => false,
      changed: new Signal(),
    });
    // A last step that submits the form may leave its navigation under way: where it ends is judged once loaded.
    if (stepError === null)
      await page.waitForLoadState("load", { timeout: NAVIGATION_TIMEOUT_MS }).catch(() => undefined);
  }
  return {
    requestedUrl,
    documentStatus,
    loadError,
    stepError,
    blockedHost,
    finalUrl: loadError === null ? page.url() : null,
  };
}
