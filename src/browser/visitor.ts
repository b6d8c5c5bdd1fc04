import type { BrowserContext, LaunchOptions } from "playwright";
import { LAUNCH_ARGS } from "./launch.js";

/**
 * The audit's browser presents itself as a visitor's, on every run and in `init`, with or without
 * `consent`: `navigator.webdriver` false, and the device's own user agent (no "Headless"; the
 * context's options set it, with the audit's suffix: gather/traffic.ts). SDKs that drop automated
 * traffic (PostHog's default bot filter reads `navigator.webdriver`) would otherwise drop the
 * audit's calls, and consent managers that hide their banner from automated browsers hide it.
 */

/** Chromium's own switch for it: `navigator.webdriver` false, natively, in every frame. */
export const VISITOR_ARGS = ["--disable-blink-features=AutomationControlled"];

/** How the audit launches its browser: the run's gather phase and init's look at a site. */
export function auditLaunchOptions(executablePath: string | null): LaunchOptions {
  return { executablePath: executablePath ?? undefined, args: [...LAUNCH_ARGS, ...VISITOR_ARGS] };
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
