import type { Browser, BrowserContext, BrowserContextOptions } from "playwright";
import { playwrightTest } from "../browser/playwright.js";
import { presentAsVisitor } from "../browser/visitor.js";
import { keepPlainStacks } from "./plain-stacks.js";
import { readPlan, type AuditTarget } from "../schedule/plan.js";
import { environmentOf } from "../audit-spec/environment.js";
import { SiteRequestTagger } from "./traffic.js";

/**
 * What the gather phase's tests share (the logins' and the pages'): the run's plan, and a test
 * whose worker tags the requests of every page its browser opens.
 */
keepPlainStacks();

/** The plan of this run, as the CLI wrote it. */
export const plan = readPlan();

/**
 * A context of the worker's browser for a page or a login: a visitor's. The browser the worker
 * launched is one already (its launch arguments); a browser server's context is made one here.
 */
export async function openAuditContext(browser: Browser, options: BrowserContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  if (plan.browserEndpoint !== null) await presentAsVisitor(context);
  return context;
}

/** True when requests to the target's site get a header: the traffic header, or a closed site's own. */
function tagsRequests(target: AuditTarget): boolean {
  return (
    target.spec.traffic.header !== false || environmentOf(target.spec, target.environment).auth?.headers !== undefined
  );
}

/** A gather test: its worker's browser, the tagger that serves every page of it, and what closes its contexts. */
export const gatherTest = playwrightTest().test.extend<
  object,
  { browserTagger: SiteRequestTagger | null; closeLater: (context: BrowserContext) => void }
>({
  // A browser the worker launched serves this worker alone: one session tags all its pages.
  browserTagger: [
    async ({ browser }, use) => {
      const tagged = plan.targets.filter(tagsRequests);
      await use(
        plan.browserEndpoint === null && tagged.length > 0
          ? await SiteRequestTagger.forBrowser(
              browser,
              tagged.map((target) => target.domain),
            )
          : null,
      );
    },
    { scope: "worker" },
  ],
  // A context takes the browser tens of milliseconds to close, and nothing read from it is left
  // to read: the next test starts meanwhile. The worker waits for the closes before it ends.
  closeLater: [
    async ({}, use) => {
      const closing = new Set<Promise<void>>();
      await use((context) => {
        const closed: Promise<void> = context
          .close()
          .catch(() => undefined)
          .finally(() => closing.delete(closed));
        closing.add(closed);
      });
      await Promise.all(closing);
    },
    { scope: "worker" },
  ],
});
