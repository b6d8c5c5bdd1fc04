import { devices, expect } from "@playwright/test";
import type { ConsentUnitKind, PageArtifacts } from "../../src/artifacts/types.js";
import { type ClockWindow, ConsentWatch, gpcContextOptions, reachedWithin } from "../../src/gather/consent.js";
import { gatherPage } from "../../src/gather/page.js";
import { Signal } from "../../src/gather/signal.js";
import { plainPageInput } from "../../src/schedule/page-input.js";
import type { ConsentSpec, PageSpec } from "../../src/audit-spec/schema.js";
import { ACCEPT_SELECTOR, REJECT_SELECTOR } from "../../fixtures/consent/site.js";
import { KEYS } from "../../fixtures/vendors/manifest.js";
import { specWith } from "../support/artifacts.js";
import { test as withFixtures } from "../support/browser.js";
import { runWith, withPlanRules } from "../support/gather.js";

/** The gatherer on the consent fixture pages, in a browser that presents itself as a visitor's (the audit's), or one that says it is automated. */
const test = withFixtures.extend<{ gatherConsent: GatherConsent }>({
  gatherConsent: async ({ visitorBrowser, browser, fixtures }, use) => {
    await use(async (path, unit, consent = {}, { automated = false } = {}) => {
      const context = await (automated ? browser : visitorBrowser).newContext({
        ...devices["Desktop Chrome"],
        ...gpcContextOptions(unit),
      });
      try {
        const spec = specWith({ sdk: { preset: "segment" } });
        const page: PageSpec = {
          id: "signup",
          path,
          steps: [{ click: "#signup" }, { waitForEvent: "signup_success" }],
        };
        const input = plainPageInput({
          spec: "audits/consent.yaml",
          environment: "staging",
          unit: unit === "page" ? { id: "signup", kind: "page" } : { id: `signup.${unit}`, kind: unit },
          page,
          baseUrl: fixtures.urls.consent,
          siteDomain: "127.0.0.1",
          viewport: "desktop",
          mobile: false,
          sdk: { ...spec.sdk, deliveryTimeoutMs: 4000 },
          projectKeys: [KEYS.segment.staging, KEYS.segment.production],
          traffic: spec.traffic,
        });
        const consentInput = {
          spec: { accept: "auto" as const, gpc: false, timeoutMs: 4000, ...consent },
          unit,
          storage: spec.sdk.storage,
        };
        return await gatherPage(context, withPlanRules({ ...input, consent: consentInput }), runWith({}));
      } finally {
        await context.close();
      }
    });
  },
});

type GatherConsent = (
  path: string,
  unit: ConsentUnitKind,
  consent?: Partial<ConsentSpec>,
  options?: { automated?: boolean },
) => Promise<PageArtifacts>;

const SDK_NAMES = /^(ajs_|persisted-queue)/;

for (const manager of ["vcc", "klaro"] as const) {
  test(`${manager}: the rules find the banner, nothing is stored or sent before it is accepted, and the journey tracks after`, async ({
    gatherConsent,
  }) => {
    const artifacts = await gatherConsent(`/consent/${manager}/segment`, "page");
    const consent = artifacts.consent!;
    expect(consent).toMatchObject({ unit: "page", method: "auto", answerError: null, webdriver: false });
    expect(consent.cmp).toBe(manager === "vcc" ? "cookieconsent3" : "Klaro");
    expect(consent.bannerAtMs).not.toBeNull();
    expect(consent.answeredAtMs).toBeGreaterThanOrEqual(consent.bannerAtMs!);
    expect(consent.storedAtAnswer.filter((stored) => SDK_NAMES.test(stored.name))).toEqual([]);
    expect(consent.writes.filter((write) => write.atMs < consent.answeredAtMs!)).toEqual([]);
    expect(artifacts.collect.filter((request) => request.atMs < consent.answeredAtMs!)).toEqual([]);
    // After consent, the audit goes on as always: the SDK loads, the journey tracks, the calls are delivered.
    expect(artifacts.sdkReadyAtMs).not.toBeNull();
    expect(artifacts.stepError).toBeNull();
    expect(artifacts.calls.map((call) => call.name)).toContain("signup_success");
    expect(consent.writes.map((write) => write.name)).toContain("ajs_anonymous_id");
  });

  test(`${manager}: refused with the spec's selector, the SDK never loads and the journey's waitForEvent does not fail`, async ({
    gatherConsent,
  }) => {
    const artifacts = await gatherConsent(`/consent/${manager}/segment`, "reject", {
      reject: [{ click: REJECT_SELECTOR }],
    });
    const consent = artifacts.consent!;
    expect(consent).toMatchObject({ unit: "reject", method: "steps", answerError: null });
    expect(consent.answeredAtMs).not.toBeNull();
    expect(artifacts.stepError).toBeNull();
    expect(artifacts.calls).toEqual([]);
    expect(artifacts.collect).toEqual([]);
    expect(consent.writes).toEqual([]);
  });
}

test("accepted with the spec's selector on vanilla-cookieconsent: the banner is there once the selector is visible", async ({
  gatherConsent,
}) => {
  const artifacts = await gatherConsent("/consent/vcc/segment", "page", { accept: [{ click: ACCEPT_SELECTOR }] });
  expect(artifacts.consent).toMatchObject({ method: "steps", answerError: null, cmp: null });
  expect(artifacts.calls.map((call) => call.name)).toContain("signup_success");
});

test("a cookie written before consent is in the write log with its time, even where the consent manager deletes it at once", async ({
  gatherConsent,
}) => {
  const artifacts = await gatherConsent("/consent/klaro/segment?fault=cookie", "page");
  const consent = artifacts.consent!;
  // The page's script writes it, and Klaro deletes it in a task of its own: no probe, whatever the times.
  const before = consent.writes.filter(
    (write) => write.atMs < consent.answeredAtMs! && write.where === "cookie" && write.name === "ajs_anonymous_id",
  );
  const written = before.find((write) => write.op === "set");
  expect(written?.task).toBeDefined();
  expect(before.filter((write) => write.op === "remove" && write.task === written?.task)).toEqual([]);
  expect(consent.storedAtAnswer.map((stored) => stored.name)).not.toContain("ajs_anonymous_id");
});

test("a script's cookie writes carry the page's time and task: a probe is one task, a later deletion another, and a write that changed nothing is not logged", async ({
  browser,
}) => {
  const context = await browser.newContext();
  try {
    const startedAt = Date.now();
    const consent: ConsentSpec = { accept: [], gpc: false, timeoutMs: 1000 };
    const watch = await ConsentWatch.install(
      context,
      { spec: consent, unit: "page", storage: ["ajs_*"], settleMs: 100, stepTimeoutMs: 1000 },
      "http://cookies.test/",
      (at) => Math.round(at - startedAt),
      new Signal(),
    );
    await context.route("http://cookies.test/", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<script>
          document.cookie = "ajs_probe=1; path=/";
          document.cookie = "ajs_probe=; max-age=0; path=/";
          document.cookie = "ajs_user_id=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/";
          document.cookie = "ajs_anonymous_id=abc; path=/";
          document.cookie = "ajs_anonymous_id=abc; path=/";
          setTimeout(() => { document.cookie = "ajs_anonymous_id=; max-age=0; path=/"; document.title = "done"; }, 5);
        </script>`,
      }),
    );
    const page = await context.newPage();
    await watch.attach(page);
    await page.goto("http://cookies.test/");
    await expect(page).toHaveTitle("done");
    // The browser's change events for these writes come later: they must not be logged again.
    await page.waitForTimeout(300);
    const { writes } = await watch.finish(page);
    const logged = writes.map(({ name, op, task }) => ({ name, op, task }));
    const [probeSet, probeRemove, idSet, idRemove] = logged;
    expect(logged).toHaveLength(4);
    expect([probeSet, probeRemove, idSet, idRemove].map((write) => `${write?.op} ${write?.name}`)).toEqual([
      "set ajs_probe",
      "remove ajs_probe",
      "set ajs_anonymous_id",
      "remove ajs_anonymous_id",
    ]);
    expect(probeRemove?.task).toBe(probeSet?.task);
    expect(idSet?.task).toBe(probeSet?.task);
    expect(idRemove?.task).toBeGreaterThan(idSet!.task!);
  } finally {
    await context.close();
  }
});

test("the request log before consent names known trackers, keeps 200 requests and then only each tracker's first, and counts what it left out", async ({
  browser,
}) => {
  const context = await browser.newContext();
  try {
    const startedAt = Date.now();
    const consent: ConsentSpec = { accept: [], gpc: false, timeoutMs: 1000 };
    const watch = await ConsentWatch.install(
      context,
      { spec: consent, unit: "page", storage: [], settleMs: 100, stepTimeoutMs: 1000 },
      "http://shop.test/",
      (at) => Math.round(at - startedAt),
      new Signal(),
    );
    // Every request is answered here, the trackers' too: nothing leaves the machine.
    await context.route("**/*", (route) =>
      route.request().url() === "http://shop.test/"
        ? route.fulfill({
            contentType: "text/html",
            body: `<script>(async () => {
              await fetch("https://www.facebook.com/tr?id=1&ev=PageView", { mode: "no-cors" });
              await Promise.all(Array.from({ length: 204 }, (_, n) => fetch("/poll?n=" + n)));
              await fetch("https://www.facebook.com/tr?id=1&ev=Lead", { mode: "no-cors" });
              await fetch("https://region1.google-analytics.com/g/collect?v=2", { method: "POST", mode: "no-cors" });
              document.title = "done";
            })();</script>`,
          })
        : route.fulfill({ status: 204 }),
    );
    const page = await context.newPage();
    await watch.attach(page);
    await page.goto("http://shop.test/");
    await expect(page).toHaveTitle("done", { timeout: 30_000 });
    const { requestsBefore, requestsLeftOut } = await watch.finish(page);
    // The first 200: Facebook's pixel, then the page's own polls; past them, Google Analytics' first request alone.
    expect(requestsBefore).toHaveLength(201);
    expect(requestsBefore[0]).toMatchObject({
      url: "https://www.facebook.com/tr?id=1&ev=PageView",
      tracker: { name: "Facebook", category: "social" },
    });
    expect(
      requestsBefore
        .slice(1, 200)
        .every((request) => request.tracker === undefined && new URL(request.url).pathname === "/poll"),
    ).toBe(true);
    expect(requestsBefore[200]).toMatchObject({
      url: "https://region1.google-analytics.com/g/collect?v=2",
      method: "POST",
      tracker: { name: "Google Analytics", category: "analytics" },
    });
    // 5 polls and Facebook's second request.
    expect(requestsLeftOut).toBe(6);
  } finally {
    await context.close();
  }
});

test("an ungated SDK sends before the banner is answered; its requests before consent are listed", async ({
  gatherConsent,
}) => {
  const artifacts = await gatherConsent("/consent/vcc/segment?fault=ungated", "page");
  const consent = artifacts.consent!;
  expect(artifacts.collect.filter((request) => request.atMs < consent.answeredAtMs!).length).toBeGreaterThan(0);
  expect(consent.requestsBefore.map((request) => new URL(request.url).pathname)).toEqual(
    expect.arrayContaining(["/api/segment/v1/p"]),
  );
  expect(consent.storedAtAnswer.map((stored) => stored.name)).toContain("ajs_anonymous_id");
});

test("with GPC on, a correct page shows no banner and tracks nothing; one that takes GPC for consent tracks", async ({
  gatherConsent,
}) => {
  // Each page watches a whole banner timeout (the correct one shows none) before its journey, one after the other: triple time.
  test.slow();
  const honoured = await gatherConsent("/consent/vcc/segment", "gpc");
  expect(honoured.consent).toMatchObject({ unit: "gpc", method: "none", answeredAtMs: null });
  expect(honoured.collect).toEqual([]);
  const tracked = await gatherConsent("/consent/klaro/segment?fault=gpc", "gpc");
  expect(tracked.collect.length).toBeGreaterThan(0);
  expect(tracked.calls.map((call) => call.name)).toContain("signup_success");
});

test("no banner: a page without a consent manager, and one that hides its banner from an automated browser", async ({
  gatherConsent,
}) => {
  // Both pages at once, each in its own context: the waits overlap.
  const [none, hidden] = await Promise.all([
    gatherConsent("/consent/none/segment", "page", { timeoutMs: 1500 }),
    gatherConsent("/consent/vcc/segment", "page", { timeoutMs: 1500 }, { automated: true }),
  ]);
  expect(none.consent).toMatchObject({ bannerAtMs: null, answeredAtMs: null, cmp: null });
  expect(hidden.consent).toMatchObject({ bannerAtMs: null, webdriver: true });
});

test("a banner whose frame the consent manager removes once answered is gone; one that stays until its window ends is not", async ({
  browser,
}) => {
  const context = await browser.newContext();
  try {
    await context.route("http://cmp.test/**", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: route.request().url().endsWith("/frame")
          ? `<div id="banner">We use cookies</div>`
          : `<iframe src="/frame"></iframe>`,
      }),
    );
    const page = await context.newPage();
    await page.goto("http://cmp.test/");
    const frame = page.frames().find((candidate) => candidate.url().endsWith("/frame"))!;
    await expect(frame.locator("#banner")).toBeVisible();
    const open: ClockWindow = { over: () => false, ended: new Promise(() => {}) };
    const ended: ClockWindow = { over: () => true, ended: Promise.resolve() };

    expect(await reachedWithin(frame, "#banner", "hidden", ended)).toBe(false);
    const gone = reachedWithin(frame, "#banner", "hidden", open);
    await page.evaluate(() => document.querySelector("iframe")!.remove());
    expect(await gone).toBe(true);
    // Nor is it shown: the wait ends with the frame, not with the window.
    expect(await reachedWithin(frame, "#banner", "visible", open)).toBe(false);
  } finally {
    await context.close();
  }
});
