import { expect } from "@playwright/test";
import { type BrowserContext, devices } from "playwright";
import { FIXTURE_API_KEY } from "../../fixtures/service/api.js";
import { KEYS } from "../../fixtures/vendors/manifest.js";
import { waitOnPageClock } from "../../src/browser/page-clock.js";
import { probeCollect } from "../../src/init/collect-probe.js";
import { takeFirstLook } from "../../src/init/first-look.js";
import { NetworkWatch } from "../../src/init/network-rest.js";
import { detectSdk } from "../../src/init/sdk-detection.js";
import { test } from "../support/browser.js";

/** The first look and the collect probe in a real Chromium, on the bundled sites. */

/** Serves `html` as the page at http://shop.test/. */
async function servePage(context: BrowserContext, html: string): Promise<void> {
  await context.route("http://shop.test/", (route) => route.fulfill({ contentType: "text/html", body: html }));
}

test("the demo shop defines expsvc from the service's script, after its stub; the probe finds the collector and never reaches it", async ({
  browser,
  fixtures,
}) => {
  const context = await browser.newContext(devices["Desktop Chrome"]);
  try {
    const { look, page } = await takeFirstLook(context, `${fixtures.urls.demoShop}/`);
    expect(look.loadError).toBeNull();
    const expsvc = look.globals.find((global) => global.name === "expsvc");
    expect(expsvc).toMatchObject({ type: "object", definedBy: `${fixtures.urls.service}/sdk/v1/sdk.js` });
    expect(expsvc?.methods).toEqual(expect.arrayContaining(["track", "identify"]));
    // Nothing the browser defines on every page of that origin is taken for the page's.
    expect(look.globals.map((global) => global.name)).toEqual(["expsvc"]);
    expect(look.requests.map((request) => request.resourceType)).toContain("script");

    const probe = await probeCollect(context, page, "expsvc", ["track", "identify"], 5000);
    expect(probe.urls).toEqual([`${fixtures.urls.service}/v1/collect`]);
    expect(probe.delayMs).not.toBeNull();
    const events = await (
      await fetch(`${fixtures.urls.service}/v1/projects/prj_demo_staging/events`, {
        headers: { "x-service-api-key": FIXTURE_API_KEY },
      })
    ).json();
    expect(JSON.stringify(events)).not.toContain("setup_audit_init_probe");
  } finally {
    await context.close();
  }
});

test("the probe waits for every method's call, also one the SDK batches for seconds, and none of them reaches the collector", async ({
  browser,
}) => {
  const context = await browser.newContext(devices["Desktop Chrome"]);
  const reachedCollector: string[] = [];
  try {
    // An SDK that sends an identify at once and batches a track for 1.5 s, as PostHog and Mixpanel
    // do, then sends that batch again 1.5 s later (a retry).
    await context.route("http://collector.test/**", async (route) => {
      reachedCollector.push(route.request().postData() ?? "");
      await route.fulfill({ status: 200, json: {} });
    });
    await servePage(
      context,
      `<script>
          const send = (path, body) => fetch("http://collector.test/" + path, { method: "POST", body: JSON.stringify(body) });
          window.shopsdk = {
            identify(userId) { send("identify", { userId }); },
            track(event) {
              setTimeout(() => send("batch", { events: [{ event }] }), 1500);
              setTimeout(() => send("batch", { events: [{ event }] }), 3000);
            },
          };
        </script>`,
    );
    const page = await context.newPage();
    await page.goto("http://shop.test/");
    const probe = await probeCollect(context, page, "shopsdk", ["track", "identify"], 5000);
    expect(probe.urls.sort()).toEqual(["http://collector.test/batch", "http://collector.test/identify"]);
    const probeRequests = probe.urls.length;
    expect(probe.delayMs).toBeGreaterThanOrEqual(1400);
    // The retry the SDK sends after the probe returned is answered inside the browser too.
    await expect.poll(() => probe.urls.length, { timeout: 30_000 }).toBe(probeRequests + 1);
    expect(reachedCollector).toEqual([]);
  } finally {
    await context.close();
  }
});

test("one batch that carries every method's marker ends the probe, and a later flush carrying one again does not stretch its delay; a missing method is not waited for", async ({
  browser,
}) => {
  const context = await browser.newContext(devices["Desktop Chrome"]);
  try {
    // An SDK that batches the identify and the track into one request after 300 ms, as Mixpanel
    // does, and sends the user id again with a later flush at 3 s.
    await context.route("http://collector.test/**", (route) => route.fulfill({ status: 200, json: {} }));
    await servePage(
      context,
      `<script>
          const queue = [];
          const send = () => fetch("http://collector.test/batch", { method: "POST", body: JSON.stringify({ events: queue.splice(0) }) });
          window.shopsdk = {
            identify(userId) { queue.push({ userId }); setTimeout(() => { queue.push({ userId }); send(); }, 3000); },
            track(event) { queue.push({ event }); setTimeout(send, 300); },
          };
        </script>`,
    );
    const page = await context.newPage();
    await page.goto("http://shop.test/");
    const probe = await probeCollect(context, page, "shopsdk", ["track", "identify", "alias"], 8000);
    expect(probe.urls).toEqual(["http://collector.test/batch"]);
    expect(probe.delayMs).toBeLessThan(2000);
  } finally {
    await context.close();
  }
});

test("Segment's snippet page matches the segment preset, its key in the script's URL", async ({
  browser,
  fixtures,
}) => {
  const context = await browser.newContext(devices["Desktop Chrome"]);
  try {
    const { look } = await takeFirstLook(context, `${fixtures.urls.vendors}/segment/snippet/correct`);
    const { preset } = detectSdk(look);
    expect(preset).toMatchObject({ preset: "segment", ready: true });
    expect(preset?.scriptUrls[0]).toContain(KEYS.segment.staging);
  } finally {
    await context.close();
  }
});

test("the network rests on a Segment page once its collect call is answered, though Playwright's networkidle never comes once that call is sent", async ({
  browser,
  fixtures,
}) => {
  const context = await browser.newContext(devices["Desktop Chrome"]);
  try {
    const network = new NetworkWatch(context);
    const answered: string[] = [];
    const finished: string[] = [];
    context.on("response", (response) => answered.push(new URL(response.url()).pathname));
    context.on("requestfinished", (request) => finished.push(new URL(request.url()).pathname));
    const page = await context.newPage();
    const order: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/segment/v1/p") order.push("page view sent");
    });
    // The page view's answer comes first: on a loaded machine the SDK may send it after a quiet
    // longer than any window, which is not what this test is about.
    const collected = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/segment/v1/p");
    // From the commit on, networkidle is not yet reached, so the order of its event and the
    // request's is the order in which they happened.
    await page.goto(`${fixtures.urls.vendors}/segment/snippet/correct`, { waitUntil: "commit" });
    const networkIdle = page.waitForLoadState("networkidle", { timeout: 60_000 }).then(
      () => order.push("networkidle"),
      () => undefined,
    );
    await collected;
    expect(await network.rest(500, 10_000)).toBe(true);
    expect(answered).toContain("/api/segment/v1/p");
    await Promise.race([networkIdle, page.waitForTimeout(1500)]);
    // The page view's request has its answer but never reports its body loaded: once it is sent,
    // networkidle waits on. It may come before (Playwright keeps it once reached, while the page
    // does not navigate), where a loaded machine keeps the SDK quiet for 500 ms between its
    // settings and the page view.
    expect(finished).not.toContain("/api/segment/v1/p");
    expect(order.slice(order.indexOf("page view sent"))).toEqual(["page view sent"]);
  } finally {
    await context.close();
  }
});

test("a request still waiting for its response keeps the network from resting, until it is answered", async ({
  browser,
}) => {
  const context = await browser.newContext(devices["Desktop Chrome"]);
  try {
    const network = new NetworkWatch(context);
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await context.route("http://shop.test/settings", async (route) => {
      await answered;
      await route.fulfill({ status: 200, json: {} });
    });
    await servePage(context, `<script>fetch("/settings")</script>`);
    const page = await context.newPage();
    const settingsAsked = page.waitForRequest("http://shop.test/settings");
    await page.goto("http://shop.test/");
    await settingsAsked;
    expect(await network.rest(100, 1000)).toBe(false);
    answer();
    expect(await network.rest(100, 10_000)).toBe(true);
  } finally {
    await context.close();
  }
});

test("the network rests only once the page's own clock has seen the quiet window too: a page whose thread is busy holds it", async ({
  browser,
}) => {
  const context = await browser.newContext(devices["Desktop Chrome"]);
  try {
    const network = new NetworkWatch(context);
    await context.route("http://shop.test/settings", (route) => route.fulfill({ status: 200, json: {} }));
    // The page's thread is busy for 2 s from 100 ms after its settings came: on the audit's clock
    // alone, the 500 ms window would pass while it is.
    await servePage(
      context,
      `<script>
          fetch("/settings").then(() => setTimeout(() => {
            const until = Date.now() + 2000;
            while (Date.now() < until);
            window.busyEndedAt = Date.now();
          }, 100));
        </script>`,
    );
    const page = await context.newPage();
    const settingsAnswered = page.waitForResponse("http://shop.test/settings");
    await page.goto("http://shop.test/", { waitUntil: "commit" });
    await settingsAnswered;
    expect(await network.rest(500, 30_000, (ms) => waitOnPageClock(page, ms))).toBe(true);
    const restedAt = Date.now();
    expect(restedAt).toBeGreaterThanOrEqual(
      await page.evaluate(() => (window as { busyEndedAt?: number }).busyEndedAt ?? Infinity),
    );
  } finally {
    await context.close();
  }
});

test("a URL that does not load is said, with nothing seen", async ({ browser, fixtures }) => {
  const context = await browser.newContext(devices["Desktop Chrome"]);
  try {
    const { look } = await takeFirstLook(context, `${fixtures.urls.demoShop}/no-such-page`);
    expect(look).toMatchObject({ loadError: "the server answered HTTP 404", finalUrl: null, globals: [] });
  } finally {
    await context.close();
  }
});
