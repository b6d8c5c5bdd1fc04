import { expect, test } from "@playwright/test";
import { urlMatcher } from "../../src/url/glob.js";

test("** crosses folders, * does not, {a,b} picks one", () => {
  expect(urlMatcher("**/sdk/v1/sdk.js")("https://cdn.example.test/sdk/v1/sdk.js")).toBe(true);
  expect(urlMatcher("**/sdk/v1/sdk.js")("https://cdn.example.test/sdk/v1/sdk.json")).toBe(false);
  expect(urlMatcher("https://*.example.test/collect")("https://eu.example.test/collect")).toBe(true);
  expect(urlMatcher("https://*/collect")("https://a.test/b/collect")).toBe(false);
  expect(urlMatcher("**/v1/{collect,batch}")("https://x.test/v1/batch")).toBe(true);
});

test("a query string or hash does not stop a match", () => {
  expect(urlMatcher("**/sdk/v1/sdk.js")("https://cdn.test/sdk/v1/sdk.js?key=prj_1")).toBe(true);
  expect(urlMatcher("**/v1/collect")("https://x.test/v1/collect#x")).toBe(true);
});
