import type { z } from "zod";
import { closestMatch, quoteList } from "./wording.js";

/**
 * Zod's issues in plain words, for everything setup-audit validates: spec files, the service's
 * answers and baseline files.
 */

/** Renders a key path the way a user would look it up: `sdk.global`, `pages[1].id`, `checks["page.errors"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((segment, index) => {
      if (typeof segment === "number") return `[${segment}]`;
      const name = String(segment);
      if (!/^[A-Za-z_$][\w$-]*$/.test(name)) return `[${JSON.stringify(name)}]`;
      return index === 0 ? name : `.${name}`;
    })
    .join("");
}

const EXPECTED_WORDS: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "a mapping",
  record: "a mapping",
};

/** How a value reads to its author: `text ("soon")`, `a number (5)`, `a list`, `empty`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "empty";
  if (typeof value === "string") {
    const shown = value.length > 40 ? `${value.slice(0, 37)}…` : value;
    return `text (${JSON.stringify(shown)})`;
  }
  if (typeof value === "number") return `a number (${value})`;
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return "a list";
  return "a mapping";
}

function expectedWords(expected: string): string {
  return EXPECTED_WORDS[expected] ?? `a ${expected}`;
}

function tooSmall(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooSmall>): string | undefined {
  const minimum = Number(issue.minimum);
  switch (issue.origin) {
    case "string":
      return minimum <= 1 ? "must not be empty" : `must be at least ${minimum} characters long`;
    case "array":
      return `needs at least ${minimum} ${minimum === 1 ? "item" : "items"}`;
    case "number":
    case "int":
      return issue.inclusive ? `must be at least ${minimum}` : `must be more than ${minimum}`;
    default:
      return undefined;
  }
}

function tooBig(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooBig>): string | undefined {
  const maximum = Number(issue.maximum);
  switch (issue.origin) {
    case "string":
      return `must be at most ${maximum} characters long`;
    case "array":
      return `must have at most ${maximum} ${maximum === 1 ? "item" : "items"}`;
    case "number":
    case "int":
      return issue.inclusive ? `must be at most ${maximum}` : `must be less than ${maximum}`;
    default:
      return undefined;
  }
}

function invalidFormat(issue: z.core.$ZodRawIssue<z.core.$ZodStringFormatIssues>): string {
  switch (issue.format) {
    case "starts_with":
      return `must start with "${issue.prefix}"`;
    case "ends_with":
      return `must end with "${issue.suffix}"`;
    case "includes":
      return `must contain "${issue.includes}"`;
    case "regex":
      return `must match the pattern ${issue.pattern}`;
    default:
      return `must be a valid ${issue.format}`;
  }
}

function invalidValue(issue: z.core.$ZodRawIssue<z.core.$ZodIssueInvalidValue>): string {
  const allowed = issue.values.map(String);
  const base = `must be one of ${quoteList(allowed)}, not ${describeValue(issue.input)}`;
  const guess = typeof issue.input === "string" ? closestMatch(issue.input, allowed) : undefined;
  return guess === undefined ? base : `${base} — did you mean "${guess}"?`;
}

/**
 * Zod's default messages in the words of a spec's or a file's author ("must be text, not a number (5)").
 * Passed per parse, so the messages the schema spells out itself still win.
 */
export const plainErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      if (issue.expected === "int" && typeof issue.input === "number")
        return `must be a whole number, not ${issue.input}`;
      return `must be ${expectedWords(issue.expected)}, not ${describeValue(issue.input)}`;
    case "too_small":
      return tooSmall(issue);
    case "too_big":
      return tooBig(issue);
    case "invalid_format":
      return invalidFormat(issue as z.core.$ZodRawIssue<z.core.$ZodStringFormatIssues>);
    case "invalid_value":
      return invalidValue(issue);
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    default:
      // Keys, unions and refinements are worded where they are positioned (problems.ts).
      return undefined;
  }
};
