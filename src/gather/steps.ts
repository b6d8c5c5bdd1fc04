import type { Page } from "playwright";
import { typedText } from "../privacy/secrets.js";
import type { Step } from "../spec/schema.js";
import { describeStep } from "../spec/steps.js";
import { firstLine } from "../text/wording.js";
import type { Signal } from "./signal.js";

/** What a journey needs from the gatherer. */
export interface StepContext {
  baseUrl: string;
  /** How long one step may take. */
  timeoutMs: number;
  /** True once the page made a call with this event name. */
  hasCall: (name: string) => boolean;
  changed: Signal;
  /** On a unit without consent (a refusal, GPC): a waitForEvent step waits at most this long and never fails, since no call may come. */
  eventWaitMs?: number;
}

/** Walks a journey; returns the first step that failed, or null. */
export async function runSteps(page: Page, steps: readonly Step[], context: StepContext): Promise<{ step: number; message: string } | null> {
  for (const [index, step] of steps.entries()) {
    try {
      await runStep(page, step, context);
    } catch (error) {
      const message = firstLine(error);
      return { step: index, message: `${describeStep(step)} failed: ${message}` };
    }
  }
  return null;
}

async function runStep(page: Page, step: Step, context: StepContext): Promise<void> {
  const timeout = context.timeoutMs;
  if ("fill" in step) {
    await page.locator(step.fill.selector).fill(typedText(step.fill, process.env), { timeout });
  } else if ("click" in step) {
    await page.locator(step.click).click({ timeout });
  } else if ("waitFor" in step) {
    await page.locator(step.waitFor).first().waitFor({ state: "visible", timeout });
  } else if ("goto" in step) {
    await page.goto(new URL(step.goto, context.baseUrl).href, { waitUntil: "load", timeout: timeout * 2 });
  } else if (context.eventWaitMs !== undefined) {
    await context.changed.waitFor(() => context.hasCall(step.waitForEvent), context.eventWaitMs);
  } else {
    const seen = await context.changed.waitFor(() => context.hasCall(step.waitForEvent), timeout);
    if (!seen) throw new Error(`no call named "${step.waitForEvent}" within ${timeout / 1000} s`);
  }
}
