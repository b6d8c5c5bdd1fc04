import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "@playwright/test";
import type { BrowserContext } from "playwright";
import { environmentDomain } from "../domain.js";
import { environmentOf } from "../spec/environment.js";
import { artifactFileName, plannedVariations, readPlan, type AuditTarget, type PlannedVariation } from "../plan.js";
import { isMobileViewport } from "../viewports.js";
import { keepPlainStacks } from "../plain-stacks.js";
import { gatherPage } from "./page.js";
import { pageTitle } from "../titles.js";
import type { ExperimentSpec, VariationSpec } from "../spec/schema.js";
import { firstLine } from "../text.js";
import { typedText } from "../secrets.js";
import { auditContextOptions, resolveTraffic, SiteRequestTagger, type TrafficTags } from "./traffic.js";

/**
 * One test per page: gather the artifacts of each of its viewports and hand them to the CLI.
 * One Playwright project for every viewport, each context set to its device, so that workers
 * and their browsers live for the whole run instead of restarting when the viewport changes.
 */
keepPlainStacks();
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
  const pageTraffic = resolveTraffic(target.spec.traffic, plan.runId);
  const units: GatherUnit[] = [
    ...target.pages.map((pageId) => ({ title: pageTitle(target.slug, pageId), pageId, variation: null })),
    ...plannedVariations(target).map((variation) => ({ title: pageTitle(target.slug, `${variation.page} · ${variation.experiment} · ${variation.variation}`), pageId: variation.page, variation })),
  ];
  for (const unit of units) {
    // A preview is no visit: its collect requests are answered inside the browser, so that it
    // never adds events to the service's data, nor vouches there for the page's own calls.
    const traffic: TrafficTags = unit.variation === null ? pageTraffic : { ...pageTraffic, collect: "intercept" };
    const site = { traffic, siteDomain: siteDomainOf(target) };
    // The test's viewports, for the progress lines.
    const annotation = { type: "viewports", description: target.viewports.join(" ") };
    gatherTest(unit.title, { annotation }, async ({ browser, browserTagger }, testInfo) => {
      const gatherInContext = async (viewport: string) => {
        const context = await browser.newContext(auditContextOptions(viewport, traffic));
        if (plan.trace) await context.tracing.start({ screenshots: true, snapshots: true });
        try {
          return await gatherOnViewport(context, target, unit, viewport, { ...site, browserTagger });
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

/** What one test gathers on every viewport: a page as it is, or one variation of an experiment on it. */
interface GatherUnit {
  title: string;
  pageId: string;
  variation: PlannedVariation | null;
}

/** Gathers one page × viewport, or one variation's, writes its artifacts for the CLI and says what it gathered. */
async function gatherOnViewport(
  context: BrowserContext,
  target: AuditTarget,
  unit: GatherUnit,
  viewport: string,
  site: { traffic: TrafficTags; siteDomain: string; browserTagger: SiteRequestTagger | null },
): Promise<string> {
  const pageSpec = target.spec.pages.find((page) => page.id === unit.pageId)!;
  const pageExperiments = target.spec.experiments.filter((experiment) => experiment.page === pageSpec.id);
  const planned = unit.variation;
  const preview = planned === null ? null : previewOf(pageExperiments, planned);
  const viewed = preview === null ? pageExperiments.filter((experiment) => experiment.variations.length > 0) : [preview.experiment];
  const folder = join("screenshots", target.slug, target.environment);
  // With on-failure, the CLI moves a screenshot into the output only once a check failed or warned.
  const screenshotRoot = target.spec.screenshots === "on" ? plan.outDir : plan.workDir;
  mkdirSync(join(screenshotRoot, folder), { recursive: true });
  const keepsViews = target.spec.screenshots !== "off" && viewed.length > 0;
  if (keepsViews) mkdirSync(join(plan.outDir, folder, "views"), { recursive: true });
  const inOutput = (root: string, name: string) => (target.spec.screenshots === "off" ? null : { path: join(root, name), name });
  const artifacts = await gatherPage(context, {
    spec: target.specFile,
    environment: target.environment,
    baseUrl: target.baseUrl,
    page: pageSpec,
    sdk: target.spec.sdk,
    viewport,
    mobile: isMobileViewport(viewport),
    projectKeys: Object.values(target.spec.environments).map((environment) => environment.key),
    // A variation's unit is judged by experiment.variation alone: no selector counts, canaries or screenshot of its own.
    experiments: preview === null ? pageExperiments : [],
    canaries: preview === null ? pageSpec.steps.flatMap((step, index) => ("fill" in step && step.fill.canary ? [{ step: index, value: typedText(step.fill, process.env) }] : [])) : [],
    ...site,
    screenshot: preview === null ? inOutput(screenshotRoot, join(folder, `${pageSpec.id}.${viewport}.png`)) : null,
    // The side-by-side pictures are composed after the run, and after a merge: their screens are kept in the output.
    viewedExperiments: viewed,
    viewScreenshot: keepsViews ? inOutput(plan.outDir, join(folder, "views", `${pageSpec.id}.${viewport}${planned === null ? "" : `.${planned.id}`}.png`)) : null,
    variation: preview === null ? undefined : previewOptions(preview),
  });
  writeFileSync(join(plan.workDir, "artifacts", artifactFileName(target, pageSpec.id, viewport, planned?.id ?? null)), JSON.stringify(artifacts));
  return `${artifacts.calls.length} call(s)${artifacts.loadError ? `; could not load: ${artifacts.loadError}` : ""}`;
}

/** The planned variation's experiment and spec. */
function previewOf(pageExperiments: readonly ExperimentSpec[], planned: PlannedVariation): { experiment: ExperimentSpec; variation: VariationSpec } {
  const experiment = pageExperiments.find((candidate) => candidate.name === planned.experiment);
  const variation = experiment?.variations.find((candidate) => candidate.name === planned.variation);
  if (!experiment || !variation) throw new Error(`The plan names variation "${planned.variation}" of "${planned.experiment}", which the spec does not have`);
  return { experiment, variation };
}

function previewOptions({ experiment, variation }: { experiment: ExperimentSpec; variation: VariationSpec }) {
  return { experiment: experiment.name, name: variation.name, query: variation.query ?? {}, css: variation.css?.code ?? null, js: variation.js?.code ?? null };
}
