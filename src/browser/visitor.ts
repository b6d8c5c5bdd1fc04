import type { BrowserContext, LaunchOptions } from "playwright";
import { LAUNCH_ARGS } from "./launch.js";

/**
 * The audit's browser presents itself as a visitor's, on every run and in `init`, with or without
 * `consent`: `navigator.webdriver` false, and the device's own user agent (no "Headless"; the
 * context's options set it, with the audit's suffix: gather/traffic.ts) at the browser's own
 * version, so that it agrees with the client hints (`navigator.userAgentData`, the Sec-CH-UA
 * headers), which name the browser as it is. SDKs that drop automated traffic (PostHog's default
 * bot filter reads `navigator.webdriver`) would otherwise drop the audit's calls, bot filters that
 * compare the user agent with the client hints would take it for a bot, and consent managers that
 * hide their banner from automated browsers hide it.
 */

/** Chromium's own switch for it: `navigator.webdriver` false, natively, in every frame. */
export const VISITOR_ARGS = ["--disable-blink-features=AutomationControlled"];

/**
 * How the audit launches its browser: the run's gather phase and init's look at a site. Playwright's
 * own Chromium (`executablePath` null) is its full build, headless as Chrome is: without the
 * `chromium` channel Playwright would run its headless shell instead, whose client hints name a
 * "HeadlessChrome" whatever the user agent says.
 */
export function auditLaunchOptions(executablePath: string | null): LaunchOptions {
  const args = [...LAUNCH_ARGS, ...VISITOR_ARGS];
  return executablePath === null ? { channel: "chromium", args } : { executablePath, args };
}

/**
 * A device's user agent as the browser of `browserVersion` (Chromium's full version, as
 * `Browser.version()` gives it) sends it: its Chrome version that browser's major, the rest zeroed
 * as Chrome's own user agent has them. The client hints name the browser's real version whatever
 * the user agent says, where a device descriptor carries a fixed one. A user agent without a
 * Chrome version (a Safari device's) is left as it is.
 */
export function visitorUserAgent(deviceUserAgent: string, browserVersion: string): string {
  const major = browserVersion.split(".")[0];
  return deviceUserAgent.replace(/\bChrome\/[\d.]+/, `Chrome/${major}.0.0.0`);
}

/**
 * What a context of a browser the audit did not launch (a browser server, whose arguments are its
 * owner's) can still set: `navigator.webdriver` false, by a script that runs before the page's in
 * every frame. What it cannot: the value then comes from a getter of the audit's, which a script
 * that inspects the property can tell from the browser's own.
 */
export async function presentAsVisitor(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    if (navigator.webdriver)
      Object.defineProperty(Navigator.prototype, "webdriver", {
        get: () => false,
        configurable: true,
        enumerable: true,
      });
  });
}
