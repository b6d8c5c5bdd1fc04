import { createRequire } from "node:module";
import type * as PlaywrightTest from "@playwright/test";
import type * as Playwright from "playwright";

/**
 * Playwright and its test runner, loaded with `require` as the CommonJS packages they are: the
 * one place the audit loads them. An ESM `import` of them has Node read their bundles' source for
 * the names they export first (its CommonJS lexer, following their re-exports into megabytes of
 * code): about a third of a second of CPU in each process that loads them, and an audit has four
 * (the CLI, the runner and two workers). The types come from the packages themselves.
 */
const load = createRequire(import.meta.url);

/** Playwright's library: the browser the audit launches. */
export const playwright = (): typeof Playwright => load("playwright") as typeof Playwright;

/** The version of the audit's own Playwright (package.json pins it), read without loading Playwright. */
export const PLAYWRIGHT_VERSION = (load("playwright/package.json") as { version: string }).version;

/** Playwright Test: the runner's `test` and `defineConfig` for the audit's gathering and its configuration. */
export const playwrightTest = (): typeof PlaywrightTest => load("@playwright/test") as typeof PlaywrightTest;
