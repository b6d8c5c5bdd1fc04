import { expect, test } from "@playwright/test";
import { devices } from "playwright";
import { auditLaunchOptions, VISITOR_ARGS, visitorUserAgent } from "../../src/browser/visitor.js";

/**
 * How the audit's browser is launched and which user agent its contexts get (the browser itself:
 * test/browser/visitor.test.ts).
 */

test("Playwright's own Chromium is launched as its full build (the chromium channel), not the headless shell; a named browser as it is, both as a visitor's", () => {
  const own = auditLaunchOptions(null);
  expect(own).toMatchObject({ channel: "chromium" });
  expect(own.executablePath).toBeUndefined();
  const named = auditLaunchOptions("/usr/bin/chromium");
  expect(named).toMatchObject({ executablePath: "/usr/bin/chromium" });
  expect(named.channel).toBeUndefined();
  for (const options of [own, named]) expect(options.args).toEqual(expect.arrayContaining(VISITOR_ARGS));
});

test("a device's user agent names the browser's own major version, the rest of it the device's; one without a Chrome version stays as it is", () => {
  for (const name of ["Desktop Chrome", "Pixel 7", "Galaxy S9+"]) {
    const { userAgent } = devices[name]!;
    const [before, after] = userAgent.split(/Chrome\/[\d.]+/);
    expect(visitorUserAgent(userAgent, "156.0.8078.114"), name).toBe(`${before}Chrome/156.0.0.0${after}`);
  }
  const safari = devices["iPhone 13"]!.userAgent;
  expect(visitorUserAgent(safari, "156.0.8078.114")).toBe(safari);
});
