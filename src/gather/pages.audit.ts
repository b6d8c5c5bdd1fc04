import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "@playwright/test";
import type { BrowserContext } from "playwright";
import { environmentDomain } from "../domain.js";
import { environmentOf } from "../spec/environment.js";
import { artifactFileName, readPlan, type AuditTarget } from "../plan.js";
import { isMobileViewport } from "../viewports.js";
import { gatherPage } from "./page.js";
import { pageTitle } from "../titles.js";
import type { PageSpec } from "../spec/schema.js";
import { firstLine } from "../text.js";
import { auditContextOptions, resolveTraffic, SiteRequestTagger, type TrafficTags } from "./traffic.js";

/**
 * One test per page: gather the artifacts of each of its viewports and hand them to the CLI.
 * One Playwright project for every viewport, each context set to its device, so that workers
 * and their browsers live for the whole run instead of restarting when the viewport changes.
 */
const plan = readPlan();
const siteDomainOf = (target: AuditTarget) => environmentDomain({ ...environmentOf(target.spec, target.environment), baseUrl: target.baseUrl });

const gatherTest = test.extend<object, { browserTagger: SiteRequestTagger | null }>({
  // A browser the worker launched serves this worker alone: one session tags all its pages.
  browserTagger: [
    async ({ browser }, use) => {
      const tagged = plan.targets.filter((target) => target.spec.traffic.header !== false);
      await use(plan.browserEndpoint === null && tagged.length > 0 ? await SiteRequestTagger.forBrowser(browser, tagged.map(siteDomainOf)) : null);
    },
    { scope: "worker" },
  ],
});

for (const target of plan.targets) {
  const traffic = resolveTraffic(target.spec.traffic, plan.runId);
  const siteDomain = siteDomainOf(target);
  for (const pageId of target.pages) {
    const pageSpec = target.spec.pages.find((page) => page.id === pageId)!;
    // The test's viewports, for the progress lines.
    const annotation = { type: "viewports", description: target.viewports.join(" ") };
    gatherTest(pageTitle(target.slug, pageId), { annotation }, async ({ browser, browserTagger }, testInfo) => {
      const gatherInContext = async (viewport: string) => {
        const context = await browser.newContext(auditContextOptions(viewport, traffic));
        if (plan.trace) await context.tracing.start({ screenshots: true, snapshots: true });
        try {
          return await gatherOnViewport(context, target, pageSpec, viewport, { traffic, siteDomain, browserTagger });
        } finally {
          if (plan.trace) await context.tracing.stop({ path: testInfo.outputPath(viewport, "trace.zip") });
          await context.close();
        }
      };
      // Every viewport at once, each in a context of its own: a page that waits out its quiet
      // window leaves the browser idle, and the other viewport's page loads meanwhile. Each says
      // what it gathered, and in how long, as soon as it is done: one that hangs until the
      // test's timeout does not hide the other's result.
      const gathered = await Promise.allSettled(
        target.viewports.map(async (viewport) => {
          const startedAt = Date.now();
          const outcome = await gatherInContext(viewport).then(
            (gatheredWhat) => ({ ok: true as const, description: `gathered, ${gatheredWhat}` }),
            (error: unknown) => ({ ok: false as const, error, description: `could not gather: ${firstLine(error)}` }),
          );
          testInfo.annotations.push({ type: `gathered ${viewport}`, description: `${outcome.description}  ${((Date.now() - startedAt) / 1000).toFixed(1)} s` });
          if (!outcome.ok) throw outcome.error;
        }),
      );
      const failure = gathered.find((result) => result.status === "rejected");
      if (failure) throw failure.reason;
    });
  }
}

/** Gathers one page × viewport, writes its artifacts for the CLI and says what it gathered. */
async function gatherOnViewport(
  context: BrowserContext,
  target: AuditTarget,
  pageSpec: PageSpec,
  viewport: string,
  site: { traffic: TrafficTags; siteDomain: string; browserTagger: SiteRequestTagger | null },
): Promise<string> {
  const screenshotName = join("screenshots", target.slug, target.environment, `${pageSpec.id}.${viewport}.png`);
  // With on-failure, the CLI moves a screenshot into the output only once a check failed or warned.
  const screenshotRoot = target.spec.screenshots === "on" ? plan.outDir : plan.workDir;
  mkdirSync(join(screenshotRoot, "screenshots", target.slug, target.environment), { recursive: true });
  const artifacts = await gatherPage(context, {
    spec: target.specFile,
    environment: target.environment,
    baseUrl: target.baseUrl,
    page: pageSpec,
    sdk: target.spec.sdk,
    viewport,
    mobile: isMobileViewport(viewport),
    projectKeys: Object.values(target.spec.environments).map((environment) => environment.key),
    experiments: target.spec.experiments.filter((experiment) => experiment.page === pageSpec.id),
    canaries: pageSpec.steps.flatMap((step, index) => ("fill" in step && step.fill.canary ? [{ step: index, value: step.fill.value }] : [])),
    ...site,
    screenshot: target.spec.screenshots === "off" ? null : { path: join(screenshotRoot, screenshotName), name: screenshotName },
  });
  writeFileSync(join(plan.workDir, "artifacts", artifactFileName(target, pageSpec.id, viewport)), JSON.stringify(artifacts));
  return `${artifacts.calls.length} call(s)${artifacts.loadError ? `; could not load: ${artifacts.loadError}` : ""}`;
}
