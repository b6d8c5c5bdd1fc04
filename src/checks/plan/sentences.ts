import { isPlanLike } from "../../privacy/redact.js";
import type { PlanViolation } from "../../tracking-plan/types.js";

/** The property a JSON pointer names, as a reader writes it: `/items/0/sku` → `items.0.sku`. */
export function propertyName(pointer: string): string {
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}

/** What was sent, as a message may say it: a plan-like value itself, else only its type. */
function sent(violation: PlanViolation): string {
  if (violation.value !== undefined && isPlanLike(violation.value)) return JSON.stringify(violation.value);
  return violation.type === "null" ? "null" : `${/^[aeiou]/.test(violation.type) ? "an" : "a"} ${violation.type}`;
}

/**
 * One violation as one sentence a person can act on, headed by what broke it:
 * "Order Completed: `revenue` must be a number (was a string)".
 */
export function violationSentence(subject: string, violation: PlanViolation): string {
  const what = violation.pointer === "" ? "the properties" : `\`${propertyName(violation.pointer)}\``;
  if (violation.rule === "required") return `${subject}: ${what} is required but missing`;
  if (violation.rule === "additionalProperties")
    return `${subject}: ${what} is not in the plan, which allows no other key (was ${sent(violation)})`;
  return `${subject}: ${what} must be ${violation.expected} (was ${sent(violation)})`;
}

/** A violation as evidence: its value only when plan-like, as the report shows values elsewhere. */
export function violationEvidence(violation: PlanViolation): Omit<PlanViolation, "value"> & { value?: unknown } {
  const { value, ...rest } = violation;
  return value !== undefined && isPlanLike(value) ? { ...rest, value } : rest;
}
