import type { devices as Devices } from "playwright";
import { playwright } from "./playwright.js";

const { devices } = playwright();

/** How a named viewport is emulated. */
export type ViewportDevice = (typeof Devices)[string];

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
