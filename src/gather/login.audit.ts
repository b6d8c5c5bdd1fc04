import type { BrowserContext } from "playwright";
import { loginFailure } from "../artifacts/site-entry.js";
import { environmentOf } from "../audit-spec/environment.js";
import { firstLine } from "../text/wording.js";
import { pageTitle } from "../schedule/titles.js";
import { gatherTest, openAuditContext, plan } from "./audit-test.js";
import { walkLogin } from "./login.js";
import { saveLogin } from "./login-state.js";
import { accessContextOptions, addSiteCookies, originHeaders, siteCredentials } from "./site-access.js";
import { auditContextOptions, resolveTraffic } from "./traffic.js";

/**
 * The logins of closed sites (`auth.login`): one test per spec × environment with one, walking it
 * on every viewport side by side, before any page of the run (the pages' project depends on this
 * one). Each viewport's outcome, and the storage state it ended with, go to its pages through
 * login-state.ts. A login that fails is recorded, never thrown: Playwright would skip every page
 * of the run after a failed test of a project they depend on.
 */
for (const target of plan.targets) {
  const auth = environmentOf(target.spec, target.environment).auth;
  const login = auth?.login;
  if (!auth || !login) continue;
  const traffic = resolveTraffic(target.spec.traffic, plan.runId);
  const annotation = { type: "logins", description: target.viewports.join(" ") };
  gatherTest(pageTitle(target.slug, "login"), { annotation }, async ({ browser, browserTagger }, testInfo) => {
    const credentials = siteCredentials(auth, target.baseUrl, process.env);
    const tags = { header: traffic.header, domain: target.domain, originHeaders: originHeaders(credentials) };
    await Promise.all(
      target.viewports.map(async (viewport) => {
        const startedAt = Date.now();
        const key = { slug: target.slug, environment: target.environment, viewport };
        let context: BrowserContext | null = null;
        let gotIn = false;
        try {
          context = await openAuditContext(browser, {
            ...auditContextOptions(viewport, traffic, browser.version()),
            ...accessContextOptions(credentials, auth.storageState ?? null),
          });
          await addSiteCookies(context, credentials);
          const outcome = await walkLogin(context, {
            baseUrl: target.baseUrl,
            siteDomain: tags.domain,
            login,
            tags,
            browserTagger,
          });
          gotIn = loginFailure(outcome) === null;
          await saveLogin(plan.workDir, key, outcome, gotIn ? context : null);
        } catch (error) {
          const requestedUrl = new URL(login.path, target.baseUrl).href;
          await saveLogin(
            plan.workDir,
            key,
            {
              requestedUrl,
              documentStatus: null,
              loadError: `the login could not be walked: ${firstLine(error)}`,
              stepError: null,
              blockedHost: null,
              finalUrl: null,
            },
            null,
          );
        } finally {
          await context?.close();
        }
        const said = gotIn ? "got in" : "did not get in (page.access says why)";
        testInfo.annotations.push({
          type: `logged in ${viewport}`,
          description: `${said}  ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
        });
      }),
    );
  });
}
