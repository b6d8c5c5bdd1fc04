import { expect, test } from "@playwright/test";
import type { KeySighting, PageArtifacts } from "../../../src/artifacts/types.js";
import { sdkKey } from "../../../src/checks/sdk/key.js";
import { keysInHeaders } from "../../../src/gather/network.js";
import { scriptTagFacts, type ScriptTagRead } from "../../../src/gather/sdk-tag.js";
import { contextOf, pageWith, specWith, twoEnvironments } from "../../support/artifacts.js";

/** A Segment-style install: the write key travels in the script's path, the tag names the global. */
const segmentSpec = specWith({
  environments: {
    staging: { key: "wkStaging1a2b3c", baseUrl: "http://127.0.0.1:47412" },
    production: { key: "wkProd9z8y7x", baseUrl: "https://shop.example.test", domain: "example.test" },
  },
  defaultEnvironment: "staging",
  sdk: { preset: "segment" },
});
const segmentScript = (writeKey: string) => `https://cdn.segment.com/analytics.js/v1/${writeKey}/analytics.min.js`;

/** The tag a Segment snippet inserts, as the gatherer reads it: `analytics` is a window global at read time. */
function segmentTag(writeKey: string): ScriptTagRead {
  return {
    src: segmentScript(writeKey),
    attributes: [
      { name: "type", value: "text/javascript", onWindow: false },
      { name: "async", value: "", onWindow: false },
      { name: "data-global-segment-analytics-key", value: "analytics", onWindow: true },
    ],
    query: [],
  };
}

/** Page artifacts of a Segment page whose tag the gatherer read as `tag`. */
function segmentPage(tag: ScriptTagRead, more: KeySighting[] = []): PageArtifacts {
  const facts = scriptTagFacts([tag], "analytics", ["wkStaging1a2b3c", "wkProd9z8y7x"]);
  return pageWith({
    sdkScripts: [{ url: tag.src, status: 200, failure: null, atMs: 20 }],
    sdkTagKey: facts.sdkTagKey,
    keySightings: [...facts.sightings, ...more],
  });
}

/** A RudderStack-style collect header: `Authorization: Basic base64(writeKey:)`. */
const basicOf = (writeKey: string) => `Basic ${Buffer.from(`${writeKey}:`).toString("base64")}`;

test.describe("sdk.key", () => {
  test("passes when the page installs the environment's key and no other", () => {
    const [finding] = sdkKey.evaluate(contextOf([pageWith()], twoEnvironments));
    expect(finding).toMatchObject({ check: "sdk.key", status: "pass", page: "home", viewport: "desktop" });
    expect(finding?.message).toBe(
      "The page installs `prj_demo_staging`, seen in the SDK's script tag (data-project-key), and no other environment's key.",
    );
  });

  test("fails when the script tag installs another environment's key, naming it and its attribute once", () => {
    const page = pageWith({
      sdkTagKey: "prj_demo_prod",
      keySightings: [{ key: "prj_demo_prod", where: "script-tag", detail: "data-project-key" }],
    });
    const [finding] = sdkKey.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      'On desktop: `prj_demo_prod` (environment "production"\'s key) is in the SDK\'s script tag (data-project-key), and environment "staging"\'s key is seen nowhere. Install only environment "staging"\'s key `prj_demo_staging` on this environment\'s pages; never mix keys.',
    );
  });

  test("fails when another environment's key is seen anywhere, naming where, without the URL's query", () => {
    const page = pageWith({
      keySightings: [
        { key: "prj_demo_staging", where: "script-tag", detail: "data-project-key" },
        {
          key: "prj_demo_prod",
          where: "collect",
          detail: "http://127.0.0.1:47411/v1/collect?key=prj_demo_prod&uid=jane%40example.org",
        },
        { key: "prj_demo_prod", where: "sdk-global", detail: "expsvc.config.fallbackKey" },
      ],
    });
    const [finding] = sdkKey.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain(
      'On desktop: `prj_demo_prod` (environment "production"\'s key) is in a collect request (http://127.0.0.1:47411/v1/collect), the SDK global (expsvc.config.fallbackKey). Install only',
    );
    expect(JSON.stringify(finding)).not.toContain("jane");
  });

  test("fails when the script tag installs a key the spec does not know, naming it and where the tag declares it", () => {
    const tag = {
      src: "http://127.0.0.1:47411/sdk/v1/sdk.js",
      attributes: [{ name: "data-project-key", value: "prj_someone_else", onWindow: false }],
      query: [],
    };
    const facts = scriptTagFacts([tag], "expsvc", ["prj_demo_staging", "prj_demo_prod"]);
    const [finding] = sdkKey.evaluate(
      contextOf([pageWith({ sdkTagKey: facts.sdkTagKey, keySightings: facts.sightings })], twoEnvironments),
    );
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      "On desktop: `prj_someone_else` (no key of this spec) is in the SDK's script tag (data-project-key), and environment \"staging\"'s key is seen nowhere. Install only environment \"staging\"'s key `prj_demo_staging` on this environment's pages; never mix keys.",
    );
  });

  test("fails when a query parameter of the script's URL declares a key the spec does not know, naming the URL without its query", () => {
    const tag = {
      src: "http://127.0.0.1:47411/sdk/v1/sdk.js?apiKey=prj_someone_else",
      attributes: [],
      query: [{ name: "apiKey", value: "prj_someone_else", onWindow: false }],
    };
    const facts = scriptTagFacts([tag], "expsvc", ["prj_demo_staging", "prj_demo_prod"]);
    expect(facts.sightings).toEqual([{ key: "prj_someone_else", where: "script-url", detail: tag.src }]);
    const page = pageWith({
      sdkTagKey: facts.sdkTagKey,
      keySightings: [
        ...facts.sightings,
        { key: "prj_demo_staging", where: "collect", detail: "http://127.0.0.1:47411/v1/collect" },
      ],
    });
    const [finding] = sdkKey.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.message).toBe(
      "On desktop: `prj_someone_else` (no key of this spec) is in the SDK's script URL (http://127.0.0.1:47411/sdk/v1/sdk.js). Install only environment \"staging\"'s key `prj_demo_staging` on this environment's pages; never mix keys.",
    );
  });

  test("fails when an init call installs a key the spec does not know, and not on a value that is no key", () => {
    const initWith = (key: string) =>
      pageWith({
        sdkTagKey: null,
        keySightings: [
          { key, where: "init", detail: "mixpanel.init" },
          { key: "prj_demo_staging", where: "collect", detail: "http://127.0.0.1:47411/v1/collect" },
        ],
      });
    const [wrong] = sdkKey.evaluate(contextOf([initWith("YOUR_PROJECT_TOKEN")], twoEnvironments));
    expect(wrong?.message).toBe(
      "On desktop: `YOUR_PROJECT_TOKEN` (no key of this spec) is in the SDK's init call (mixpanel.init). Install only environment \"staging\"'s key `prj_demo_staging` on this environment's pages; never mix keys.",
    );
    expect(sdkKey.evaluate(contextOf([initWith("https://eu.example.test")], twoEnvironments))[0]?.status).toBe("pass");
  });

  test("names the tag's key without a place when the artifacts do not say where the tag declares it", () => {
    const [finding] = sdkKey.evaluate(
      contextOf([pageWith({ sdkTagKey: "prj_someone_else", keySightings: [] })], twoEnvironments),
    );
    expect(finding?.message).toContain("`prj_someone_else` (no key of this spec) is in the SDK's script tag, and");
  });

  test("fails when the environment's key is seen nowhere, listing where it looked", () => {
    const [finding] = sdkKey.evaluate(contextOf([pageWith({ sdkTagKey: null, keySightings: [] })], twoEnvironments));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      "Environment \"staging\"'s key `prj_demo_staging` was seen nowhere on the page: not in the SDK's script URL, its script tag, its global or its collect requests' URLs, payloads and headers. Install the SDK with key `prj_demo_staging`.",
    );
  });

  test("names the init call among the places looked at when the spec has init methods", () => {
    const [finding] = sdkKey.evaluate(contextOf([pageWith({ sdkTagKey: null, keySightings: [] })], segmentSpec));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      "Environment \"staging\"'s key `wkStaging1a2b3c` was seen nowhere on the page: not in the SDK's script URL, its script tag, its init call, its global or its collect requests' URLs, payloads and headers. Install the SDK with key `wkStaging1a2b3c`.",
    );
  });

  test("passes on a key seen only in the SDK global", () => {
    const page = pageWith({
      sdkTagKey: null,
      keySightings: [{ key: "prj_demo_staging", where: "sdk-global", detail: "expsvc.projectKey" }],
    });
    const [finding] = sdkKey.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("pass");
  });

  test("skips a page that did not load, and one whose SDK never loaded", () => {
    const findings = sdkKey.evaluate(
      contextOf(
        [
          pageWith({ loadError: "net::ERR_CONNECTION_REFUSED" }),
          pageWith({
            viewport: "mobile",
            sdkReadyAtMs: null,
            sdkScripts: [{ url: "http://127.0.0.1:47411/sdk/v1/sdk.js", status: 404, failure: null, atMs: 10 }],
          }),
        ],
        twoEnvironments,
      ),
    );
    expect(findings.map((finding) => [finding.viewport, finding.status, finding.message])).toEqual([
      ["desktop", "skip", "Not judged: the page did not load."],
      ["mobile", "skip", "Not judged: the SDK did not load (sdk.present reports why)."],
    ]);
  });
});

test.describe("sdk.key: every place a key travels", () => {
  test("a Segment tag naming its global and carrying the write key in the script path passes, naming the script URL", () => {
    const page = segmentPage(segmentTag("wkStaging1a2b3c"));
    expect(page.sdkTagKey).toBeNull();
    const [finding] = sdkKey.evaluate(contextOf([page], segmentSpec));
    expect(finding?.status).toBe("pass");
    expect(finding?.message).toBe(
      "The page installs `wkStaging1a2b3c`, seen in the SDK's script URL (https://cdn.segment.com/analytics.js/v1/wkStaging1a2b3c/analytics.min.js), and no other environment's key.",
    );
  });

  test("another environment's write key in the script path fails, naming the script URL", () => {
    const [finding] = sdkKey.evaluate(contextOf([segmentPage(segmentTag("wkProd9z8y7x"))], segmentSpec));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      'On desktop: `wkProd9z8y7x` (environment "production"\'s key) is in the SDK\'s script URL (https://cdn.segment.com/analytics.js/v1/wkProd9z8y7x/analytics.min.js), and environment "staging"\'s key is seen nowhere. Install only environment "staging"\'s key `wkStaging1a2b3c` on this environment\'s pages; never mix keys.',
    );
  });

  test("the own write key in the path and another environment's in the payload fails, naming only the other key's place", () => {
    const page = segmentPage(segmentTag("wkStaging1a2b3c"), [
      { key: "wkProd9z8y7x", where: "collect", detail: "https://api.segment.io/v1/t" },
    ]);
    const [finding] = sdkKey.evaluate(contextOf([page], segmentSpec));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain(
      '`wkProd9z8y7x` (environment "production"\'s key) is in a collect request (https://api.segment.io/v1/t).',
    );
    expect(finding?.message).not.toContain("script URL");
  });

  test("a key in the script URL's query is named with the URL stripped of its query", () => {
    const page = pageWith({
      sdkTagKey: "prj_demo_prod",
      keySightings: [
        {
          key: "prj_demo_prod",
          where: "script-url",
          detail: "http://127.0.0.1:47411/sdk/v1/sdk.js?key=prj_demo_prod&uid=jane%40example.org#x",
        },
      ],
    });
    const [finding] = sdkKey.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      'On desktop: `prj_demo_prod` (environment "production"\'s key) is in the SDK\'s script URL (http://127.0.0.1:47411/sdk/v1/sdk.js), and environment "staging"\'s key is seen nowhere. Install only environment "staging"\'s key `prj_demo_staging` on this environment\'s pages; never mix keys.',
    );
    expect(JSON.stringify(finding)).not.toContain("jane");
  });

  test("the own key in a RudderStack-style Basic header passes, naming the header", () => {
    const page = pageWith({
      sdkTagKey: null,
      keySightings: keysInHeaders({ authorization: basicOf("prj_demo_staging"), "content-type": "application/json" }, [
        "prj_demo_staging",
        "prj_demo_prod",
      ]),
    });
    const [finding] = sdkKey.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("pass");
    expect(finding?.message).toBe(
      "The page installs `prj_demo_staging`, seen in a collect request's header (authorization), and no other environment's key.",
    );
  });

  test("another environment's key in a Basic header fails, naming the header and never its value", () => {
    const page = pageWith({
      keySightings: [
        { key: "prj_demo_staging", where: "script-tag", detail: "data-project-key" },
        ...keysInHeaders({ authorization: basicOf("prj_demo_prod") }, ["prj_demo_staging", "prj_demo_prod"]),
      ],
    });
    const [finding] = sdkKey.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      "On desktop: `prj_demo_prod` (environment \"production\"'s key) is in a collect request's header (authorization). Install only environment \"staging\"'s key `prj_demo_staging` on this environment's pages; never mix keys.",
    );
    expect(JSON.stringify(finding)).not.toContain(basicOf("prj_demo_prod").slice("Basic ".length));
  });

  test("the own key in an init call passes, naming the method", () => {
    const page = pageWith({
      sdkTagKey: null,
      keySightings: [{ key: "prj_demo_staging", where: "init", detail: "mixpanel.init" }],
    });
    const [finding] = sdkKey.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("pass");
    expect(finding?.message).toBe(
      "The page installs `prj_demo_staging`, seen in the SDK's init call (mixpanel.init), and no other environment's key.",
    );
  });

  test("another environment's key in an init call fails, naming the method", () => {
    const page = pageWith({
      sdkTagKey: null,
      keySightings: [
        { key: "prj_demo_prod", where: "init", detail: "mixpanel.init" },
        { key: "prj_demo_prod", where: "collect", detail: "http://127.0.0.1:47411/track/?verbose=1" },
      ],
    });
    const [finding] = sdkKey.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      'On desktop: `prj_demo_prod` (environment "production"\'s key) is in the SDK\'s init call (mixpanel.init), a collect request (http://127.0.0.1:47411/track/), and environment "staging"\'s key is seen nowhere. Install only environment "staging"\'s key `prj_demo_staging` on this environment\'s pages; never mix keys.',
    );
  });

  test("the own key seen in several places passes, naming each place once", () => {
    const page = pageWith({
      sdkTagKey: null,
      keySightings: [
        { key: "prj_demo_staging", where: "init", detail: "expsvc.init" },
        { key: "prj_demo_staging", where: "collect", detail: "http://127.0.0.1:47411/v1/collect?n=1" },
        { key: "prj_demo_staging", where: "collect", detail: "http://127.0.0.1:47411/v1/collect?n=2" },
        { key: "prj_demo_staging", where: "header", detail: "x-project-key" },
      ],
    });
    const [finding] = sdkKey.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("pass");
    expect(finding?.message).toBe(
      "The page installs `prj_demo_staging`, seen in the SDK's init call (expsvc.init), a collect request (http://127.0.0.1:47411/v1/collect), a collect request's header (x-project-key), and no other environment's key.",
    );
  });

  test("another environment's key seen in many collect requests is named once", () => {
    const page = pageWith({
      keySightings: [
        { key: "prj_demo_staging", where: "script-tag", detail: "data-project-key" },
        { key: "prj_demo_prod", where: "collect", detail: "http://127.0.0.1:47411/v1/collect?n=1" },
        { key: "prj_demo_prod", where: "collect", detail: "http://127.0.0.1:47411/v1/collect?n=2" },
      ],
    });
    const [finding] = sdkKey.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.message?.match(/a collect request/g)).toHaveLength(1);
  });
});
