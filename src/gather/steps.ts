import type { Page } from "playwright";
import type { Step } from "../spec/schema.js";
import type { Signal } from "./signal.js";

const STEP_TIMEOUT_MS = 15_000;

/** What a journey needs from the gatherer. */
export interface StepContext {
  baseUrl: string;
  /** True once the page made a call with this event name. */
  hasCall: (name: string) => boolean;
  changed: Signal;
}

/** Walks a journey; returns the first step that failed, or null. */
export async function runSteps(page: Page, steps: readonly Step[], context: StepContext): Promise<{ step: number; message: string } | null> {
  for (const [index, step] of steps.entries()) {
    try {
      await runStep(page, step, context);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
      return { step: index, message: `${describeStep(step)} failed: ${message}` };
    }
  }
  return null;
}

async function runStep(page: Page, step: Step, context: StepContext): Promise<void> {
  if ("fill" in step) {
    await page.locator(step.fill.selector).fill(step.fill.value, { timeout: STEP_TIMEOUT_MS });
  } else if ("click" in step) {
    await page.locator(step.click).click({ timeout: STEP_TIMEOUT_MS });
  } else if ("waitFor" in step) {
    await page.locator(step.waitFor).first().waitFor({ state: "visible", timeout: STEP_TIMEOUT_MS });
  } else if ("goto" in step) {
    await page.goto(new URL(step.goto, context.baseUrl).href, { waitUntil: "load", timeout: STEP_TIMEOUT_MS * 2 });
  } else {
    const seen = await context.changed.waitFor(() => context.hasCall(step.waitForEvent), STEP_TIMEOUT_MS);
    if (!seen) throw new Error(`no call named "${step.waitForEvent}" within ${STEP_TIMEOUT_MS / 1000} s`);
  }
}

/** A step in words, for messages: `click "#submit"`. */
export function describeStep(step: Step): string {
  if ("fill" in step) return `fill "${step.fill.selector}"`;
  if ("click" in step) return `click "${step.click}"`;
  if ("waitFor" in step) return `waitFor "${step.waitFor}"`;
  if ("goto" in step) return `goto "${step.goto}"`;
  return `waitForEvent "${step.waitForEvent}"`;
}
