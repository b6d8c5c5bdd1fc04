import type { Frame, Page } from "playwright";

/**
 * Resolves once `ms` have passed on the page's own clock, or a frame's (a cross-origin frame may
 * run in a renderer of its own): its timers run late when its thread is busy, or its renderer
 * starved on a loaded machine. Settles, never rejects, when the page navigates or closes, or the
 * frame is detached, first: the wait is over either way.
 */
export function waitOnPageClock(page: Page | Frame, ms: number): Promise<void> {
  return page.evaluate((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)), ms).catch(() => undefined);
}
