import { devices, type BrowserContext, type BrowserContextOptions } from "playwright";
import type { PageArtifacts } from "../../src/artifacts/types.js";
import { gatherPage } from "../../src/gather/page.js";
import type { GatherRun } from "../../src/gather/gather-run.js";
import { awaitsSdk, expectedCalls, type PageInput, plainPageInput } from "../../src/schedule/page-input.js";
import { resolveTraffic } from "../../src/gather/traffic.js";
import type { PageSpec } from "../../src/audit-spec/schema.js";
import { specWith } from "./artifacts.js";
import { test as withFixtures } from "./browser.js";

/** How a test prepares the context: `device` overrides the desktop device's options, `prepare` runs before the gather (routes, say). */
export interface GatherContext {
  device?: BrowserContextOptions;
  prepare?: (context: BrowserContext) => Promise<void>;
}

/** What a test sets of the page's input (schedule/page-input.ts) and of its run's (gather/gather-run.ts): the canaries and the traffic are the run's, resolved. */
export type GatherOverrides = Partial<Omit<PageInput, keyof GatherRun>> & Partial<GatherRun>;

/** The bundled shops a test gathers from, by the name it gives them. */
const SITES = {
  demo: "demoShop",
  broken: "brokenShop",
  statsig: "statsig",
  launchdarkly: "launchdarkly",
  growthbookFlags: "growthbookFlags",
  optimizely: "optimizely",
  amplitudeExperiment: "amplitudeExperiment",
} as const;

/** Gathers one page of a bundled shop, as it is unless `overrides` say otherwise. */
export type Gather = (
  site: keyof typeof SITES,
  page: Partial<PageSpec> & { path: string },
  overrides?: GatherOverrides,
  context?: GatherContext,
) => Promise<PageArtifacts>;

/** The gatherer against the bundled sites in a real Chromium: fixtures on ephemeral ports and a browser per worker, a fresh context per gather. */
export const test = withFixtures.extend<{ gather: Gather }>({
  gather: async ({ browser, fixtures }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (site, pageSpec, overrides = {}, { device = {}, prepare } = {}) => {
      const baseUrl = fixtures.urls[SITES[site]];
      const context = await browser.newContext({ ...devices["Desktop Chrome"], ...device });
      contexts.push(context);
      await prepare?.(context);
      const spec = specWith();
      const { canaries, traffic, originHeaders, login, browserTagger, secrets, folders, ...input } = overrides;
      const basics = plainPageInput({
        spec: "audits/test.yaml",
        environment: "staging",
        unit: { id: pageSpec.id ?? "page", kind: "page" },
        page: { id: "page", steps: [], ...pageSpec },
        baseUrl,
        siteDomain: new URL(baseUrl).hostname,
        viewport: "desktop",
        mobile: false,
        sdk: { ...spec.sdk, deliveryTimeoutMs: 2500 },
        projectKeys: ["prj_demo_staging", "prj_demo_prod", "prj_broken_staging"],
        traffic: spec.traffic,
      });
      const run = { canaries, traffic, originHeaders, login, browserTagger, secrets, folders };
      return gatherPage(context, withPlanRules({ ...basics, ...input }), runWith(run));
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
});

/** The input with the plan's rules applied to what the test set: the SDK awaited and the calls expected as the plan would. */
export function withPlanRules(input: PageInput): PageInput {
  return {
    ...input,
    awaitsSdk: awaitsSdk(input.page, input.viewedExperiments),
    expected: expectedCalls(input.page, input.reloadForExposures),
  };
}

/** Overrides that save the pictures named (relative to `folder`, the output's stand-in): the screenshot, the view screen, the filmstrip's frames before their index. */
export function picturesIn(
  folder: string,
  names: Partial<Record<keyof PageInput["pictures"], string>>,
): Pick<GatherOverrides, "pictures" | "folders"> {
  const planned = (name: string | undefined) => (name === undefined ? null : { name, folder: "output" as const });
  return {
    pictures: { screenshot: planned(names.screenshot), view: planned(names.view), filmstrip: planned(names.filmstrip) },
    folders: { output: folder, work: folder },
  };
}

/** A test's run: no secret, canary, login, header for a closed site or folder unless it says so; the spec's default traffic. */
export function runWith(overrides: { [Key in keyof GatherRun]?: GatherRun[Key] | undefined }): GatherRun {
  return {
    canaries: overrides.canaries ?? [],
    traffic: overrides.traffic ?? resolveTraffic(specWith().traffic, "test-run"),
    originHeaders: overrides.originHeaders ?? null,
    login: overrides.login ?? null,
    browserTagger: overrides.browserTagger ?? null,
    secrets: overrides.secrets ?? [],
    folders: overrides.folders ?? null,
  };
}
