import { readFileSync } from "node:fs";
import { expect } from "@playwright/test";
import { devices } from "playwright";
import type { FixtureServer } from "../../fixtures/server.js";
import type { CollectorRecord } from "../../fixtures/service/collector.js";
import type { ShopRequest } from "../../fixtures/sites/shop.js";
import { eventsDelivered } from "../../src/checks/events/delivered.js";
import { matchDeliveries } from "../../src/artifacts/delivery.js";
import { urlMatcher } from "../../src/url/glob.js";
import {
  auditUserAgent,
  headersFor,
  interceptCollect,
  resolveTraffic,
  SiteRequestTagger,
  withQueryParam,
} from "../../src/gather/traffic.js";
import { contextOf, specWith } from "../support/artifacts.js";
import { test, type Gather } from "../support/gather.js";

/** Own-traffic hygiene in a real Chromium: the tags reach the site and the service; intercepted calls reach neither. */

const SIGNUP = {
  path: "/signup",
  steps: [
    { fill: { selector: "#email", value: "qa@example.test" } },
    { click: "#submit" },
    { waitForEvent: "signup_success" },
  ],
  expect: { track: ["signup_success"], identify: true },
};

/** Tags unique to one test, so records of the worker's shared fixtures can be told apart. */
function tagsFor(id: string, traffic: Record<string, unknown> = {}) {
  const tags = resolveTraffic(
    specWith({ traffic: { userAgentSuffix: `setup-audit-test/${id}`, ...traffic } }).traffic,
    `run-${id}`,
  );
  return { tags, userAgent: auditUserAgent(devices["Desktop Chrome"].userAgent, tags.userAgentSuffix) };
}

test("tags default to the run id and setup-audit's version; an empty suffix appends nothing; a page's own query stays", () => {
  const version = (
    JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
  ).version;
  const tags = resolveTraffic(specWith({ traffic: { queryParam: {} } }).traffic, "ab12cd");
  expect(tags).toEqual({
    userAgentSuffix: `setup-audit/${version}`,
    header: { name: "X-Setup-Audit", value: "ab12cd" },
    queryParam: { name: "setup_audit", value: "ab12cd" },
    collect: "send",
  });
  expect(resolveTraffic(specWith({ traffic: { header: false } }).traffic, "ab12cd").header).toBeNull();
  expect(auditUserAgent("Mozilla/5.0 Chrome/140", "")).toBe("Mozilla/5.0 Chrome/140");
  expect(withQueryParam("https://shop.example.test/signup?plan=pro#form", tags.queryParam)).toBe(
    "https://shop.example.test/signup?plan=pro&setup_audit=ab12cd#form",
  );
  expect(withQueryParam("https://shop.example.test/", null)).toBe("https://shop.example.test/");
});

test("the traffic header goes to the site's domain and its subdomains; a closed site's headers to its origin alone", () => {
  const header = { name: "X-Setup-Audit", value: "run-1" };
  const token = { name: "X-Preview-Token", value: "tok_9f3c" };
  const tags = {
    header,
    domain: "shop.example.test",
    originHeaders: { origin: "https://shop.example.test", headers: [token] },
  };
  expect(headersFor(tags, "https://shop.example.test/pricing?plan=pro")).toEqual([header, token]);
  // Another port, another scheme or a subdomain is another origin: the secret stays home.
  for (const url of [
    "https://shop.example.test:8443/",
    "http://shop.example.test/",
    "https://cdn.shop.example.test/app.js",
  ])
    expect(headersFor(tags, url), url).toEqual([header]);
  expect(headersFor(tags, "https://collector.example.net/v1/collect")).toEqual([]);
  expect(headersFor({ ...tags, header: null, originHeaders: null }, "https://shop.example.test/")).toEqual([]);
});

async function fixtureJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  return (await response.json()) as T;
}

/**
 * The gatherer with a browser-wide tagger, as in a browser the audit launched; its worker is its
 * own, so no other test's browser is tagged. It also pauses the service's host, as a run whose
 * other spec audits a site there would: those requests go on untagged.
 */
const withBrowserTagger = test.extend<object, { browserTagger: SiteRequestTagger }>({
  browserTagger: [
    async ({ browser }, use) => use(await SiteRequestTagger.forBrowser(browser, ["localhost", "127.0.0.1"])),
    { scope: "worker" },
  ],
});

/** The shop as localhost: the service on 127.0.0.1 is then a third party, as it is in production. */
const shopAsLocalhost = (fixtures: FixtureServer) => fixtures.urls.demoShop.replace("127.0.0.1", "localhost");

async function expectSiteTagged(
  gather: Gather,
  fixtures: FixtureServer,
  id: string,
  browserTagger: SiteRequestTagger | null,
): Promise<void> {
  const { tags, userAgent } = tagsFor(id, { queryParam: {} });
  const shop = shopAsLocalhost(fixtures);
  const artifacts = await gather(
    "demo",
    SIGNUP,
    { baseUrl: shop, siteDomain: "localhost", traffic: tags, browserTagger },
    { device: { userAgent } },
  );

  expect(userAgent).toBe(`${devices["Desktop Chrome"].userAgent} setup-audit-test/${id}`);
  expect(artifacts.requestedUrl).toBe(`${shop}/signup?setup_audit=run-${id}`);
  expect(artifacts.collect.map((request) => [request.status, request.intercepted])).toEqual([[202, false]]);
  expect(matchDeliveries(artifacts.calls, artifacts.collect).map((match) => match.delivery)).toEqual([
    "accepted",
    "accepted",
  ]);

  const { received } = await fixtureJson<{ received: ShopRequest[] }>(`${fixtures.urls.demoShop}/__fixture/received`);
  const ours = received.filter((request) => request.headers["x-setup-audit"] === `run-${id}`);
  expect(ours.map((request) => `${request.method} ${request.path}`)).toEqual([
    `GET /signup?setup_audit=run-${id}`,
    "POST /api/signup",
  ]);
  expect(new Set(ours.map((request) => request.headers["user-agent"]))).toEqual(new Set([userAgent]));

  const { received: collected } = await fixtureJson<{ received: CollectorRecord[] }>(
    `${fixtures.urls.service}/__fixture/collector`,
  );
  expect(collected.filter((record) => record.userAgent === userAgent).map((record) => record.status)).toEqual([
    "accepted",
  ]);
}

test("through a session on the page, the user-agent suffix and the header reach the site; the service sees the suffix, and delivery still works", async ({
  gather,
  fixtures,
}) => {
  await expectSiteTagged(gather, fixtures, "page-session", null);
});

withBrowserTagger(
  "through the browser-wide session, the header reaches the site the same way, and a page without a header gets none",
  async ({ gather, fixtures, browserTagger }) => {
    await expectSiteTagged(gather, fixtures, "browser-session", browserTagger);

    // The next page's spec turns the header off: the shared session stops adding it.
    const { tags, userAgent } = tagsFor("browser-session-off", { header: false });
    await gather(
      "demo",
      SIGNUP,
      { baseUrl: shopAsLocalhost(fixtures), siteDomain: "localhost", traffic: tags, browserTagger },
      { device: { userAgent } },
    );
    const { received } = await fixtureJson<{ received: ShopRequest[] }>(`${fixtures.urls.demoShop}/__fixture/received`);
    const untagged = received.filter((request) => request.headers["user-agent"] === userAgent);
    expect(untagged.map((request) => `${request.method} ${request.path}`)).toEqual(["GET /signup", "POST /api/signup"]);
    expect(untagged.filter((request) => "x-setup-audit" in request.headers)).toEqual([]);
  },
);

test("intercept mode answers collect requests in the browser: the collector records nothing, the calls are intercepted and judged delivered", async ({
  gather,
  fixtures,
}) => {
  const { tags, userAgent } = tagsFor("intercept", { collect: "intercept" });
  const artifacts = await gather("demo", SIGNUP, { traffic: tags }, { device: { userAgent } });

  expect(artifacts.collect.map((request) => [request.status, request.intercepted, request.decodeError])).toEqual([
    [200, true, null],
  ]);
  expect(artifacts.collect[0]!.events.map((event) => (event.raw as { kind: string }).kind)).toEqual([
    "identify",
    "track",
  ]);
  expect(matchDeliveries(artifacts.calls, artifacts.collect).map((match) => match.delivery)).toEqual([
    "intercepted",
    "intercepted",
  ]);
  const [finding] = eventsDelivered.evaluate(contextOf([{ ...artifacts, page: "signup" }]));
  expect(finding).toMatchObject({
    status: "pass",
    message:
      "All 2 call(s) were delivered and accepted by the audit inside the browser (traffic.collect: intercept); nothing was sent to the service.",
  });

  const { received } = await fixtureJson<{ received: CollectorRecord[] }>(
    `${fixtures.urls.service}/__fixture/collector`,
  );
  expect(received.filter((record) => record.userAgent === userAgent)).toEqual([]);
});

test("intercept mode refuses a collect body it cannot decode with a 400 that says why, and sends nothing", async ({
  browser,
  fixtures,
}) => {
  const context = await browser.newContext();
  await interceptCollect(context, urlMatcher("**/v1/collect"));
  const page = await context.newPage();
  await page.goto(`${fixtures.urls.demoShop}/`);
  const answer = await page.evaluate(async (collect) => {
    const response = await fetch(collect, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "not a payload",
    });
    return { status: response.status, body: (await response.json()) as unknown };
  }, `${fixtures.urls.service}/v1/collect?probe=undecodable`);
  await context.close();

  expect(answer).toEqual({
    status: 400,
    body: {
      status: "rejected",
      error: "the body could not be decoded: neither JSON, form-encoded JSON nor base64 JSON",
    },
  });
  const { received } = await fixtureJson<{ received: CollectorRecord[] }>(
    `${fixtures.urls.service}/__fixture/collector`,
  );
  // What the collector would have said, had the body reached it.
  expect(received.filter((record) => record.error === "body is not valid JSON")).toEqual([]);
});
