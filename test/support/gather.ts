import { devices, type BrowserContext, type BrowserContextOptions } from "playwright";
import type { PageArtifacts } from "../../src/artifacts/types.js";
import { gatherPage } from "../../src/gather/page.js";
import type { PageGatherOptions } from "../../src/gather/page-options.js";
import { resolveTraffic } from "../../src/gather/traffic.js";
import type { PageSpec } from "../../src/audit-spec/schema.js";
import { specWith } from "./artifacts.js";
import { test as withFixtures } from "./browser.js";

/** How a test prepares the context: `device` overrides the desktop device's options, `prepare` runs before the gather (routes, say). */
export interface GatherContext {
  device?: BrowserContextOptions;
  prepare?: (context: BrowserContext) => Promise<void>;
}

/** Gathers one page of a bundled shop; `options` override the gatherer's. */
export type Gather = (
  site: "demo" | "broken",
  page: Partial<PageSpec> & { path: string },
  options?: Partial<PageGatherOptions>,
  context?: GatherContext,
) => Promise<PageArtifacts>;

/** The gatherer against the bundled sites in a real Chromium: fixtures on ephemeral ports and a browser per worker, a fresh context per gather. */
export const test = withFixtures.extend<{ gather: Gather }>({
  gather: async ({ browser, fixtures }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (site, pageSpec, options = {}, { device = {}, prepare } = {}) => {
      const baseUrl = site === "demo" ? fixtures.urls.demoShop : fixtures.urls.brokenShop;
      const context = await browser.newContext({ ...devices["Desktop Chrome"], ...device });
      contexts.push(context);
      await prepare?.(context);
      const spec = specWith();
      return gatherPage(context, {
        spec: "audits/test.yaml",
        environment: "staging",
        unit: { id: pageSpec.id ?? "page", kind: "page" },
        baseUrl,
        page: { id: "page", steps: [], ...pageSpec },
        sdk: { ...spec.sdk, deliveryTimeoutMs: 2500 },
        viewport: "desktop",
        mobile: false,
        projectKeys: ["prj_demo_staging", "prj_demo_prod", "prj_broken_staging"],
        experiments: [],
        canaries: [],
        siteDomain: new URL(baseUrl).hostname,
        traffic: resolveTraffic(spec.traffic, "test-run"),
        browserTagger: null,
        screenshot: null,
        ...options,
      });
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
});
