import { expect, test } from "@playwright/test";
import { routeKey, routeOf } from "../../src/url/route.js";

test("a route is the document's path and query; an anchor is no part of it", () => {
  expect(routeOf("http://app.test/app/pricing?billing=annual")).toBe("/app/pricing?billing=annual");
  expect(routeOf("http://app.test/app/pricing?billing=annual#faq")).toBe("/app/pricing?billing=annual");
  expect(routeOf("http://app.test/docs/#section-2")).toBe("/docs/");
  expect(routeOf("not a url")).toBe("not a url");
});

test("a hash router's route (#/ or #!/) follows the document's path and query; its own anchor is no part of it", () => {
  expect(routeOf("http://app.test/app/#/pricing")).toBe("/app/#/pricing");
  expect(routeOf("http://app.test/app/?lang=en#/shop?color=red")).toBe("/app/?lang=en#/shop?color=red");
  expect(routeOf("http://app.test/#!/about")).toBe("/#!/about");
  expect(routeOf("http://app.test/app/#/about#team")).toBe("/app/#/about");
  expect(routeOf("http://app.test/app/#/")).toBe("/app/#/");
});

test("with routeQuery ignore, routes that differ by their queries alone are one route", () => {
  expect(routeKey("/shop?color=red&page=2", "ignore")).toBe("/shop");
  expect(routeKey("/app/?lang=en#/shop?color=red", "ignore")).toBe("/app/#/shop");
  expect(routeKey("/shop?color=red", "keep")).toBe("/shop?color=red");
});
