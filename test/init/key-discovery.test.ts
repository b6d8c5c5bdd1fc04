import { gzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { chooseKey, isKeyLike, keyCandidates } from "../../src/init/key-discovery.js";
import { isKeyToken } from "../../src/text/key-token.js";
import { PRESETS } from "../../src/vendors/presets.js";
import { pageWith } from "../support/artifacts.js";
import { globalWith, lookWith, requestWith } from "../support/first-look.js";

/** Finding the installed key: candidates from the first look, then the key seen most widely by the gatherer. */

const SDK = {
  scriptUrls: ["https://cdn.example.test/sdk/v1/sdk.js"],
  global: "expsvc",
  tagKey: null,
  init: [],
  scriptKey: null,
};
const basicOf = (user: string) => `Basic ${Buffer.from(`${user}:`).toString("base64")}`;

test("a key is one word of 6 to 128 letters, digits, _ or -, not a plain word or a number", () => {
  for (const key of [
    "prj_demo_staging",
    "HFbafRl2KfWk7bTOoPX6WvY8AxSgNTG2",
    "c312b2620cce3093791fba3942d542d7",
    "phc_3YN8xu0R7e0",
  ])
    expect(isKeyLike(key), key).toBe(true);
  for (const value of ["analytics", "short", "123456789", "has space_1", "https://x.test/a_1", ""])
    expect(isKeyLike(value), value).toBe(false);
});

test("candidates come from the tag, the script's path, the global, request queries, payloads and Basic or Bearer auth, most telling first", () => {
  const look = lookWith({
    globals: [
      globalWith({
        name: "expsvc",
        keyProperties: [
          { name: "expsvc._writeKey", value: "wk_global_1" },
          { name: "expsvc.user.anonKey", value: "ajs_anonymous_id" },
        ],
      }),
      globalWith({
        name: "analyticsWriteKey",
        type: "string",
        keyProperties: [{ name: "analyticsWriteKey", value: "wk_string_2" }],
      }),
      globalWith({ name: "other", keyProperties: [{ name: "other.token", value: "tok_other_3" }] }),
    ],
    requests: [
      requestWith("https://shop.example.test/", "document", { headers: { "x-api-key": "doc_key_0" } }),
      requestWith("https://cdn.example.test/sdk/v1/HFbafRl2KfWk7bTOoPX6WvY8AxSgNTG2/settings", "fetch"),
      requestWith("https://cfg.example.test/sourceConfig/?writeKey=wk_query_4&v=1_2_3", "xhr"),
      requestWith("https://api.example.test/v1/track", "xhr", {
        method: "POST",
        headers: { authorization: basicOf("wk_basic_5") },
      }),
      requestWith("https://api.example.test/v2/track", "xhr", {
        method: "POST",
        headers: { authorization: "Bearer wk_bearer_5b" },
      }),
      requestWith("https://api.example.test/e/", "fetch", {
        method: "POST",
        body: gzipSync(
          JSON.stringify({
            api_key: "phc_payload_6",
            batch: [{ event: "x", properties: { token: "tok_nested_7", distinct_id: "user_1234" } }],
          }),
        ),
      }),
    ],
  });
  expect(keyCandidates(look, { ...SDK, tagKey: "prj_tag_0" })).toEqual([
    "prj_tag_0",
    "wk_global_1",
    "wk_string_2",
    "HFbafRl2KfWk7bTOoPX6WvY8AxSgNTG2",
    "wk_query_4",
    "wk_basic_5",
    "wk_bearer_5b",
    "phc_payload_6",
    "tok_nested_7",
  ]);
});

test("where an SDK keeps its key, any token is one, without a digit too; a number or a lower-case word is not", () => {
  for (const key of ["YOUR_WRITE_KEY", "HFbafRlKfWkbTOoPXWvYAxSgNTGqzLmp", "wk_live_42"])
    expect(isKeyToken(key), key).toBe(true);
  for (const value of ["analytics", "1234567", "has space", "https://x.test/a", "short"])
    expect(isKeyToken(value), value).toBe(false);
});

test("Segment's snippet: the write key comes from its place in the script URL and from analytics.load in the inline snippet, whatever its shape", () => {
  const key = "HFbafRlKfWkbTOoPXWvYAxSgNTGqzLmp";
  const script = `https://cdn.segment.com/analytics.js/v1/${key}/analytics.min.js`;
  const segment = {
    scriptUrls: [script],
    global: "analytics",
    tagKey: null,
    init: PRESETS.segment.init,
    scriptKey: PRESETS.segment.scriptKey,
  };
  expect(keyCandidates(lookWith({ requests: [requestWith(script)] }), segment)).toEqual([key]);
  const snippet = `!function(){var analytics=window.analytics=window.analytics||[];analytics._writeKey="YOUR_WRITE_KEY";analytics.load("YOUR_WRITE_KEY");analytics.page();}();`;
  expect(
    keyCandidates(lookWith({ inlineScripts: ["console.log('hi')", snippet] }), { ...segment, scriptUrls: [] }),
  ).toEqual(["YOUR_WRITE_KEY"]);
  // Not a key's place: the same value in a path segment of another SDK's script, or a call of another method.
  expect(
    keyCandidates(lookWith({ inlineScripts: ['analytics.page("YOUR_WRITE_KEY")'] }), {
      ...segment,
      scriptUrls: [`https://cdn.example.test/v1/${key}/sdk.js`],
      scriptKey: null,
    }),
  ).toEqual([]);
});

test("a value under a key-shaped name in a payload is a candidate whatever its shape", () => {
  const body = JSON.stringify({ type: "page", writeKey: "HFbafRlKfWkbTOoPXWvYAxSgNTGqzLmp", anonymousId: "0b6c2c9e" });
  expect(
    keyCandidates(
      lookWith({
        requests: [requestWith("https://api.example.test/v1/p", "fetch", { method: "POST", body: Buffer.from(body) })],
      }),
      SDK,
    ),
  ).toEqual(["HFbafRlKfWkbTOoPXWvYAxSgNTGqzLmp"]);
});

test("the SDK's own global name is no candidate, and neither is a setting without a digit", () => {
  const look = lookWith({
    globals: [globalWith({ name: "expsvc", keyProperties: [{ name: "expsvc.storageKey", value: "expsvc_storage" }] })],
  });
  expect(keyCandidates(look, { ...SDK, tagKey: "expsvc" })).toEqual([]);
});

test("the installed key is the one seen on the most page × viewports, then in the most kinds of places", () => {
  const pages = [
    pageWith({
      page: "home",
      viewport: "desktop",
      sdkTagKey: "prj_a",
      keySightings: [{ key: "prj_a", where: "collect", detail: "https://api.example.test/v1/collect" }],
    }),
    pageWith({ page: "home", viewport: "mobile", sdkTagKey: "prj_a", keySightings: [] }),
    pageWith({
      page: "other",
      viewport: "desktop",
      sdkTagKey: "prj_b",
      keySightings: [{ key: "prj_b", where: "script-tag", detail: "data-project-key" }],
    }),
    pageWith({ page: "broken", viewport: "desktop", loadError: "HTTP 500", sdkTagKey: null, keySightings: [] }),
  ];
  const choice = chooseKey(pages);
  expect(choice.installed?.key).toBe("prj_a");
  expect(choice.installed?.units).toEqual(["home · desktop", "home · mobile"]);
  expect(choice.others.map((other) => [other.key, other.units])).toEqual([["prj_b", ["other · desktop"]]]);
  expect(choice.loadedUnits).toBe(3);
});

test("a value seen only among the SDK global's properties is a setting, not a key", () => {
  const pages = [
    pageWith({
      sdkTagKey: null,
      keySightings: [
        { key: "wk_init_1", where: "init", detail: "expsvc.init" },
        { key: "cookie_name_2", where: "sdk-global", detail: "expsvc.cookie.name" },
      ],
    }),
  ];
  const choice = chooseKey(pages);
  expect(choice.installed?.key).toBe("wk_init_1");
  expect(choice.others).toEqual([]);
});

test("an init call's first string counts as a key when it is a token, with or without a digit", () => {
  const init = (key: string) => ({ key, where: "init" as const, detail: "shopsdk.load" });
  const pages = [
    pageWith({ sdkTagKey: null, keySightings: [init("https://cdn.example.test/config.json"), init("YOUR_WRITE_KEY")] }),
    pageWith({
      viewport: "mobile",
      sdkTagKey: null,
      keySightings: [init("https://cdn.example.test/config.json"), init("default")],
    }),
  ];
  expect(chooseKey(pages).installed?.key).toBe("YOUR_WRITE_KEY");
  expect(chooseKey(pages).others).toEqual([]);
});

test("no key seen anywhere gives none", () => {
  expect(chooseKey([pageWith({ sdkTagKey: null, keySightings: [] })]).installed).toBeNull();
});
