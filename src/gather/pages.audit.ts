import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "@playwright/test";
import { environmentDomain } from "../domain.js";
import { artifactFileName, readPlan, type AuditTarget } from "../plan.js";
import { deviceFor, isMobileViewport } from "../viewports.js";
import { gatherPage } from "./page.js";
import { pageTitle } from "../titles.js";
import { auditUserAgent, resolveTraffic, SiteRequestTagger } from "./traffic.js";

/**
 * One test per page × viewport: gather the page's artifacts and hand them to the CLI. One
 * Playwright project for every viewport, each test setting its device, so that workers and
 * their browsers live for the whole run instead of restarting when the viewport changes.
 */
const plan = readPlan();
const siteDomainOf = (target: AuditTarget) => environmentDomain({ ...target.spec.environments[target.environment]!, baseUrl: target.baseUrl });

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
  for (const viewport of target.viewports) {
    // A group per target × viewport, titled by the viewport: it sets the device, and each spec tags its traffic its own way.
    gatherTest.describe(viewport, () => {
      // The browser type is the worker's, which a group may not change; the rest is per context.
      const { defaultBrowserType: _browserType, ...device } = deviceFor(viewport)!;
      gatherTest.use({
        ...device,
        userAgent: auditUserAgent(device.userAgent, traffic.userAgentSuffix),
        // Playwright's routes miss what a service worker fetches: with intercept, nothing may slip past them.
        ...(traffic.collect === "intercept" ? { serviceWorkers: "block" as const } : {}),
      });
      for (const pageId of target.pages) {
        const pageSpec = target.spec.pages.find((page) => page.id === pageId)!;
        gatherTest(pageTitle(target.slug, pageId), async ({ context, browserTagger }, testInfo) => {
          const screenshotName = join("screenshots", target.slug, target.environment, `${pageId}.${viewport}.png`);
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
            experiments: target.spec.experiments.filter((experiment) => experiment.page === pageId),
            canaries: pageSpec.steps.flatMap((step, index) => ("fill" in step && step.fill.canary ? [{ step: index, value: step.fill.value }] : [])),
            siteDomain,
            traffic,
            browserTagger,
            screenshot: target.spec.screenshots === "off" ? null : { path: join(screenshotRoot, screenshotName), name: screenshotName },
          });
          writeFileSync(join(plan.workDir, "artifacts", artifactFileName(target, pageId, viewport)), JSON.stringify(artifacts));
          testInfo.annotations.push({
            type: "gathered",
            description: `${artifacts.calls.length} call(s)${artifacts.loadError ? `; could not load: ${artifacts.loadError}` : ""}`,
          });
        });
      }
    });
  }
}
