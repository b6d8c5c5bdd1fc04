import { expect, test } from "@playwright/test";
import { urlStepMatcher } from "../../src/gather/steps.js";

test("waitForUrl matches its glob against the path, a query or fragment after it allowed, or the whole URL when the glob has a scheme", () => {
  const pricing = urlStepMatcher("**/pricing");
  expect(
    [
      "http://127.0.0.1:1/app/pricing",
      "http://127.0.0.1:1/app/pricing?plan=pro#faq",
      "http://127.0.0.1:1/app/pricing/more",
    ].map((url) => pricing(new URL(url))),
  ).toEqual([true, true, false]);
  const whole = urlStepMatcher("http://127.0.0.1:*/app/*");
  expect([whole(new URL("http://127.0.0.1:1/app/about")), whole(new URL("http://localhost:1/app/about"))]).toEqual([
    true,
    false,
  ]);
});

test("waitForUrl's globs match a hash router's route as they match a path", () => {
  const url = new URL("http://127.0.0.1:1/app/#/pricing?billing=annual");
  expect([
    urlStepMatcher("**/pricing")(url),
    urlStepMatcher("**#/pricing")(url),
    urlStepMatcher("**/about")(url),
  ]).toEqual([true, true, false]);
});
