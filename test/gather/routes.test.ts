import { expect } from "@playwright/test";
import { RouteWatch } from "../../src/gather/routes.js";
import { test } from "../support/browser.js";

/** Route observation in a real Chromium, on a page served by the test: what counts as a route change, and what does not. */
const APP = "http://routes.test/app/";
const PAGE = `<!doctype html><title>app</title><a id="far" href="/other">another document</a>`;

test("the load, pushState, back and forward are route changes; replaceState renames the visit; a fragment alone is none", async ({
  browser,
}) => {
  const context = await browser.newContext();
  await context.route("http://routes.test/**", (route) => route.fulfill({ contentType: "text/html", body: PAGE }));
  const watch = await RouteWatch.install(context);
  const page = await context.newPage();
  await page.goto(APP);
  await page.evaluate(() => history.pushState({}, "", "/app/pricing?plan=pro"));
  await page.evaluate(() => history.pushState({}, "", "/app/pricing?plan=pro#faq"));
  await page.evaluate(() => history.pushState({}, "", "/app/pricing?plan=pro"));
  await page.evaluate(() => history.replaceState({}, "", "/app/prices?plan=pro"));
  await page.evaluate(() => history.pushState({}, "", "/app/about"));
  await page.goBack({ waitUntil: "commit" });
  await page.goForward({ waitUntil: "commit" });
  await page.click("#far");
  await page.waitForURL("**/other");
  const visits = watch.finish((epochMs) => epochMs) ?? [];
  expect(visits.map(({ route, how }) => [route, how])).toEqual([
    ["/app/", "load"],
    ["/app/pricing?plan=pro", "push"],
    ["/app/prices?plan=pro", "replace"],
    ["/app/about", "push"],
    ["/app/prices?plan=pro", "back"],
    ["/app/about", "forward"],
    ["/other", "load"],
  ]);
  expect(visits.map((visit) => visit.atMs)).toEqual([...visits.map((visit) => visit.atMs)].sort((a, b) => a - b));
  expect(watch.visitCount()).toBe(6);
  await context.close();
});

test("a call's step is the last one started before it, and its route the one current then", async ({ browser }) => {
  const context = await browser.newContext();
  await context.route("http://routes.test/**", (route) => route.fulfill({ contentType: "text/html", body: PAGE }));
  const watch = await RouteWatch.install(context);
  const page = await context.newPage();
  await page.goto(APP);
  // The audit's clock (Date.now()) and the page's map onto each other to the millisecond: a moment
  // is read on the page 5 ms after what came before it and 5 ms before what comes after, so that
  // the reading and the steps are told apart.
  const pageNow = () =>
    page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          setTimeout(() => {
            const now = performance.timeOrigin + performance.now();
            setTimeout(() => resolve(now), 5);
          }, 5),
        ),
    );
  const beforeSteps = await pageNow();
  watch.stepStarted(0);
  await page.evaluate(() => history.pushState({}, "", "/app/pricing"));
  const inFirstStep = await pageNow();
  watch.stepStarted(1);
  const inSecondStep = await pageNow();
  expect([watch.stepAt(beforeSteps), watch.stepAt(inFirstStep), watch.stepAt(inSecondStep)]).toEqual([null, 0, 1]);
  expect([watch.routeAt(beforeSteps), watch.routeAt(inFirstStep)]).toEqual(["/app/", "/app/pricing"]);
  await context.close();
});

test("a wall clock set forward between the page's load and its journey moves no call out of its step: steps are placed on the page's clock as read when they started, an SDK's timestamps on the wall clock", () => {
  const watch = new RouteWatch();
  const loadedAt = 1_000_000;
  // At the load the two clocks were read together; since then the wall clock was set a minute forward.
  const wallAtLoad = Date.now() - 60_000;
  watch.note({ url: APP, how: "load", at: loadedAt, clocks: { at: loadedAt, wall: wallAtLoad, spreadMs: 0 } });
  watch.stepStarted(0, loadedAt + 2_000);
  watch.stepStarted(1, loadedAt + 3_000);
  expect([loadedAt + 1_000, loadedAt + 2_500, loadedAt + 3_500].map((at) => watch.stepAt(at))).toEqual([null, 0, 1]);
  expect([Date.now() - 30_000, Date.now() + 1_000].map((wall) => watch.stepAtWall(wall))).toEqual([null, 1]);
});

test("a hash router's route (#/, #!/) is a route, and its change a route change; an anchor, a hash route's own included, is none", async ({
  browser,
}) => {
  const context = await browser.newContext();
  await context.route("http://routes.test/**", (route) => route.fulfill({ contentType: "text/html", body: PAGE }));
  const watch = await RouteWatch.install(context);
  const page = await context.newPage();
  await page.goto(APP);
  await page.evaluate(() => (location.hash = "#intro"));
  await page.evaluate(() => history.pushState({}, "", "#/pricing"));
  await page.evaluate(() => (location.hash = "#/pricing#faq"));
  await page.evaluate(() => (location.hash = "#!/about"));
  for (let back = 0; back < 4; back++) await page.goBack({ waitUntil: "commit" });
  await page.waitForURL(APP);
  const visits = watch.finish((epochMs) => epochMs) ?? [];
  expect(visits.map(({ route, how }) => [route, how])).toEqual([
    ["/app/", "load"],
    ["/app/#/pricing", "push"],
    ["/app/#!/about", "push"],
    ["/app/#/pricing", "back"],
    ["/app/", "back"],
  ]);
  await context.close();
});
