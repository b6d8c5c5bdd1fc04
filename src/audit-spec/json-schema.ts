import { z } from "zod";
import { auditSpecSchema } from "./schema.js";

/** Where the generated JSON Schema ships, relative to the package root; specs beside it name it `./spec.schema.json`. */
export const SPEC_SCHEMA_FILE = "audits/spec.schema.json";

/** The formats JSON Schema defines; zod also writes its own (`starts_with`), which its `pattern` already says. */
const STANDARD_FORMATS = new Set([
  "date-time",
  "date",
  "time",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uri",
  "uri-reference",
  "uuid",
  "regex",
]);

/**
 * The spec's JSON Schema, generated from the zod schema `validate` uses, for editors to complete
 * and check specs with. It describes what a spec may say (defaults and presets not yet applied);
 * the checks across fields (an environment's domain, a page id used twice) are `validate`'s alone.
 */
export function specJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(auditSpecSchema, { io: "input", unrepresentable: "any" });
  return {
    $schema: generated.$schema,
    title: "setup-audit spec",
    description: "An audit spec for setup-audit: the project, its environments, its SDK, pages, goals and experiments.",
    ...withoutNonStandardFormats(generated),
  };
}

/** The schema as the shipped file holds it: two-space JSON and a final newline. */
export function specJsonSchemaText(): string {
  return `${JSON.stringify(specJsonSchema(), null, 2)}\n`;
}

function withoutNonStandardFormats<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withoutNonStandardFormats) as T;
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => key !== "format" || STANDARD_FORMATS.has(String(value)))
      .map(([key, value]) => [key, withoutNonStandardFormats(value)]),
  ) as T;
}
