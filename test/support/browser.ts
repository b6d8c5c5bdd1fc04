import { findBrowser } from "../../src/browser.js";

/** The executable the suite drives: the one the audit itself finds (undefined for Playwright's own Chromium). */
export function testBrowserPath(): string | undefined {
  const choice = findBrowser();
  if (!choice.found) throw new Error(`No browser for the tests: ${choice.problem}. Run \`npm run install-browser\`.`);
  return choice.executablePath ?? undefined;
}
