import type { Step } from "./schema.js";

/** A step in words, for messages: `click "#submit"`. */
export function describeStep(step: Step): string {
  if ("fill" in step) return `fill "${step.fill.selector}"`;
  if ("click" in step) return `click "${step.click}"`;
  if ("waitFor" in step) return `waitFor "${step.waitFor}"`;
  if ("goto" in step) return `goto "${step.goto}"`;
  if ("back" in step) return "back";
  if ("forward" in step) return "forward";
  if ("waitForUrl" in step) return `waitForUrl "${step.waitForUrl}"`;
  return `waitForEvent "${step.waitForEvent}"`;
}
