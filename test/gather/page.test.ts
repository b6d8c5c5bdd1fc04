import { join } from "node:path";
import { readFileSync } from "node:fs";
import { devices, expect, type BrowserContext } from "@playwright/test";
import { PNG } from "pngjs";
import type { PageArtifacts } from "../../src/artifacts/types.js";
import { specWith } from "../support/artifacts.js";
import { picturesIn, test } from "../support/gather.js";

/** The gatherer against the bundled sites in a real Chromium: what it records, not what it judges. */
test("a journey's calls are recorded as direct, with the SDK ready first and every call accepted", async ({
  gather,
}) => {
  const artifacts = await gather("demo", {
    path: "/signup",
    steps: [
      { fill: { selector: "#email", value: "qa@example.test" } },
      { click: "#submit" },
      { waitForEvent: "signup_success" },
    ],
  });
  expect(artifacts.loadError).toBeNull();
  expect(artifacts.stepError).toBeNull();
  expect(artifacts.sdkReadyAtMs).not.toBeNull();
  expect(artifacts.calls.map((call) => [call.kind, call.state])).toEqual([
    ["identify", "direct"],
    ["track", "direct"],
  ]);
  expect(artifacts.calls[1]).toMatchObject({ name: "signup_success", properties: { plan: "pro" } });
  expect(artifacts.collect.map((request) => request.status)).toContain(202);
  expect(artifacts.sdkTagKey).toBe("prj_demo_staging");
  expect(artifacts.keySightings.map((sighting) => `${sighting.key} ${sighting.where}`)).toEqual(
    expect.arrayContaining(["prj_demo_staging script-tag", "prj_demo_staging collect"]),
  );
});

test("a call before the global exists is recorded as lost, with its name read from the source", async ({ gather }) => {
  const artifacts = await gather("broken", { path: "/early-call" });
  expect(artifacts.calls).toEqual([
    expect.objectContaining({ kind: "track", name: "page_viewed_early", state: "lost" }),
  ]);
  expect(artifacts.errors[0]?.kind).toBe("exception");
});

test("the stub snippet's read of the missing global is no lost call: the page's source is not fetched again", async ({
  gather,
  fixtures,
}) => {
  const documentRequests = async (path: string) => {
    const response = await fetch(`${fixtures.urls.demoShop}/__fixture/received`);
    const { received } = (await response.json()) as { received: { path: string }[] };
    return received.filter((request) => request.path === path).length;
  };
  const before = await documentRequests("/pricing");
  const artifacts = await gather("demo", { path: "/pricing" });
  expect(artifacts.calls.filter((call) => call.state === "lost")).toEqual([]);
  expect(await documentRequests("/pricing")).toBe(before + 1);
});

test("a call on the stub snippet is recorded as queued and its delivery is waited for", async ({ gather }) => {
  const artifacts = await gather("broken", { path: "/queued-call", expect: { track: ["hero_seen"], identify: false } });
  expect(artifacts.calls).toEqual([expect.objectContaining({ name: "hero_seen", state: "queued" })]);
  expect(artifacts.collect.flatMap((request) => request.events.flatMap((event) => event.strings))).toContain(
    "hero_seen",
  );
});

test("a journey starts once the SDK is ready, however long its init takes: the call the first click makes is direct", async ({
  gather,
}) => {
  const slowSdkInit = async (context: BrowserContext) => {
    await context.route("**/sdk/v1/sdk.js*", async (route) => {
      const response = await route.fetch();
      const source = (await response.text()).replace("SETTINGS_FETCH_DELAY_MS = 50", "SETTINGS_FETCH_DELAY_MS = 1000");
      await route.fulfill({ response, body: source });
    });
  };
  // The journey waits for the SDK at most deliveryTimeoutMs: 20 s stands far apart from a 1 s init on
  // a loaded machine. The page requests its SDK only once idle: a click before the SDK is ready
  // would be queued on its stub, or direct before sdkReadyAtMs.
  const sdk = { ...specWith().sdk, deliveryTimeoutMs: 20_000 };
  const artifacts = await gather(
    "demo",
    { path: "/newsletter-sdk-when-idle", steps: [{ click: "#subscribe" }] },
    { sdk },
    { prepare: slowSdkInit },
  );
  // Ready at least 1 s after its script came: the slowed init, not the page's late request for it.
  expect(artifacts.sdkReadyAtMs! - artifacts.sdkScripts[0]!.atMs).toBeGreaterThanOrEqual(1000);
  expect(artifacts.calls).toEqual([expect.objectContaining({ name: "newsletter_subscribed", state: "direct" })]);
  expect(artifacts.calls[0]!.atMs).toBeGreaterThanOrEqual(artifacts.sdkReadyAtMs!);
});

test("a call the page makes from a timer is waited for when its thread is too busy to run it in time: the quiet window runs on the page's clock too", async ({
  gather,
}) => {
  // At the SDK's ready callback the page sets a 150 ms timer that tracks, then keeps its thread
  // busy for 600 ms, as a starved renderer on a loaded machine would: the timer fires late.
  const busyAfterReady = async (context: BrowserContext) => {
    await context.addInitScript(() => {
      document.addEventListener("DOMContentLoaded", () => {
        const stub = (window as unknown as { expsvc: unknown[] & { track: (name: string) => void } }).expsvc;
        stub.push([
          "ready",
          () => {
            setTimeout(
              () => (window as unknown as { expsvc: { track: (name: string) => void } }).expsvc.track("late_timer"),
              150,
            );
            const end = Date.now() + 600;
            while (Date.now() < end);
          },
        ]);
      });
    });
  };
  const artifacts = await gather("demo", { path: "/bench/7" }, {}, { prepare: busyAfterReady });
  expect(artifacts.calls.map((call) => call.name).sort()).toEqual(["late_timer", "product_viewed"]);
  // Both were delivered before the page was closed.
  expect(artifacts.collect.map((request) => request.status)).toContain(202);
  expect(artifacts.collect.flatMap((request) => request.events.flatMap((event) => event.strings))).toEqual(
    expect.arrayContaining(["late_timer", "product_viewed"]),
  );
});

for (const path of ["/newsletter-sdk-when-idle", "/newsletter-snippet-when-idle"]) {
  test(`a journey waits for an SDK that is loaded once the page is idle after load (${path}): the first click's call is direct`, async ({
    gather,
  }) => {
    const artifacts = await gather("demo", { path, steps: [{ click: "#subscribe" }] });
    expect(artifacts.stepError).toBeNull();
    expect(artifacts.sdkReadyAtMs).not.toBeNull();
    expect(artifacts.calls).toEqual([expect.objectContaining({ name: "newsletter_subscribed", state: "direct" })]);
    expect(artifacts.calls[0]!.atMs).toBeGreaterThanOrEqual(artifacts.sdkReadyAtMs!);
  });
}

/** The signup page with its stub snippet but without its SDK tag: an SDK that never comes. */
async function signupWithoutSdkTag(context: BrowserContext): Promise<void> {
  await context.route("**/signup", async (route) => {
    const response = await route.fetch();
    await route.fulfill({
      response,
      body: (await response.text()).replace(/<script async src="[^"]+"[^>]*><\/script>/, ""),
    });
  });
}

/**
 * The signup page without its SDK tag, and when, on the test's clock, the page loaded and saw the
 * journey fill or click: the wait before the journey and the page's end after it, each alone,
 * whatever the page's load and the journey took on a loaded machine.
 */
function signupWithoutSdkTagTimed() {
  let loadedAt = Number.NaN;
  let firstStepAt = Number.NaN;
  let lastStepAt = Number.NaN;
  const prepare = async (context: BrowserContext) => {
    await signupWithoutSdkTag(context);
    context.on("console", (message) => {
      if (message.text() === "page loaded" && Number.isNaN(loadedAt)) loadedAt = Date.now();
      if (message.text() !== "journey step") return;
      if (Number.isNaN(firstStepAt)) firstStepAt = Date.now();
      lastStepAt = Date.now();
    });
    await context.addInitScript(() => {
      addEventListener("load", () => console.log("page loaded"));
      for (const type of ["input", "click"]) document.addEventListener(type, () => console.log("journey step"), true);
    });
  };
  return { prepare, beforeJourneyMs: () => firstStepAt - loadedAt, sinceLastStepMs: () => Date.now() - lastStepAt };
}

test("a stub snippet whose SDK script never comes holds the journey for deliveryTimeoutMs, then the queued calls until the page's deadline", async ({
  gather,
}) => {
  // Two waits of deliveryTimeoutMs: once before the journey, then the queued calls' delivery until the same deadline's end.
  // A third (a wait per queued call) would make the page's end after its journey last 15 s more.
  test.setTimeout(120_000);
  const sdk = { ...specWith().sdk, deliveryTimeoutMs: 15_000 };
  const steps = [
    { fill: { selector: "#email", value: "qa@example.test" } },
    { click: "#submit" },
    { waitForEvent: "signup_success" },
  ];
  const { prepare, beforeJourneyMs, sinceLastStepMs } = signupWithoutSdkTagTimed();
  const artifacts = await gather("demo", { path: "/signup", steps }, { sdk }, { prepare });
  const endAfterJourneyMs = sinceLastStepMs();
  expect(artifacts.sdkReadyAtMs).toBeNull();
  expect(artifacts.calls.map((call) => [call.kind, call.state])).toEqual([
    ["identify", "queued"],
    ["track", "queued"],
  ]);
  expect(artifacts.calls[0]!.atMs).toBeGreaterThanOrEqual(sdk.deliveryTimeoutMs);
  expect(artifacts.durationMs).toBeGreaterThanOrEqual(2 * sdk.deliveryTimeoutMs);
  // One wait before the journey, and one after it.
  expect(beforeJourneyMs()).toBeLessThan(2 * sdk.deliveryTimeoutMs);
  expect(endAfterJourneyMs).toBeLessThan(2 * sdk.deliveryTimeoutMs);
});

test("a stub snippet whose SDK script never comes is waited for once: after a journey that calls nothing, the page ends with its quiet window", async ({
  gather,
}) => {
  // A second wait for the SDK, before the journey or after it, would last 15 s more; the quiet window that ends the page is 250 ms.
  test.setTimeout(120_000);
  const sdk = { ...specWith().sdk, deliveryTimeoutMs: 15_000 };
  const { prepare, beforeJourneyMs, sinceLastStepMs } = signupWithoutSdkTagTimed();
  const artifacts = await gather(
    "demo",
    { path: "/signup", steps: [{ fill: { selector: "#email", value: "qa@example.test" } }] },
    { sdk },
    { prepare },
  );
  const endAfterJourneyMs = sinceLastStepMs();
  expect(artifacts.sdkReadyAtMs).toBeNull();
  expect(artifacts.calls).toEqual([]);
  expect(artifacts.durationMs).toBeGreaterThanOrEqual(sdk.deliveryTimeoutMs);
  expect(beforeJourneyMs()).toBeLessThan(2 * sdk.deliveryTimeoutMs);
  expect(endAfterJourneyMs).toBeLessThan(sdk.deliveryTimeoutMs);
});

test("a journey on a page whose SDK script fails does not wait for the SDK", async ({ gather }) => {
  // A wait for the SDK would start once its script was requested and last deliveryTimeoutMs (20 s):
  // the click comes within half that of the request, however slowly a loaded machine loads the page.
  // The queued call is then waited for as long, since it never leaves.
  test.setTimeout(60_000);
  const sdk = { ...specWith().sdk, deliveryTimeoutMs: 20_000 };
  const artifacts = await gather(
    "broken",
    { path: "/navigate-away", steps: [{ click: "#go" }] },
    { sdk },
    {
      prepare: async (context) =>
        void (await context.route("**/sdk/v1/sdk.js*", (route) => route.fulfill({ status: 404 }))),
    },
  );
  expect(artifacts.sdkReadyAtMs).toBeNull();
  expect(artifacts.calls).toEqual([expect.objectContaining({ name: "cta_clicked", state: "queued" })]);
  expect(artifacts.calls[0]!.atMs).toBeLessThan(artifacts.sdkScripts[0]!.atMs + sdk.deliveryTimeoutMs / 2);
});

test("goto and waitFor steps walk to another page", async ({ gather }) => {
  const artifacts = await gather("demo", { path: "/", steps: [{ goto: "/pricing" }, { waitFor: "#cta-primary" }] });
  expect(artifacts.stepError).toBeNull();
  expect(artifacts.navigations.map((url) => new URL(url).pathname)).toEqual(["/", "/pricing"]);
});

test("a failing step is recorded with its index and reason", async ({ gather }) => {
  const artifacts = await gather(
    "demo",
    { path: "/", steps: [{ waitFor: "#does-not-exist" }] },
    { stepTimeoutMs: 500 },
  );
  expect(artifacts.stepError).toMatchObject({ step: 0 });
  expect(artifacts.stepError?.message).toContain('waitFor "#does-not-exist" failed');
});

test("experiment selectors are counted, visible matches only", async ({ gather }) => {
  const artifacts = await gather(
    "demo",
    { path: "/pricing" },
    {
      experiments: [
        { name: "CTA", selector: "#cta-primary" },
        { name: "Broken", selector: "div[" },
        { name: "Nothing", selector: "#nope" },
      ],
    },
  );
  expect(artifacts.selectors).toEqual([
    expect.objectContaining({ experiment: "CTA", matched: 1, visible: 1, stableAlternative: "#cta-primary" }),
    expect.objectContaining({ experiment: "Broken", matched: null, visible: 0 }),
    expect.objectContaining({ experiment: "Nothing", matched: 0, visible: 0 }),
  ]);
});

test("a canary sent only to the site's own backend is not a sighting", async ({ gather }) => {
  const artifacts = await gather(
    "demo",
    {
      path: "/signup",
      steps: [
        { fill: { selector: "#email", value: "canary@example.test", canary: true } },
        { click: "#submit" },
        { waitForEvent: "signup_success" },
      ],
    },
    { canaries: [{ step: 0, value: "canary@example.test" }] },
  );
  expect(artifacts.canarySightings).toEqual([]);
});

/** Every field a page's artifacts must hold, listed for the compiler to hold to the type: the parts' slices are merged where it cannot follow them. */
type RequiredFields<T> = { [K in keyof T as object extends Pick<T, K> ? never : K]-?: true };
const REQUIRED_FIELDS: RequiredFields<PageArtifacts> = {
  spec: true,
  environment: true,
  unit: true,
  page: true,
  viewport: true,
  mobile: true,
  browser: true,
  requestedUrl: true,
  finalUrl: true,
  navigations: true,
  loadError: true,
  documentStatus: true,
  stepError: true,
  access: true,
  sdkScripts: true,
  sdkReadyAtMs: true,
  callsFromNetwork: true,
  calls: true,
  collect: true,
  sdkTagKey: true,
  keySightings: true,
  selectors: true,
  canarySightings: true,
  errors: true,
  screenshot: true,
  variation: true,
  experimentViews: true,
  durationMs: true,
};
const missingFields = (artifacts: PageArtifacts) =>
  Object.keys(REQUIRED_FIELDS).filter(
    (field) => (artifacts as unknown as Record<string, unknown>)[field] === undefined,
  );

test("what the page reads of its browser is kept: navigator.onLine as the page saw it", async ({ gather }) => {
  const online = await gather("demo", { path: "/pricing" });
  expect(online.visitor?.online).toBe(true);
  // A browser that believes it has no network, as Chromium does on a machine with loopback alone.
  const offlineBrowser = async (context: BrowserContext) => {
    await context.addInitScript(() => Object.defineProperty(Navigator.prototype, "onLine", { get: () => false }));
  };
  const offline = await gather("demo", { path: "/pricing" }, {}, { prepare: offlineBrowser });
  expect(offline.visitor?.online).toBe(false);
});

test("a page that does not exist is a load error with its status", async ({ gather }) => {
  const artifacts = await gather("demo", { path: "/missing" });
  expect(artifacts.documentStatus).toBe(404);
  expect(artifacts.loadError).toBe("the server answered HTTP 404");
  // Its parts never settled: their slices still fill every field.
  expect(missingFields(artifacts)).toEqual([]);
});

test("the parts' slices fill every field of a loaded page's artifacts", async ({ gather }) => {
  const artifacts = await gather("demo", { path: "/pricing", steps: [{ click: "#cta-primary" }] });
  expect(artifacts.loadError).toBeNull();
  expect(missingFields(artifacts)).toEqual([]);
});

test("the screenshot shows the viewport in CSS pixels, on a phone too", async ({ gather }, testInfo) => {
  const pngSize = (path: string) => {
    const png = readFileSync(path);
    return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  };
  for (const device of ["Desktop Chrome", "Pixel 7"]) {
    const folder = testInfo.outputPath(device);
    const artifacts = await gather("demo", { path: "/pricing" }, picturesIn(folder, { screenshot: "pricing.png" }), {
      device: devices[device],
    });
    expect(artifacts.screenshot).toBe("pricing.png");
    expect(pngSize(join(folder, "pricing.png"))).toEqual(devices[device]!.viewport);
  }
});

test("the screenshot and the view screen mask the fields a step types a secret into: a box of the mask's colour where the field is, and none without", async ({
  gather,
}, testInfo) => {
  const magentaPixels = (path: string) => {
    const png = PNG.sync.read(readFileSync(path));
    let count = 0;
    for (let at = 0; at < png.data.length; at += 4)
      if (png.data[at] === 0xff && png.data[at + 1] === 0x00 && png.data[at + 2] === 0xff) count++;
    return count;
  };
  const journey = { path: "/signup", steps: [{ fill: { selector: "#email", value: "qa-secret@example.test" } }] };
  const viewed = { viewedExperiments: [{ name: "headline", selector: "h1" }] };
  const masked = await gather("demo", journey, {
    ...viewed,
    maskedFields: ["#email"],
    ...picturesIn(testInfo.outputPath(), { screenshot: "masked.png", view: "masked-view.png" }),
  });
  expect([masked.stepError, masked.screenshot, masked.experimentViews[0]?.screen]).toEqual([
    null,
    "masked.png",
    "masked-view.png",
  ]);
  const plain = await gather("demo", journey, {
    ...viewed,
    ...picturesIn(testInfo.outputPath(), { screenshot: "plain.png", view: "plain-view.png" }),
  });
  expect([plain.screenshot, plain.experimentViews[0]?.screen]).toEqual(["plain.png", "plain-view.png"]);
  // A text field's box: some hundreds of pixels at least.
  for (const name of ["masked.png", "masked-view.png"])
    expect(magentaPixels(testInfo.outputPath(name)), name).toBeGreaterThan(500);
  for (const name of ["plain.png", "plain-view.png"]) expect(magentaPixels(testInfo.outputPath(name)), name).toBe(0);
});
