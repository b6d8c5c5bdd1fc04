import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext } from "playwright";
import type { LoginOutcome, PageArtifacts } from "../artifacts/types.js";
import { environmentOf } from "../audit-spec/environment.js";
import type { AuditTarget, AuditUnit } from "../schedule/plan.js";
import { credentialsOf, scrubText, secretsOf } from "../privacy/redact.js";
import { storedSecretsIn } from "../privacy/stored-secrets.js";
import { gatherPage } from "./page.js";
import { gpcContextOptions } from "./consent.js";
import { firstLine } from "../text/wording.js";
import { typedText } from "../privacy/secrets.js";
import { unopenedPage } from "./unopened-page.js";
import { gatherTest, openAuditContext, plan } from "./audit-test.js";
import { readLogin } from "./login-state.js";
import { accessContextOptions, addSiteCookies, originHeaders, siteCredentials } from "./site-access.js";
import { auditContextOptions, resolveTraffic } from "./traffic.js";
import type { GatherRun } from "./gather-run.js";

/**
 * One test per unit of the plan (a page as it is, or a variation previewed on it): gather the
 * artifacts of each of its viewports and hand them to the CLI. One Playwright project for every viewport, each context set to its device, so that workers
 * and their browsers live for the whole run instead of restarting when the viewport changes.
 * A closed site's pages start from what gets the audit in (`auth`): its credentials, and the
 * storage state its viewport's login ended with (login.audit.ts ran before).
 */
for (const target of plan.targets) {
  const auth = environmentOf(target.spec, target.environment).auth;
  for (const unit of target.units) {
    // The test's viewports, for the progress lines, and where each one's artifacts go: the
    // reporter notes beside a file that never came why it did not.
    const annotation = [
      { type: "viewports", description: target.viewports.join(" ") },
      ...target.viewports.map((viewport) => ({
        type: `artifacts ${viewport}`,
        description: artifactsPath(unit, viewport),
      })),
    ];
    gatherTest(unit.title, { annotation }, async ({ browser, browserTagger, closeLater }, testInfo) => {
      const credentials = siteCredentials(auth, target.baseUrl, process.env);
      const gatherInContext = async (viewport: string) => {
        const traffic = resolveTraffic(unit.inputs[viewport]!.traffic, plan.runId);
        const login = auth?.login
          ? readLogin(
              plan.workDir,
              { slug: target.slug, environment: target.environment, viewport },
              new URL(auth.login.path, target.baseUrl).href,
            )
          : null;
        // A viewport whose login did not get in has nothing to open: page.access says why.
        if (login !== null && login.storageState === null) return keepOut(unit, viewport, login.outcome);
        const storageState = login?.storageState ?? auth?.storageState ?? null;
        const context = await openAuditContext(browser, {
          ...auditContextOptions(viewport, traffic, browser.version()),
          ...accessContextOptions(credentials, storageState),
          ...gpcContextOptions(unit.consent),
        });
        if (plan.trace) await context.tracing.start({ screenshots: true, snapshots: true });
        try {
          await addSiteCookies(context, credentials);
          return await gatherOnViewport(context, unit, viewport, {
            traffic,
            originHeaders: originHeaders(credentials),
            browserTagger,
            login: login?.outcome ?? null,
            secrets: pictureSecrets(target, storageState),
          });
        } finally {
          if (plan.trace) await context.tracing.stop({ path: testInfo.outputPath(viewport, "trace.zip") });
          closeLater(context);
        }
      };
      // Every viewport at once, each in a context of its own: a page that waits out its quiet
      // window leaves the browser idle, and the other viewport's page loads meanwhile. Each says
      // what it gathered, and in how long, as soon as it is done: one that hangs until the
      // test's timeout does not hide the other's result.
      const secrets = secretsOf(target.spec, process.env);
      const gathered = await Promise.allSettled(
        target.viewports.map(async (viewport) => {
          const startedAt = Date.now();
          const outcome = await gatherInContext(viewport).then(
            (gatheredWhat) => ({ ok: true as const, description: `gathered, ${gatheredWhat}` }),
            (error: unknown) => ({ ok: false as const, error, description: `could not gather: ${firstLine(error)}` }),
          );
          testInfo.annotations.push({
            type: `gathered ${viewport}`,
            description: `${scrubText(outcome.description, secrets)}  ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
          });
          if (!outcome.ok) throw outcome.error;
        }),
      );
      const failure = gathered.find((result) => result.status === "rejected");
      if (failure) throw failure.reason;
    });
  }
}

/** Gathers one page × viewport, or one variation's, with the input the plan gave it and what only the run knows; writes its artifacts for the CLI and says what it gathered. */
async function gatherOnViewport(
  context: BrowserContext,
  unit: AuditUnit,
  viewport: string,
  run: Omit<GatherRun, "canaries" | "folders">,
): Promise<string> {
  const input = unit.inputs[viewport]!;
  const artifacts = await gatherPage(context, input, {
    ...run,
    canaries: input.canaries.map(({ step, fill }) => ({ step, value: typedText(fill, process.env) })),
    folders: { output: plan.outDir, work: plan.workDir },
  });
  writeArtifacts(unit, viewport, artifacts);
  return `${artifacts.calls.length} call(s)${artifacts.loadError ? `; could not load: ${artifacts.loadError}` : ""}`;
}

/**
 * The run's secrets a page of `target` may show, for its pictures to mask: the values of the
 * variables its spec names (the API key's too), and what the storage state its context starts
 * from holds (a login's, or the spec's `storageState` file).
 */
function pictureSecrets(target: AuditTarget, storageState: string | null): string[] {
  const projectKeys = new Set(Object.values(target.spec.environments).map((environment) => environment.key));
  const stored = storageState === null ? [] : storedSecretsIn(readFileSync(storageState, "utf8"), projectKeys);
  return [...new Set([...credentialsOf(target.spec, process.env), ...stored])];
}

/** Where one page × viewport's artifacts go for the CLI. */
function artifactsPath(unit: AuditUnit, viewport: string): string {
  return join(plan.workDir, "artifacts", unit.artifactFiles[viewport]!);
}

/** Hands one page × viewport's artifacts to the CLI. */
function writeArtifacts(unit: AuditUnit, viewport: string, artifacts: PageArtifacts): void {
  writeFileSync(artifactsPath(unit, viewport), JSON.stringify(artifacts));
}

/** Records a page × viewport left unopened because its viewport's login did not get in, and says so. */
function keepOut(unit: AuditUnit, viewport: string, login: LoginOutcome): string {
  const why = { loadError: "not opened: the login did not get in (page.access says why)", login };
  writeArtifacts(unit, viewport, unopenedPage(unit.inputs[viewport]!, why));
  return "0 call(s); not opened: the login did not get in";
}
