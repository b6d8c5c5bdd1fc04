import { expect } from "@playwright/test";
import type { BrowserContext } from "playwright";
import { decodeBasicAuth, keysInHeaders, keysInScriptUrl, NetworkCapture } from "../../src/gather/network.js";
import {
  isKeyShapedName,
  namesGlobal,
  readSdkTag,
  scriptTagFacts,
  type ScriptTagRead,
} from "../../src/gather/sdk-tag.js";
import { specWith } from "../support/artifacts.js";
import { test } from "../support/gather.js";

/** Where the gatherer sees keys: the script's URL and tag, and collect requests' headers. */

const KEYS = ["wkStaging1a2b3c", "wkProd9z8y7x"];
const basicOf = (user: string, password = "") => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

test.describe("key-shaped names", () => {
  test("a word of the name ending in key or token is key-shaped", () => {
    for (const name of [
      "data-project-key",
      "data-key",
      "data-write-key",
      "data-writekey",
      "apiKey",
      "api_key",
      "key",
      "data-token",
      "accessToken",
      "data-global-segment-analytics-key",
    ]) {
      expect(isKeyShapedName(name), name).toBe(true);
    }
  });

  test("other names are not, even when they contain the letters", () => {
    for (const name of [
      "src",
      "async",
      "type",
      "data-keyboard",
      "integrity",
      "nonce",
      "data-write",
      "data-tokenizer",
    ]) {
      expect(isKeyShapedName(name), name).toBe(false);
    }
  });
});

test.describe("values that name a global", () => {
  test("the SDK's own global names a global, whether or not it was defined yet", () => {
    expect(namesGlobal("analytics", "analytics", false)).toBe(true);
    expect(namesGlobal("analytics", "analytics", true)).toBe(true);
  });

  test("a plain identifier that is a property of window names a global", () => {
    expect(namesGlobal("dataLayer", "analytics", true)).toBe(true);
  });

  test("an identifier that is no property of window, or a value that is no identifier, is a key", () => {
    expect(namesGlobal("prj_demo_staging", "expsvc", false)).toBe(false);
    expect(namesGlobal("wk-123.abc", "analytics", true)).toBe(false);
    expect(namesGlobal("", "analytics", false)).toBe(false);
  });
});

test.describe("keys in the script URL", () => {
  test("a key in the path or the query is a script-url sighting naming the whole URL", () => {
    const path = "https://cdn.segment.com/analytics.js/v1/wkStaging1a2b3c/analytics.min.js";
    expect(keysInScriptUrl(path, KEYS)).toEqual([{ key: "wkStaging1a2b3c", where: "script-url", detail: path }]);
    const query = "https://cdn.example.test/sdk.js?writeKey=wkProd9z8y7x";
    expect(keysInScriptUrl(query, KEYS)).toEqual([{ key: "wkProd9z8y7x", where: "script-url", detail: query }]);
  });

  test("a percent-encoded key is found; a URL without a key gives nothing", () => {
    expect(keysInScriptUrl("https://cdn.example.test/sdk.js?k=key%20one", ["key one"])).toHaveLength(1);
    expect(keysInScriptUrl("https://cdn.example.test/sdk.js", KEYS)).toEqual([]);
    expect(keysInScriptUrl("https://cdn.example.test/%E0%A4%A.js", KEYS)).toEqual([]);
  });
});

test.describe("the script tag's facts", () => {
  const segmentTag: ScriptTagRead = {
    src: "https://cdn.segment.com/analytics.js/v1/wkStaging1a2b3c/analytics.min.js",
    attributes: [
      { name: "type", value: "text/javascript", onWindow: false },
      { name: "data-global-segment-analytics-key", value: "analytics", onWindow: true },
    ],
    query: [],
  };

  test("Segment's tag declares no key: its key-shaped attribute names the global; the write key is in the script URL", () => {
    expect(scriptTagFacts([segmentTag], "analytics", KEYS)).toEqual({
      sdkTagKey: null,
      sightings: [{ key: "wkStaging1a2b3c", where: "script-url", detail: segmentTag.src }],
    });
  });

  test("an attribute naming the SDK's global is no key even before the global exists", () => {
    const tag = {
      ...segmentTag,
      attributes: [{ name: "data-global-segment-analytics-key", value: "analytics", onWindow: false }],
    };
    expect(scriptTagFacts([tag], "analytics", KEYS).sdkTagKey).toBeNull();
  });

  test("a key-shaped attribute holding a key is the tag's key and a script-tag sighting", () => {
    const tag: ScriptTagRead = {
      src: "http://127.0.0.1:47411/sdk/v1/sdk.js",
      attributes: [
        { name: "async", value: "", onWindow: false },
        { name: "data-api-key", value: "dataLayer", onWindow: true },
        { name: "data-project-key", value: "wkProd9z8y7x", onWindow: false },
      ],
      query: [],
    };
    expect(scriptTagFacts([tag], "expsvc", KEYS)).toEqual({
      sdkTagKey: "wkProd9z8y7x",
      sightings: [{ key: "wkProd9z8y7x", where: "script-tag", detail: "data-project-key" }],
    });
  });

  test("a key-shaped query parameter stays the tag's key, and its key is a script-url sighting, not a script-tag one", () => {
    const src = "http://127.0.0.1:47411/sdk/v1/sdk.js?v=2&key=wkStaging1a2b3c";
    const tag: ScriptTagRead = {
      src,
      attributes: [{ name: "async", value: "", onWindow: false }],
      query: [
        { name: "v", value: "2", onWindow: false },
        { name: "key", value: "wkStaging1a2b3c", onWindow: false },
      ],
    };
    expect(scriptTagFacts([tag], "expsvc", KEYS)).toEqual({
      sdkTagKey: "wkStaging1a2b3c",
      sightings: [{ key: "wkStaging1a2b3c", where: "script-url", detail: src }],
    });
  });

  test("a key in an attribute that is not key-shaped is still a sighting, but not the tag's key", () => {
    const tag: ScriptTagRead = {
      src: "http://127.0.0.1:47411/sdk/v1/sdk.js",
      attributes: [{ name: "data-config", value: '{"project":"wkProd9z8y7x"}', onWindow: false }],
      query: [],
    };
    expect(scriptTagFacts([tag], "expsvc", KEYS)).toEqual({
      sdkTagKey: null,
      sightings: [{ key: "wkProd9z8y7x", where: "script-tag", detail: "data-config" }],
    });
  });
});

test.describe("Basic authorization", () => {
  test("decodes RudderStack's `writeKey:` into user and empty password", () => {
    expect(decodeBasicAuth(basicOf("wkStaging1a2b3c"))).toEqual({ user: "wkStaging1a2b3c", password: "" });
    expect(decodeBasicAuth(`basic  ${Buffer.from("user:pa:ss").toString("base64")} `)).toEqual({
      user: "user",
      password: "pa:ss",
    });
    expect(decodeBasicAuth(`Basic ${Buffer.from("no-colon").toString("base64")}`)).toEqual({
      user: "no-colon",
      password: "",
    });
  });

  test("is null for other schemes and for text that is no base64", () => {
    expect(decodeBasicAuth("Bearer wkStaging1a2b3c")).toBeNull();
    expect(decodeBasicAuth("Basic not base64!")).toBeNull();
    expect(decodeBasicAuth("wkStaging1a2b3c")).toBeNull();
  });
});

test.describe("keys in collect headers", () => {
  test("a key in the decoded user or password of a Basic authorization is a header sighting naming the header", () => {
    expect(keysInHeaders({ Authorization: basicOf("wkStaging1a2b3c") }, KEYS)).toEqual([
      { key: "wkStaging1a2b3c", where: "header", detail: "authorization" },
    ]);
    expect(keysInHeaders({ authorization: basicOf("someone", "wkProd9z8y7x") }, KEYS)).toEqual([
      { key: "wkProd9z8y7x", where: "header", detail: "authorization" },
    ]);
  });

  test("a key anywhere in another header's value, or in a non-Basic authorization, is a sighting naming the header, never its value", () => {
    const sightings = keysInHeaders(
      { "x-write-key": "wkProd9z8y7x", authorization: "Bearer wkStaging1a2b3c", "content-type": "application/json" },
      KEYS,
    );
    expect(sightings).toEqual([
      { key: "wkProd9z8y7x", where: "header", detail: "x-write-key" },
      { key: "wkStaging1a2b3c", where: "header", detail: "authorization" },
    ]);
    expect(JSON.stringify(sightings)).not.toContain("Bearer");
  });

  test("the referer is the page's URL, not the SDK's: a key in it is no sighting", () => {
    expect(keysInHeaders({ referer: "https://shop.example.test/?k=wkProd9z8y7x" }, KEYS)).toEqual([]);
  });
});

test.describe("in a browser", () => {
  const SITE = "http://site.key-places.test";
  const CDN = "http://cdn.key-places.test";

  /** Serves `html` as the site's page, any script as an empty one, and answers every other request 200. */
  async function serve(context: BrowserContext, html: string): Promise<void> {
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url === `${SITE}/`) return route.fulfill({ contentType: "text/html", body: html });
      if (url.endsWith(".js")) return route.fulfill({ contentType: "text/javascript", body: "" });
      return route.fulfill({ status: 200, contentType: "application/json", body: "{}" });
    });
  }

  test("the Segment snippet's tag declares no key; its script URL carries the write key", async ({ browser }) => {
    const context = await browser.newContext();
    try {
      await serve(
        context,
        `<!doctype html><script>
          window.analytics = [];
          var t = document.createElement("script");
          t.src = "${CDN}/analytics.js/v1/wkStaging1a2b3c/analytics.min.js";
          t.setAttribute("data-global-segment-analytics-key", "analytics");
          document.head.appendChild(t);
        </script>`,
      );
      const page = await context.newPage();
      await page.goto(`${SITE}/`);
      const facts = await readSdkTag(page, specWith({ sdk: { preset: "segment" } }).sdk, KEYS);
      expect(facts).toEqual({
        sdkTagKey: null,
        sightings: [
          {
            key: "wkStaging1a2b3c",
            where: "script-url",
            detail: `${CDN}/analytics.js/v1/wkStaging1a2b3c/analytics.min.js`,
          },
        ],
      });
    } finally {
      await context.close();
    }
  });

  test("an attribute naming a window global is skipped; the next key-shaped attribute is the tag's key", async ({
    browser,
  }) => {
    const context = await browser.newContext();
    try {
      await serve(
        context,
        `<!doctype html><script>window.dataLayer = [];</script><script async src="${CDN}/sdk/v1/sdk.js" data-api-key="dataLayer" data-project-key="wkProd9z8y7x"></script>`,
      );
      const page = await context.newPage();
      await page.goto(`${SITE}/`);
      const facts = await readSdkTag(page, specWith().sdk, KEYS);
      expect(facts).toEqual({
        sdkTagKey: "wkProd9z8y7x",
        sightings: [{ key: "wkProd9z8y7x", where: "script-tag", detail: "data-project-key" }],
      });
    } finally {
      await context.close();
    }
  });

  test("network capture sees the key in the SDK script's URL and in a RudderStack-style Basic header", async ({
    browser,
  }) => {
    const context = await browser.newContext();
    try {
      const sdk = specWith({ sdk: { preset: "rudderstack", script: "**/rudder-analytics*.js" } }).sdk;
      const capture = new NetworkCapture(
        context,
        sdk,
        KEYS,
        () => 0,
        () => undefined,
      );
      await serve(
        context,
        `<!doctype html><script src="${CDN}/wkProd9z8y7x/rudder-analytics.min.js"></script><script>
          window.sent = fetch("${CDN}/v1/track", { method: "POST", headers: { "content-type": "application/json", authorization: "${basicOf("wkStaging1a2b3c")}" }, body: JSON.stringify({ event: "signup_success" }) }).then((r) => r.status);
        </script>`,
      );
      const page = await context.newPage();
      await page.goto(`${SITE}/`);
      expect(await page.evaluate(() => (window as unknown as { sent: Promise<number> }).sent)).toBe(200);
      await capture.settled();
      expect(capture.keySightings).toEqual([
        { key: "wkProd9z8y7x", where: "script-url", detail: `${CDN}/wkProd9z8y7x/rudder-analytics.min.js` },
        { key: "wkStaging1a2b3c", where: "header", detail: "authorization" },
      ]);
      expect(capture.collect).toHaveLength(1);
    } finally {
      await context.close();
    }
  });

  test("settled() returns within its bound while a collect request is still unanswered", async ({ browser }) => {
    const context = await browser.newContext();
    try {
      const capture = new NetworkCapture(
        context,
        specWith().sdk,
        KEYS,
        () => 0,
        () => undefined,
      );
      let requested!: () => void;
      const seen = new Promise<void>((resolve) => (requested = resolve));
      await context.route("**/*", async (route) => {
        const url = route.request().url();
        if (url === `${SITE}/`)
          return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>hung</title>" });
        requested();
        // The collector never answers.
      });
      const page = await context.newPage();
      await page.goto(`${SITE}/`);
      // The page function starts the request and returns without waiting for it, so this await ends at once.
      await page.evaluate(
        (url) =>
          void fetch(url, { method: "POST", headers: { authorization: "Bearer wkStaging1a2b3c" }, body: "{}" }).catch(
            () => undefined,
          ),
        `${SITE}/v1/collect`,
      );
      await seen;
      await expect.poll(() => capture.collect.length).toBe(1);
      const started = Date.now();
      await capture.settled(300);
      // Held by the unanswered request, it would wait until the test's timeout; 10 s is a bound a loaded machine keeps.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(capture.keySightings).toEqual([{ key: "wkStaging1a2b3c", where: "header", detail: "authorization" }]);
    } finally {
      await context.close();
    }
  });
});

test("a snippet that queues its init call in its stub, out of the recorder's reach, shows the key as its init call, although the SDK takes the call out before replacing the stub", async ({
  gather,
}) => {
  // RudderStack v1.1's snippet: `rudderanalytics = window.rudderanalytics = []`, then `load` pushed
  // through its own reference; the SDK splices the queued load out, then replaces the global.
  const queuedInit = async (context: BrowserContext) => {
    await context.route("**/queued-init", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><script>
          var stub = window.expsvc = [];
          stub.load = function () { stub.push(["load"].concat([].slice.call(arguments))); };
          stub.load("prj_demo_prod", "https://dataplane.invalid");
        </script><script>
          setTimeout(function () { window.expsvc.splice(0, 1); window.expsvc = { track: function () {}, identify: function () {} }; }, 50);
        </script>`,
      }),
    );
  };
  const sdk = { ...specWith().sdk, init: ["load"], deliveryTimeoutMs: 2500 };
  const artifacts = await gather("demo", { path: "/queued-init" }, { sdk }, { prepare: queuedInit });
  expect(artifacts.keySightings).toEqual([{ key: "prj_demo_prod", where: "init", detail: "expsvc.load" }]);
});
