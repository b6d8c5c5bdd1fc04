import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "@playwright/test";
import { environmentDomain } from "../domain.js";
import { artifactFileName, readPlan } from "../plan.js";
import { deviceFor, isMobileViewport } from "../viewports.js";
import { gatherPage } from "./page.js";
import { pageTitle } from "../titles.js";
import { auditUserAgent, resolveTraffic } from "./traffic.js";

/**
 * One test per page × viewport: gather the page's artifacts and hand them to the CLI. One
 * Playwright project for every viewport, each test setting its device, so that workers and
 * their browsers live for the whole run instead of restarting when the viewport changes.
 */
const plan = readPlan();

for (const target of plan.targets) {
  const traffic = resolveTraffic(target.spec.traffic, plan.runId);
  const siteDomain = environmentDomain({ ...target.spec.environments[target.environment]!, baseUrl: target.baseUrl });
  for (const viewport of target.viewports) {
    // A group per target × viewport, titled by the viewport: it sets the device, and each spec tags its traffic its own way.
    test.describe(viewport, () => {
      // The browser type is the worker's, which a group may not change; the rest is per context.
      const { defaultBrowserType: _browserType, ...device } = deviceFor(viewport)!;
      test.use({
        ...device,
        userAgent: auditUserAgent(device.userAgent, traffic.userAgentSuffix),
        // Playwright's routes miss what a service worker fetches: with intercept, nothing may slip past them.
        ...(traffic.collect === "intercept" ? { serviceWorkers: "block" as const } : {}),
      });
      for (const pageId of target.pages) {
        const pageSpec = target.spec.pages.find((page) => page.id === pageId)!;
        test(pageTitle(target.slug, pageId), async ({ context }, testInfo) => {
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
