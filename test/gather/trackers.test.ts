import { expect, test } from "@playwright/test";
import { trackerMatcher } from "../../src/gather/trackers.js";

/** The tracker database as the consent watch reads it: known trackers by their real URLs, named with their category. */
const SHOP = "https://shop.example.com/signup";

test("a request to a known advertising, analytics or social tracker is named with its category", async () => {
  const trackerOf = await trackerMatcher(SHOP);
  expect(trackerOf("https://www.facebook.com/tr?id=1234567890&ev=PageView&noscript=1")).toEqual({
    name: "Facebook",
    category: "social",
  });
  expect(trackerOf("https://connect.facebook.net/en_US/fbevents.js")).toEqual({ name: "Facebook", category: "social" });
  expect(trackerOf("https://region1.google-analytics.com/g/collect?v=2&tid=G-1")).toEqual({
    name: "Google Analytics",
    category: "analytics",
  });
  expect(trackerOf("https://bat.bing.com/action/0?ti=1")).toEqual({ name: "Bing Ads", category: "ad" });
  expect(trackerOf("https://cdn.segment.com/analytics.js/v1/wk1/analytics.min.js")).toEqual({
    name: "Segment",
    category: "analytics",
  });
});

test("CDNs, tag managers, consent managers, the page's own hosts and URLs without a host are no tracker", async () => {
  const trackerOf = await trackerMatcher(SHOP);
  for (const url of [
    "https://fonts.googleapis.com/css?family=Roboto",
    "https://cdn.jsdelivr.net/npm/vanilla-cookieconsent@3/dist/cookieconsent.umd.js",
    "https://www.googletagmanager.com/gtm.js?id=GTM-1",
    "https://cdn.cookielaw.org/scripttemplates/otSDKStub.js",
    "https://shop.example.com/api/collect",
    "http://127.0.0.1:47417/api/segment/v1/p",
    "data:image/gif;base64,R0lGODlhAQABAAAAACw=",
    "blob:https://shop.example.com/1",
  ]) {
    expect(trackerOf(url), url).toBeNull();
  }
});

test("a tracker of the page's own company is first-party: no third party", async () => {
  expect(
    (await trackerMatcher("https://www.facebook.com/business"))("https://connect.facebook.net/en_US/fbevents.js"),
  ).toBeNull();
  expect((await trackerMatcher(SHOP))("https://connect.facebook.net/en_US/fbevents.js")).not.toBeNull();
});
