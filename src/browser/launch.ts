import { existsSync } from "node:fs";
import { PLAYWRIGHT_VERSION, playwright } from "./playwright.js";

/**
 * The features Playwright 1.65 turns off in Chromium (its chromiumSwitches.ts). Chromium reads
 * only the last `--disable-features` on its command line, so the audit's own must repeat them;
 * package.json pins Playwright to that version, and test/browser/launch.test.ts holds the two together.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/**
 * Chrome's full headless build, the one the audit runs, gives every page a window with an address
 * bar, and preloads that bar's two popups (chrome://omnibox-popup.top-chrome/) in renderer
 * processes of their own: a fifth of an audit's browser CPU, for popups no one opens.
 */
const OMNIBOX_POPUPS = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"];

/**
 * Chromium keeps a spare renderer process ready for a page's next navigation to another site, for
 * that page's browser context alone. The audit gives every page a context of its own and closes it
 * with the page, so nearly every spare is started for nothing: a seventh of the demo audit's CPU.
 */
const SPARE_RENDERER = ["SpareRendererForSitePerProcess"];

/** Launch arguments that keep Chromium quiet, lean and working on locked-down CI machines. */
export const LAUNCH_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUPS, ...SPARE_RENDERER].join(",")}`,
];

/** Environment variable naming a Chromium (or Chrome) executable to use instead of Playwright's own. */
export const BROWSER_ENV = "SETUP_AUDIT_BROWSER";

/**
 * The command that installs the Chromium of the audit's own Playwright. A project with a Playwright
 * of another version keeps its own beside it, and a bare `npx playwright install chromium` would
 * install that version's Chromium, which the audit's Playwright does not look for.
 */
export const INSTALL_CHROMIUM = `npx playwright@${PLAYWRIGHT_VERSION} install chromium`;

/** Where system browsers usually live, in order of preference. */
const SYSTEM_BROWSERS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
];

/** The browser a run will use. */
export type BrowserChoice =
  | { found: true; executablePath: string | null; description: string }
  | { found: false; problem: string };

/**
 * Finds a browser: the one SETUP_AUDIT_BROWSER names, then Playwright's own Chromium, then a
 * system Chromium or Chrome. `executablePath` null means Playwright's own.
 */
export function findBrowser(env: NodeJS.ProcessEnv = process.env): BrowserChoice {
  const named = env[BROWSER_ENV];
  if (named) {
    return existsSync(named)
      ? { found: true, executablePath: named, description: named }
      : { found: false, problem: `${BROWSER_ENV} names ${named}, which does not exist` };
  }
  if (existsSync(playwright().chromium.executablePath())) {
    return { found: true, executablePath: null, description: "Playwright's Chromium" };
  }
  const system = SYSTEM_BROWSERS.find((path) => existsSync(path));
  if (system) return { found: true, executablePath: system, description: system };
  return { found: false, problem: "no Chromium found" };
}
