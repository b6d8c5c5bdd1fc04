import { type BrowserContext, expect } from "@playwright/test";
import { AMPLITUDE_DEPLOYMENT_KEYS } from "../../fixtures/sites/amplitude-experiment.js";
import { GROWTHBOOK_CLIENT_KEYS } from "../../fixtures/sites/growthbook-flags.js";
import { LAUNCHDARKLY_CLIENT_IDS } from "../../fixtures/sites/launchdarkly.js";
import { OPTIMIZELY_SDK_KEYS } from "../../fixtures/sites/optimizely.js";
import { SLOW_INIT_MS as STATSIG_SLOW_INIT_MS, STATSIG_CLIENT_KEYS } from "../../fixtures/sites/statsig.js";
import type { ExperimentSdkInit } from "../../src/artifacts/types.js";
import { experimentSdkSchema, type ExperimentSdkSpec } from "../../src/audit-spec/schema.js";
import { ExposureRequests } from "../../src/gather/exposure-requests.js";
import type { GatherRun } from "../../src/gather/gather-run.js";
import { Gathering } from "../../src/gather/part.js";
import type { PageInput } from "../../src/schedule/page-input.js";
import { EXPERIMENT_PRESETS, type ExperimentPresetName } from "../../src/vendors/experiment-presets.js";
import { specWith } from "../support/artifacts.js";
import { test } from "../support/gather.js";

/**
 * The experimentation SDK's watch against the vendors' real bundles (fixtures/sites/statsig.ts,
 * launchdarkly.ts, growthbook-flags.ts, optimizely.ts, amplitude-experiment.ts): each client once, with its key, however the page loads the SDK, and each
 * evaluation's variation and reason, and whether its client was ready, the one made as the client
 * is made included.
 */
/** The `experimentSdk` section a spec with only `preset` gets. */
const sectionOf = (preset: ExperimentPresetName): ExperimentSdkSpec => experimentSdkSchema.parse({ preset });

const experimentSdk = sectionOf("statsig");

test("a client made through the bundle's global is seen once, at its constructor, with its evaluation", async ({
  gather,
}) => {
  const { experimentSdk: seen } = await gather("statsig", { path: "/shop" }, { experimentSdk });
  expect(seen?.inits).toEqual([
    expect.objectContaining({ method: "Statsig.StatsigClient", key: STATSIG_CLIENT_KEYS.staging }),
  ]);
  expect(seen?.inits[0]?.readyAtMs).not.toBeNull();
  expect(seen?.evaluations).toEqual([
    expect.objectContaining({ flag: "pricing_cta", variation: "cta-long", reason: "Network:Recognized" }),
  ]);
});

test("each document's client is its own: the next page's client, late, is ready when its own values came", async ({
  gather,
}) => {
  // Each document counts its clients from 0: the second page's first client is not the first page's.
  // The page waits for the late values as long as the SDK's delivery bound says: well past their delay.
  const sdk = { ...specWith().sdk, deliveryTimeoutMs: 3 * STATSIG_SLOW_INIT_MS };
  // The first page's client is ready before the journey leaves it: its copy shows once it is.
  const shown = { waitFor: "#cta:text-is('Start your free trial')" };
  const { experimentSdk: seen } = await gather(
    "statsig",
    { path: "/shop", steps: [shown, { goto: "/slow-shop" }] },
    { experimentSdk, sdk },
  );
  expect(seen?.inits).toHaveLength(2);
  const [first, next] = seen!.inits as [ExperimentSdkInit, ExperimentSdkInit];
  expect(first.readyAtMs).not.toBeNull();
  expect(first.readyAtMs!).toBeLessThan(next.atMs);
  // Ready once its values came, SLOW_INIT_MS after it asked: not when the first page's client was.
  expect(next.readyAtMs! - next.atMs).toBeGreaterThanOrEqual(STATSIG_SLOW_INIT_MS);
});

test("a client of the SDK bundled into the site's code, which defines no global, is seen in its registry, with its evaluation", async ({
  gather,
  browser,
  fixtures,
}) => {
  const page = await browser.newPage();
  await page.goto(`${fixtures.urls.statsig}/bundled-shop`);
  await expect(page.locator("#cta")).toHaveText("Start your free trial");
  expect(await page.evaluate(() => "Statsig" in window)).toBe(false);
  await page.close();

  const { experimentSdk: seen } = await gather("statsig", { path: "/bundled-shop" }, { experimentSdk });
  expect(seen?.inits).toEqual([
    expect.objectContaining({ method: "__STATSIG__.instances", key: STATSIG_CLIENT_KEYS.staging }),
  ]);
  expect(seen?.inits[0]?.readyAtMs).not.toBeNull();
  expect(seen?.evaluations).toEqual([
    expect.objectContaining({ flag: "pricing_cta", variation: "cta-long", reason: "Network:Recognized" }),
  ]);
});

test("an evaluation made as the client is made, before its values, is seen with the SDK's reason", async ({
  gather,
}) => {
  const { experimentSdk: seen } = await gather("statsig", { path: "/too-early" }, { experimentSdk });
  expect(seen?.evaluations[0]).toMatchObject({
    flag: "pricing_cta",
    variation: null,
    reason: "Uninitialized",
    clientReady: false,
  });
});

const launchdarklySdk = sectionOf("launchdarkly");

test("LaunchDarkly's client, whose global is filled after it is assigned, is seen at its factory; each variation() is read through its hook, before and after the flags came", async ({
  gather,
}) => {
  const shop = await gather("launchdarkly", { path: "/shop" }, { experimentSdk: launchdarklySdk });
  expect(shop.experimentSdk?.inits).toEqual([
    expect.objectContaining({ method: "LDClient.initialize", key: LAUNCHDARKLY_CLIENT_IDS.staging }),
  ]);
  const [init] = shop.experimentSdk!.inits;
  expect(shop.experimentSdk?.evaluations).toEqual([
    expect.objectContaining({ flag: "pricing_cta", variation: "cta-long", reason: "FALLTHROUGH", clientReady: true }),
  ]);
  expect(shop.experimentSdk!.evaluations[0]!.atMs).toBeGreaterThanOrEqual(init!.readyAtMs!);

  const early = await gather("launchdarkly", { path: "/too-early" }, { experimentSdk: launchdarklySdk });
  // The page's default value, with the reason LaunchDarkly gives an unknown flag too.
  expect(early.experimentSdk?.evaluations).toEqual([
    expect.objectContaining({
      flag: "pricing_cta",
      variation: "control",
      reason: "FLAG_NOT_FOUND",
      clientReady: false,
    }),
  ]);
});

test("GrowthBook's instance is seen with the clientKey of its options; getFeatureValue is read through evalFeature, with its source", async ({
  gather,
}) => {
  const shop = await gather("growthbookFlags", { path: "/shop" }, { experimentSdk: sectionOf("growthbook") });
  expect(shop.experimentSdk?.inits).toEqual([
    expect.objectContaining({ method: "growthbook.GrowthBook", key: GROWTHBOOK_CLIENT_KEYS.staging }),
  ]);
  expect(shop.experimentSdk?.evaluations).toEqual([
    expect.objectContaining({ flag: "pricing-cta", variation: "cta-long", reason: "experiment", clientReady: true }),
  ]);
});

test("Optimizely's client is seen at createInstance with the SDK key its datafile names once it is in; each decide on a user context it makes is read, with the rule that served it or the SDK's reason", async ({
  gather,
}) => {
  const experimentSdk = sectionOf("optimizely");
  const shop = await gather("optimizely", { path: "/shop" }, { experimentSdk });
  expect(shop.experimentSdk?.inits).toEqual([
    expect.objectContaining({ method: "optimizelySdk.createInstance", key: OPTIMIZELY_SDK_KEYS.staging }),
  ]);
  expect(shop.experimentSdk?.evaluations).toEqual([
    expect.objectContaining({
      method: "decide",
      flag: "pricing_cta",
      variation: "cta_long",
      reason: "pricing_cta_test",
      clientReady: true,
    }),
  ]);
  const early = await gather("optimizely", { path: "/too-early" }, { experimentSdk });
  expect(early.experimentSdk?.evaluations).toEqual([
    expect.objectContaining({
      flag: "pricing_cta",
      variation: null,
      reason: "Optimizely SDK not configured properly yet.",
      clientReady: false,
    }),
  ]);
});

test("Amplitude Experiment's client is seen with its deployment key; it is ready once the page's fetch settles, and a variant asked before is the empty one", async ({
  gather,
}) => {
  const experimentSdk = sectionOf("amplitude-experiment");
  const shop = await gather("amplitudeExperiment", { path: "/shop" }, { experimentSdk });
  expect(shop.experimentSdk?.inits).toEqual([
    expect.objectContaining({
      method: "Experiment.initializeWithAmplitudeAnalytics",
      key: AMPLITUDE_DEPLOYMENT_KEYS.staging,
      readyAtMs: expect.any(Number),
    }),
  ]);
  expect(shop.experimentSdk?.evaluations).toEqual([
    expect.objectContaining({
      method: "variant",
      flag: "pricing_cta",
      variation: "cta_long",
      reason: null,
      clientReady: true,
    }),
  ]);
  const early = await gather("amplitudeExperiment", { path: "/too-early" }, { experimentSdk });
  expect(early.experimentSdk?.evaluations).toEqual([
    expect.objectContaining({ flag: "pricing_cta", variation: null, reason: null, clientReady: false }),
  ]);
});

test("each exposure the SDK logs is read from its own requests, even one it would hold for a minute: the audit has the clients send their events after each evaluation", async ({
  gather,
  fixtures,
}) => {
  // Evaluated on a click, long after Statsig's one quick flush: Statsig alone would send it 60 s later.
  const page = `<!doctype html><title>Pricing</title><button id="cta">Get started</button>
    <script src="/cdn/statsig/statsig-js-client.min.js"></script>
    <script>
      var client = new Statsig.StatsigClient("${STATSIG_CLIENT_KEYS.staging}", { userID: "visitor-1" }, { networkConfig: { api: location.origin + "/statsig-api/v1" } });
      client.initializeAsync();
      document.getElementById("cta").addEventListener("click", function () { client.getExperiment("pricing_cta"); });
    </script>`;
  const prepare = async (context: BrowserContext) => {
    await context.route(`${fixtures.urls.statsig}/evaluated-on-click`, (route) =>
      route.fulfill({ contentType: "text/html", body: page }),
    );
  };
  const steps = [{ click: "#cta" }];
  const { experimentSdk: seen } = await gather(
    "statsig",
    { path: "/evaluated-on-click", steps },
    { experimentSdk },
    { prepare },
  );
  expect(seen?.exposures).toEqual([
    {
      flag: "pricing_cta",
      variation: "cta-long",
      visitor: "visitor-1",
      atMs: expect.any(Number),
      request: { atMs: expect.any(Number), status: 202, failure: null },
    },
  ]);
});

test("only what the page posts to experimentSdk.exposures is read: a GET the glob matches carries no exposure, and is not waited for; an exposure counts for its flag's variation alone", async ({
  browser,
}) => {
  const site = "http://shop.example.test";
  const context = await browser.newContext();
  try {
    // The GET is never answered: a stream of the site's own under the glob.
    await context.route(`${site}/**`, (route) => {
      if (route.request().method() === "POST") return route.fulfill({ status: 204 });
      if (route.request().url().endsWith("/v1/events")) return undefined;
      return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Shop</title>" });
    });
    const gathering = new Gathering(context, { experimentSdk: null } as unknown as PageInput, {} as GatherRun);
    const requests = new ExposureRequests(gathering);
    const page = await gathering.open();
    requests.watch(page, EXPERIMENT_PRESETS.optimizely.exposures!.url);
    await page.goto(`${site}/`);
    const decision = {
      visitors: [
        {
          visitor_id: "visitor-1",
          snapshots: [
            {
              decisions: [{ campaign_id: "1", metadata: { flag_key: "pricing_cta", variation_key: "cta_long" } }],
              events: [{ entity_id: "1", key: "campaign_activated", timestamp: Date.now() }],
            },
          ],
        },
      ],
    };
    await page.evaluate(
      ({ site, body }) => {
        void fetch(`${site}/v1/events`);
        return fetch(`${site}/v1/events`, { method: "POST", body: JSON.stringify(body) });
      },
      { site, body: decision },
    );
    await expect.poll(() => requests.allEnded() && requests.count === 1).toBe(true);
    expect(requests.exposures(EXPERIMENT_PRESETS.optimizely.exposures!.read, [])).toEqual([
      expect.objectContaining({ flag: "pricing_cta", variation: "cta_long", visitor: "visitor-1" }),
    ]);
    // The request carried the flag's exposure in cta_long, none in control: an evaluation served control still awaits its own.
    const read = EXPERIMENT_PRESETS.optimizely.exposures!.read;
    expect(requests.carriesVariation(read, "pricing_cta", "cta_long")).toBe(true);
    expect(requests.carriesVariation(read, "pricing_cta", "control")).toBe(false);
  } finally {
    await context.close();
  }
});
