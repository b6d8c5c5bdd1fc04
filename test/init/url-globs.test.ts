import { expect, test } from "@playwright/test";
import { urlMatcher } from "../../src/url/glob.js";
import { pathGlob, urlsGlob } from "../../src/init/url-globs.js";

/** Globs init writes from the URLs a page requested: the path as seen, its changing parts as `*`. */

test("a script URL becomes its path under any host", () => {
  expect(pathGlob("http://127.0.0.1:47411/sdk/v1/sdk.js")).toBe("**/sdk/v1/sdk.js");
  expect(
    urlMatcher(pathGlob("http://127.0.0.1:47411/sdk/v1/sdk.js"))("https://cdn.example.test/sdk/v1/sdk.js?v=3"),
  ).toBe(true);
});

test("an encoded path stays encoded, as the glob is matched against the URL as requested", () => {
  const url = "https://cdn.example.test/my%20sdk/%7Bbuild%7D.js";
  expect(pathGlob(url)).toBe("**/my%20sdk/%7Bbuild%7D.js");
  expect(urlMatcher(pathGlob(url))(url)).toBe(true);
});

test("the key, content hashes and versions in a path become *", () => {
  expect(pathGlob("https://cdn.example.test/analytics.js/v1/wk_staging_1/analytics.min.js", ["wk_staging_1"])).toBe(
    "**/analytics.js/v1/*/analytics.min.js",
  );
  expect(pathGlob("https://cdn.example.test/v1/HFbafRl2KfWk7bTOoPX6WvY8AxSgNTG2/analytics.min.js")).toBe(
    "**/v1/*/analytics.min.js",
  );
  expect(pathGlob("https://example.test/assets/app.3f9a1c2b.js")).toBe("**/assets/app.*.js");
  expect(pathGlob("https://example.test/sdk/2.4.1/sdk.js")).toBe("**/sdk/*/sdk.js");
});

test("several collect URLs become one glob that matches each", () => {
  const urls = [
    "https://api.example.test/track/?verbose=1",
    "https://api.example.test/engage/?verbose=1",
    "https://api.example.test/track/",
  ];
  const glob = urlsGlob(urls);
  expect(glob).toBe("**{/track/,/engage/}");
  for (const url of urls) expect(urlMatcher(glob)(url)).toBe(true);
  expect(urlMatcher(glob)("https://api.example.test/decide/")).toBe(false);
  expect(urlsGlob(["http://127.0.0.1:47411/v1/collect"])).toBe("**/v1/collect");
});
