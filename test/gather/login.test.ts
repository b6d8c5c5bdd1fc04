import { expect } from "@playwright/test";
import type { BrowserContext } from "playwright";
import { walkLogin, type LoginSpec } from "../../src/gather/login.js";
import { loginFailure } from "../../src/artifacts/site-entry.js";
import { test } from "../support/browser.js";

/**
 * The login journey in a real Chromium, on a made-up site and single sign-on host answered by
 * routes: shop.test/login sends the visitor on to sso.test, whose button returns to the account page.
 */

const TAGS = { header: null, domain: "shop.test", originHeaders: null };

async function siteWithSso(context: BrowserContext): Promise<void> {
  await context.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    const html = (body: string) =>
      route.fulfill({ contentType: "text/html", body: `<!doctype html><title>t</title>${body}` });
    if (url.host === "shop.test" && url.pathname === "/login")
      return html('<script>location.replace("http://sso.test/authorize")</script>');
    if (url.host === "sso.test")
      return html('<input id="password" type="password"><a id="continue" href="http://shop.test/account">Continue</a>');
    if (url.host === "shop.test" && url.pathname === "/account") return html('<p id="account-menu">Signed in</p>');
    return html("<p>Sign in first</p>");
  });
}

const login = (
  hosts: string[],
  steps: LoginSpec["steps"] = [
    { fill: { selector: "#password", value: "typed" } },
    { click: "#continue" },
    { waitFor: "#account-menu" },
  ],
): LoginSpec => ({ path: "/login", hosts, steps });

test("a login that passes through a sign-on host it lists gets in, and ends where the site sent it", async ({
  browser,
}) => {
  const context = await browser.newContext();
  await siteWithSso(context);
  const outcome = await walkLogin(context, {
    baseUrl: "http://shop.test",
    siteDomain: "shop.test",
    login: login(["sso.test"]),
    tags: TAGS,
    browserTagger: null,
  });
  await context.close();
  expect(outcome).toEqual({
    requestedUrl: "http://shop.test/login",
    documentStatus: 200,
    loadError: null,
    stepError: null,
    blockedHost: null,
    finalUrl: "http://shop.test/account",
  });
  expect(loginFailure(outcome)).toBeNull();
});

test("a login sent to a host it does not list is stopped before that host answers, so no step types into it", async ({
  browser,
}) => {
  const context = await browser.newContext();
  await siteWithSso(context);
  const answeredBy: string[] = [];
  context.on("response", (response) => answeredBy.push(new URL(response.url()).host));
  const outcome = await walkLogin(context, {
    baseUrl: "http://shop.test",
    siteDomain: "shop.test",
    login: login([]),
    tags: TAGS,
    browserTagger: null,
    stepTimeoutMs: 1000,
  });
  await context.close();
  expect(outcome.blockedHost).toBe("sso.test");
  expect(outcome.finalUrl).not.toContain("sso.test");
  expect(loginFailure(outcome)).toEqual({ kind: "blocked", host: "sso.test" });
  expect(answeredBy).not.toContain("sso.test");
  expect(answeredBy).toContain("shop.test");
});

test("a login whose steps leave it on the login's path did not get in", async ({ browser }) => {
  const context = await browser.newContext();
  await context.route("**/*", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: '<!doctype html><title>t</title><input id="password" type="password"><button id="go">Sign in</button>',
    }),
  );
  const outcome = await walkLogin(context, {
    baseUrl: "http://shop.test",
    siteDomain: "shop.test",
    login: login([], [{ fill: { selector: "#password", value: "wrong" } }, { click: "#go" }]),
    tags: TAGS,
    browserTagger: null,
  });
  await context.close();
  expect(outcome).toMatchObject({ stepError: null, blockedHost: null, finalUrl: "http://shop.test/login" });
  expect(loginFailure(outcome)).toEqual({ kind: "stayed", url: "http://shop.test/login" });
});
