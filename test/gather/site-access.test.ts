import { expect } from "@playwright/test";
import { accessContextOptions, addSiteCookies, originHeaders, siteCredentials } from "../../src/gather/site-access.js";
import { test } from "../support/browser.js";

const AUTH = {
  basic: { usernameEnv: "STAGING_USER", passwordEnv: "STAGING_PASSWORD" },
  headers: { "X-Preview-Token": "PREVIEW_TOKEN" },
  cookies: [{ name: "preview", valueEnv: "PREVIEW_COOKIE" }],
};
const ENV = { STAGING_USER: "qa", STAGING_PASSWORD: "pw-1", PREVIEW_TOKEN: "tok-1", PREVIEW_COOKIE: "cookie-1" };

test("a closed site's credentials are read from their variables and bound to the base URL's origin", () => {
  const credentials = siteCredentials(AUTH, "https://staging.shop.test:8443/pricing", ENV);
  expect(credentials).toEqual({
    origin: "https://staging.shop.test:8443",
    basic: { username: "qa", password: "pw-1" },
    headers: [{ name: "X-Preview-Token", value: "tok-1" }],
    cookies: [{ name: "preview", value: "cookie-1" }],
  });
  expect(accessContextOptions(credentials, "/tmp/state.json")).toEqual({
    httpCredentials: { username: "qa", password: "pw-1", origin: "https://staging.shop.test:8443" },
    storageState: "/tmp/state.json",
  });
  expect(originHeaders(credentials)).toEqual({
    origin: "https://staging.shop.test:8443",
    headers: [{ name: "X-Preview-Token", value: "tok-1" }],
  });
  expect(siteCredentials(undefined, "https://shop.test", ENV)).toBeNull();
  expect(accessContextOptions(null, null)).toEqual({});
});

test("a closed site's cookies are host-only: its subdomains never get them", async ({ browser }) => {
  const context = await browser.newContext();
  const sent: Record<string, string> = {};
  await context.route("**/*", (route) => {
    const request = route.request();
    sent[new URL(request.url()).host] = request.headers().cookie ?? "";
    return route.fulfill({ contentType: "text/html", body: '<img src="http://cdn.shop.test/a.gif">' });
  });
  await addSiteCookies(context, siteCredentials({ cookies: AUTH.cookies }, "http://shop.test", ENV));
  const page = await context.newPage();
  await page.goto("http://shop.test/");
  await expect.poll(() => Object.keys(sent).sort()).toEqual(["cdn.shop.test", "shop.test"]);
  await context.close();
  expect(sent).toEqual({ "shop.test": "preview=cookie-1", "cdn.shop.test": "" });
});
