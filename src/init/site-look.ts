import type { Browser, BrowserContextOptions } from "playwright";
import type { PageArtifacts } from "../artifacts/types.js";
import { CliError, EXIT } from "../runner/errors.js";
import { ConsentWatch } from "../gather/consent.js";
import { gatherPage } from "../gather/page.js";
import { Signal } from "../gather/signal.js";
import type { ConsentSpec, Step, TrafficSpec } from "../audit-spec/schema.js";
import { plainPageInput } from "../schedule/page-input.js";
import { readSdkTag } from "../gather/sdk-tag.js";
import { isAuthRefusal } from "../gather/landing.js";
import { accessContextOptions, siteCredentials } from "../gather/site-access.js";
import { auditContextOptions, resolveTraffic, type TrafficTags } from "../gather/traffic.js";
import { urlMatcher } from "../url/glob.js";
import { PRESETS, type PresetName } from "../vendors/presets.js";
import { experimentSdkSchema, sdkSchema, type ExperimentSdkSpec, type SdkSpec } from "../audit-spec/schema.js";
import type { ExperimentPresetName } from "../vendors/experiment-presets.js";
import { detectExperimentSdk, loggingExperimentSdk, withoutExperimentSdk } from "./experiment-draft.js";
import { isMobileViewport } from "../browser/viewports.js";
import { waitOnPageClock } from "../browser/page-clock.js";
import { probeCollect, type ProbeResult } from "./collect-probe.js";
import { CrawlQueue, pageIdFor } from "./crawl.js";
import {
  firstInAppLink,
  followedInApp,
  journeyThrough,
  readLinks,
  stepsOf,
  type LinkJourney,
  type PageLink,
} from "./in-app-link.js";
import { takeFirstLook } from "./first-look.js";
import { keyCandidates } from "./key-discovery.js";
import { detectSdk } from "./sdk-detection.js";
import { draftSdk, sdkInput } from "./spec-draft.js";
import type { BasicAuthVariables, SdkDraft } from "./spec-text.js";

/**
 * Init's look at a site, in a browser: the first look at the URL identifies the SDK and proposes
 * keys; then the pages are listed breadth first and each is gathered on desktop and mobile with
 * `run`'s own gatherer and recorder. It runs in the CLI's own process, in the browser
 * init-command.ts launches for it: one look needs neither a test runner nor a worker.
 */

/** What the CLI asks the look for. */
export interface LookPlan {
  url: string;
  /** How many pages to list, the URL's included. */
  crawl: number;
  environment: string;
  /** The spec file init writes, as the gathered artifacts name it. */
  file: string;
  /** The variables that hold a Basic-auth site's user name and password; null without. */
  basic: BasicAuthVariables | null;
}

/** What the look found, or the problem that stopped it (as the CLI reports it). */
export type LookResult =
  | {
      ok: true;
      /** Where the URL ended after redirects: its origin is the spec's base URL. */
      finalUrl: string;
      preset: PresetName | null;
      sdk: SdkDraft;
      pages: { id: string; path: string }[];
      artifacts: PageArtifacts[];
      journey: LookJourney | null;
      /** The consent banner met on the first look and accepted to see the SDK; null when none showed. */
      consent: { cmp: string } | null;
      /**
       * The experimentation SDK the first look saw, or whose flags the analytics SDK may log (a guess
       * the draft keeps only where a page evaluated one), whose clients and evaluations the pages'
       * artifacts hold; null when none.
       */
      experimentSdk: ExperimentPresetName | null;
    }
  | { ok: false; exitCode: number; message: string; hint: string };

/** The journey drafted for a single-page app: the page, its steps through an in-app link, and what walking them gathered on each viewport. */
export interface LookJourney {
  page: string;
  steps: LinkJourney;
  artifacts: PageArtifacts[];
}

const VIEWPORTS = ["desktop", "mobile"] as const;
/** How long a generic SDK's probe call may take to leave: long enough for a batching timer. */
const PROBE_TIMEOUT_MS = 10_000;
/** Init's traffic: the audit's user agent, no header or query parameter, collect requests sent as they are. */
const TRAFFIC_SPEC: TrafficSpec = { userAgentSuffix: undefined, header: false, queryParam: false, collect: "send" };
const TRAFFIC: TrafficTags = resolveTraffic(TRAFFIC_SPEC, "init");
/** How init answers a banner: with the rules, as a spec's `accept: auto` does. */
const ACCEPT: ConsentSpec = { accept: "auto", gpc: false, timeoutMs: 5000 };

/** Looks at the site; a problem the user can act on becomes a result, anything else throws. */
export async function lookAtSite(browser: Browser, plan: LookPlan): Promise<LookResult> {
  try {
    // Basic credentials go to the URL's origin alone, as a run's go to its base URL's.
    const access = accessContextOptions(
      siteCredentials(plan.basic ? { basic: plan.basic } : undefined, plan.url, process.env),
      null,
    );
    const { finalUrl, preset, sdkDraft, candidates, consent, experimentSdk } = await identifySdk(
      browser,
      plan.url,
      access,
    );
    const sdk = sdkSchema.parse(sdkInput(sdkDraft));
    const { pages, artifacts, journey } = await gatherPages(browser, {
      plan,
      start: new URL(finalUrl),
      sdk,
      experimentSdk: experimentSdk === null ? null : experimentSdkSchema.parse({ preset: experimentSdk }),
      candidates,
      access,
      consent: consent !== null,
    });
    return { ok: true, finalUrl, preset, sdk: sdkDraft, pages, artifacts, journey, consent, experimentSdk };
  } catch (error) {
    if (error instanceof CliError)
      return { ok: false, exitCode: error.exitCode, message: error.message, hint: error.hint };
    throw error;
  }
}

/** The first look: the SDK it finds, its drafted section and the key candidates. */
async function identifySdk(
  browser: Browser,
  url: string,
  access: BrowserContextOptions,
): Promise<{
  finalUrl: string;
  preset: PresetName | null;
  sdkDraft: SdkDraft;
  candidates: string[];
  consent: { cmp: string } | null;
  experimentSdk: ExperimentPresetName | null;
}> {
  // The probe answers its calls through routes, which miss what a service worker fetches.
  const context = await browser.newContext({
    ...auditContextOptions("desktop", TRAFFIC, browser.version()),
    ...access,
    serviceWorkers: "block",
  });
  try {
    // A banner of a consent manager the rules know is accepted, so that the SDK it holds back loads.
    const startedAt = Date.now();
    const banner = await ConsentWatch.install(
      context,
      { spec: ACCEPT, unit: "page", storage: [], settleMs: 250, stepTimeoutMs: 15_000 },
      url,
      (at) => at - startedAt,
      new Signal(),
    );
    const { look, page } = await takeFirstLook(context, url, (loaded) =>
      banner.settle(
        loaded,
        () => 0,
        (ms) => waitOnPageClock(loaded, ms),
      ),
    );
    const met = await banner.finish(null);
    const consent =
      met.answeredAtMs !== null && met.answerError === null ? { cmp: met.cmp ?? "a consent manager" } : null;
    if (consent)
      process.stdout.write(`Met the consent banner of ${consent.cmp} on ${url} and accepted it to see the SDK.\n`);
    if (look.loadError !== null) {
      const closed = isAuthRefusal(look.loadError) || look.loadError.endsWith("HTTP 401");
      const hint = closed
        ? "The site asks for HTTP authentication: run init again with --basic-env USER_VAR:PASSWORD_VAR, the variables that hold its user name and password."
        : "Check the URL and that the site is up, then run init again.";
      throw new CliError(EXIT.couldNotRun, `Could not load ${url}: ${look.loadError}.`, hint);
    }
    // The experimentation SDK's client is no analytics SDK, whatever its methods are called.
    const ownExperimentSdk = detectExperimentSdk(look.globals, look.requests);
    const detection = detectSdk({ ...look, globals: withoutExperimentSdk(look.globals, ownExperimentSdk) });
    const generic = detection.preset === null ? (detection.generic[0] ?? null) : null;
    const probe: ProbeResult | null =
      generic &&
      (await probeCollect(
        context,
        page,
        generic.global.name,
        [generic.track, ...(generic.identify === null ? [] : [generic.identify])],
        PROBE_TIMEOUT_MS,
      ));
    const firstDraft = draftSdk(detection, probe, []);
    if (firstDraft === null) {
      throw new CliError(
        EXIT.failed,
        `Found no SDK on ${url}: no preset matched, and no script defines a window global with a track-like method.`,
        met.bannerAtMs !== null && met.answerError !== null
          ? `A consent banner${met.cmp ? ` (${met.cmp})` : ""} showed but could not be accepted (${met.answerError}): write the sdk section by hand, and give the spec's consent.accept the selector of its accept button.`
          : "Check that the page loads the SDK without a click or consent, or write the sdk section by hand (see the README).",
      );
    }
    const firstSdk = sdkSchema.parse(sdkInput(firstDraft));
    const tag = await readSdkTag(page, firstSdk, []);
    const isSdkScript = urlMatcher(firstSdk.script);
    const scriptUrls = look.requests
      .filter((request) => request.resourceType === "script" && isSdkScript(request.url))
      .map((request) => request.url);
    const scriptKey = detection.preset === null ? null : PRESETS[detection.preset.preset].scriptKey;
    const candidates = keyCandidates(look, {
      scriptUrls,
      global: firstSdk.global,
      tagKey: tag.sdkTagKey,
      init: firstSdk.init,
      scriptKey,
    });
    // With the candidates known, a key in the script's path becomes `*` in its glob.
    return {
      finalUrl: look.finalUrl!,
      preset: detection.preset?.preset ?? null,
      sdkDraft: draftSdk(detection, probe, candidates)!,
      candidates,
      consent,
      // Flags the analytics SDK logs itself are looked for on the pages too.
      experimentSdk: ownExperimentSdk ?? loggingExperimentSdk(firstSdk.global),
    };
  } finally {
    await context.close();
  }
}

/** What init gathers of the site: the pages it lists, each page × viewport, and the journey it drafts on a single-page app. */
interface GatheredSite {
  pages: { id: string; path: string }[];
  artifacts: PageArtifacts[];
  journey: LookJourney | null;
}

/**
 * Lists the pages breadth first on desktop, reading each one's links, then gathers the same pages
 * on mobile; then, on both viewports, walks the first page's first link to another route, kept as
 * the journey when it changed route within the document on both.
 */
async function gatherPages(
  browser: Browser,
  look: {
    plan: LookPlan;
    start: URL;
    sdk: SdkSpec;
    experimentSdk: ExperimentSdkSpec | null;
    candidates: string[];
    access: BrowserContextOptions;
    consent: boolean;
  },
): Promise<GatheredSite> {
  const queue = new CrawlQueue(look.start, look.plan.crawl);
  const pages: { id: string; path: string }[] = [];
  const artifacts: PageArtifacts[] = [];
  let gatheredCount = 0;
  const gatherOne = async (page: { id: string; path: string }, viewport: Viewport, steps: Step[] = []) => {
    const gathered = await gatherSitePage(browser, look, { ...page, steps }, viewport);
    process.stdout.write(
      `[${++gatheredCount}] ${page.path} · ${viewport}${steps.length > 0 ? " (a journey through its first in-app link)" : ""}  ${gathered.artifacts.loadError === null ? `${gathered.artifacts.calls.length} call(s)` : `did not load: ${gathered.artifacts.loadError}`}\n`,
    );
    if (steps.length === 0) artifacts.push(gathered.artifacts);
    return gathered;
  };
  let firstLinks: PageLink[] = [];
  for (let path = queue.next(); path !== undefined; path = queue.next()) {
    const page = { id: pageIdFor(path, new Set(pages.map((listed) => listed.id))), path };
    pages.push(page);
    const { links } = await gatherOne(page, "desktop");
    if (pages.length === 1) firstLinks = links;
    queue.add(links.map((link) => link.href));
  }
  for (const page of pages) await gatherOne(page, "mobile");
  const link = pages[0] === undefined ? null : firstInAppLink(firstLinks, new URL(pages[0].path, look.start).href);
  if (link === null) return { pages, artifacts, journey: null };
  const steps = journeyThrough(link);
  const walked: PageArtifacts[] = [];
  for (const viewport of VIEWPORTS) {
    const unit = (await gatherOne(pages[0]!, viewport, stepsOf(steps))).artifacts;
    // A link that loads another document on desktop is no single-page app's: mobile need not try it.
    if (!followedInApp(unit, link)) return { pages, artifacts, journey: null };
    walked.push(unit);
  }
  return { pages, artifacts, journey: { page: pages[0]!.id, steps, artifacts: walked } };
}

type Viewport = (typeof VIEWPORTS)[number];

/** Gathers one page × viewport in a context of its own, as `run` does, and reads the links it holds once its journey is walked. */
async function gatherSitePage(
  browser: Browser,
  look: Parameters<typeof gatherPages>[1],
  page: { id: string; path: string; steps: Step[] },
  viewport: Viewport,
): Promise<{ artifacts: PageArtifacts; links: PageLink[] }> {
  const context = await browser.newContext({
    ...auditContextOptions(viewport, TRAFFIC, browser.version()),
    ...look.access,
  });
  try {
    const plain = plainPageInput({
      spec: look.plan.file,
      environment: look.plan.environment,
      // Each page init looks at is a page as it is, a unit of its own.
      unit: { id: page.id, kind: "page" },
      page,
      baseUrl: look.start.origin,
      siteDomain: look.start.hostname,
      viewport,
      mobile: isMobileViewport(viewport),
      sdk: look.sdk,
      projectKeys: look.candidates,
      traffic: TRAFFIC_SPEC,
    });
    // The experimentation SDK's clients and evaluations: the key and the flags the draft names.
    const input = { ...plain, experimentSdk: look.experimentSdk };
    const artifacts = await gatherPage(
      context,
      // Each page's banner is accepted, as on the first look: what fires is what a consenting visitor's page does.
      look.consent ? { ...input, consent: { spec: ACCEPT, unit: "page", storage: look.sdk.storage } } : input,
      {
        canaries: [],
        traffic: TRAFFIC,
        originHeaders: null,
        login: null,
        browserTagger: null,
        secrets: [],
        folders: null,
      },
    );
    if (artifacts.loadError !== null) return { artifacts, links: [] };
    const links =
      (await context
        .pages()[0]
        ?.evaluate(readLinks)
        .catch(() => [])) ?? [];
    return { artifacts, links };
  } finally {
    await context.close();
  }
}
