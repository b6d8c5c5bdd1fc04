import type { Page } from "playwright";

/**
 * Resolves once `ms` have passed on the page's own clock: its timers run late when its thread is
 * busy, or its renderer starved on a loaded machine. Settles, never rejects, when the page
 * navigates or closes first: the wait is over either way.
 */
export function waitOnPageClock(page: Page, ms: number): Promise<void> {
  return page.evaluate((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)), ms).catch(() => undefined);
}
