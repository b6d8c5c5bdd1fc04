import { expect, test } from "@playwright/test";
import type { AuditContext, Check } from "../../src/checks/check.js";
import { CHECKS, runChecks } from "../../src/checks/index.js";
import { readReplay } from "../../src/cli/replay.js";
import { GOLDEN_DIR, GOLDEN_SPEC } from "../support/golden.js";
import { pageErrors } from "../../src/checks/page/errors.js";
import type { PageArtifacts } from "../../src/artifacts/types.js";
import { contextOf, pageWith } from "../support/artifacts.js";

/**
 * Every check declares what it reads (`requires`): judged on the broken shop's golden artifacts
 * (once as its spec is, once with page views and exposures on), no check reads a key of a page's
 * artifacts it does not declare. Most checks read the pages there; those the golden spec gives
 * nothing of theirs (consent, baseline, tracking plan, flicker on a variation the site applies)
 * are not proven here: their own tests read them. And a check that requires a key the
 * artifacts lack is not judged, the runner saying which.
 */

/** What names a page: every check may read it without declaring it. */
const IDENTITY = new Set(["spec", "environment", "unit", "page", "viewport", "mobile"]);

/** `context` with each page's artifacts behind a proxy that notes every key read into `read`. */
function noting(context: AuditContext, read: Set<string>): AuditContext {
  const watched = <Page extends object>(pages: readonly Page[]) =>
    pages.map(
      (page) =>
        new Proxy(page, {
          get(target, key, receiver) {
            if (typeof key === "string" && !IDENTITY.has(key)) read.add(key);
            return Reflect.get(target, key, receiver);
          },
          has(target, key) {
            if (typeof key === "string" && !IDENTITY.has(key)) read.add(key);
            return Reflect.has(target, key);
          },
        }),
    );
  return {
    ...context,
    pages: watched(context.pages),
    variations: watched(context.variations),
    ...(context.refusals ? { refusals: watched(context.refusals) } : {}),
  };
}

test("judged on the golden artifacts, no check reads a page's artifact it does not require", async () => {
  const read = new Map<string, Set<string>>();
  const declared = new Map<string, readonly string[]>();
  const noted: Check[] = CHECKS.map((check) => ({
    ...check,
    evaluate: (context) => {
      const keys = read.get(check.id) ?? new Set<string>();
      read.set(check.id, keys);
      declared.set(check.id, typeof check.requires === "function" ? check.requires(context) : check.requires);
      return check.evaluate(noting(context, keys));
    },
  }));
  const replay = () => readReplay(GOLDEN_DIR, { specs: [GOLDEN_SPEC], env: undefined, pages: [], viewports: [] });
  (await replay()).judge([], noted);
  // Once more with page views judged and an exposure on each experiment: the checks that the
  // golden spec leaves out read the same pages then.
  const widened = await replay();
  const spec = widened.targets[0]!.spec;
  spec.sdk.pageViews = true;
  for (const experiment of spec.experiments)
    experiment.exposure = { event: "Experiment Viewed", properties: {}, variationProperty: "variation_id" };
  widened.judge([], noted);
  const undeclared = [...read].flatMap(([id, keys]) =>
    [...keys].filter((key) => !declared.get(id)!.includes(key)).map((key) => `${id} reads ${key}`),
  );
  expect(undeclared).toEqual([]);
  // The proof has something to prove: most checks read the pages' artifacts.
  expect([...read].filter(([, keys]) => keys.size > 0).map(([id]) => id)).toEqual(
    expect.arrayContaining(["events.pageviews", "experiment.exposure", "experiment.variation", "sdk.key"]),
  );
  expect([...read.values()].filter((keys) => keys.size > 0).length).toBeGreaterThanOrEqual(19);
});

test("a check that requires a key a page's artifacts lack is not judged, the runner saying which and what to do", () => {
  const { errors: _errors, ...older } = pageWith({ page: "pricing", viewport: "mobile", mobile: true });
  const findings = runChecks(contextOf([older as PageArtifacts]), [pageErrors]);
  expect(findings).toEqual([
    expect.objectContaining({
      check: "page.errors",
      status: "skip",
      message:
        'Not judged: the artifacts of page "pricing" on mobile hold no `errors` (saved by an earlier setup-audit, or edited). Run the audit again to judge it.',
    }),
  ]);
  // With the key, the same page is judged.
  expect(runChecks(contextOf([pageWith({ page: "pricing", viewport: "mobile", mobile: true })]), [pageErrors])).toEqual(
    [expect.objectContaining({ check: "page.errors", status: "pass" })],
  );
});
