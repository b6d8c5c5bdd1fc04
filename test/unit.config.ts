import { join } from "node:path";
import { tmpdir } from "node:os";
import { defineConfig } from "@playwright/test";
import { BROWSER_ENV } from "../src/browser/launch.js";
import suite, { UNIT_PROJECT } from "./playwright.config.js";

/**
 * `npm run test:unit`: the browser-free tier alone, without the fixtures the suite's global setup
 * starts. Neither the audit's browser finder nor Playwright's own Chromium can find a browser
 * here (the workers inherit these variables), so a test of this tier that starts one fails
 * instead of slowing the tier down: move it to INTEGRATION_TESTS in playwright.config.ts.
 */
const NOWHERE = join(tmpdir(), "setup-audit-unit-tier-has-no-browser");
process.env[BROWSER_ENV] = NOWHERE;
process.env.PLAYWRIGHT_BROWSERS_PATH = NOWHERE;

const { globalSetup: _fixtures, projects: _all, ...shared } = suite;

export default defineConfig({ ...shared, projects: [UNIT_PROJECT] });
