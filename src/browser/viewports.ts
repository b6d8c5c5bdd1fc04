import { readFileSync } from "node:fs";
import type { devices as Devices } from "playwright";
import { playwright } from "./playwright.js";

/** How a named viewport is emulated: one of Playwright's device descriptors. */
export type ViewportDevice = (typeof Devices)[string];

/**
 * Playwright's device descriptors, written down by `npm run generate` from the Playwright that
 * package.json pins, so that a command never loads Playwright's half-second bundle only to know a
 * viewport: `validate` never loads it. The build copies the file beside this module; a test fails while it differs from Playwright's.
 */
export const DEVICES_FILE = "src/browser/devices.json";

const devices = JSON.parse(readFileSync(new URL("./devices.json", import.meta.url), "utf8")) as Record<
  string,
  ViewportDevice
>;

const ALIASES: Record<string, string> = { desktop: "Desktop Chrome", mobile: "Pixel 7" };

/** The Playwright device behind a viewport name: `desktop`, `mobile`, or any Playwright device name. */
export function deviceFor(viewport: string): ViewportDevice | undefined {
  return devices[ALIASES[viewport] ?? viewport];
}

/** True when the viewport emulates a phone or tablet. */
export function isMobileViewport(viewport: string): boolean {
  return deviceFor(viewport)?.isMobile ?? false;
}

/** Every name a spec may use in `viewports`. */
export function knownViewports(): string[] {
  return [...Object.keys(ALIASES), ...Object.keys(devices)];
}

/** DEVICES_FILE's text, from the devices of the Playwright installed. */
export function playwrightDevicesText(): string {
  return `${JSON.stringify(playwright().devices, null, 2)}\n`;
}
