import type { ErrorObject } from "ajv";
import type { PlanViolation } from "./types.js";

/** A JSON pointer's segment, escaped (`~` as `~0`, `/` as `~1`). */
function pointerSegment(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** A JSON pointer's keys, unescaped: `/a~1b/0` → `a/b`, `0`; none for "". */
export function pointerKeys(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The value a JSON pointer names inside `data`; undefined when there is none. */
export function valueAt(data: unknown, pointer: string): unknown {
  return pointerKeys(pointer).reduce<unknown>(
    (value, key) => (value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined),
    data,
  );
}

/** A value's JSON type, as a plan's `type` names them; `missing` when there is none. */
export function jsonType(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "bigint" ? "number" : typeof value;
}

/** `a number`, `an object`, `a string or a null`. */
function withArticle(types: readonly string[]): string {
  return types.map((type) => `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`).join(" or ");
}

/** What a broken keyword expects, in words, from Ajv's parameters. */
function expectedOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return "present";
    case "additionalProperties":
      return "no key the plan does not list";
    case "type":
      return withArticle(Array.isArray(params.type) ? params.type : [String(params.type)]);
    case "enum":
      return `one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ")}`;
    case "const":
      return `exactly ${JSON.stringify(params.allowedValue)}`;
    case "pattern":
      return `text matching /${String(params.pattern)}/`;
    case "format":
      return `a ${String(params.format)}`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `a number ${String(params.comparison)} ${String(params.limit)}`;
    case "minLength":
      return `at least ${String(params.limit)} characters`;
    case "maxLength":
      return `at most ${String(params.limit)} characters`;
    case "minItems":
      return `at least ${String(params.limit)} items`;
    case "maxItems":
      return `at most ${String(params.limit)} items`;
    default:
      return error.message ?? error.keyword;
  }
}

/**
 * Ajv's errors as violations. The pointer is the property's own, not its parent's: a missing
 * required key and a forbidden extra key are named by their own path.
 */
export function violationsOf(errors: readonly ErrorObject[], data: unknown): PlanViolation[] {
  return errors.map((error) => {
    const params = error.params as Record<string, unknown>;
    const own =
      error.keyword === "required"
        ? params.missingProperty
        : error.keyword === "additionalProperties"
          ? params.additionalProperty
          : undefined;
    const pointer = typeof own === "string" ? `${error.instancePath}/${pointerSegment(own)}` : error.instancePath;
    const value = valueAt(data, pointer);
    return {
      pointer,
      rule: error.keyword,
      expected: expectedOf(error),
      type: jsonType(value),
      ...(value === undefined ? {} : { value }),
    };
  });
}
