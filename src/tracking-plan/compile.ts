import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import { closestMatch, quoteList } from "../text/wording.js";
import type { JsonSchema } from "./source.js";
import { valueAt } from "./violations.js";

/** A schema that names an older draft by its `$schema` (Segment writes draft-07). */
const OLDER_DRAFT = /json-schema\.org\/(draft-0[4-7]|schema)\b(?!.*2019|.*2020)/;

/** A keyword of a schema as written that its draft's meta-schema rejects. */
export interface SchemaProblem {
  /** JSON pointer of the keyword at fault inside the schema; "" for the schema itself. */
  pointer: string;
  /** What is wrong with it, in words: `must be one of "array", …, not "strng" — did you mean "string"?`. */
  reason: string;
}

/**
 * The validators of one run: draft 2020-12 by default, draft-07 for a schema whose `$schema` says
 * so. Vendors' own keywords (Segment's `labels`) are ignored, not errors (strict off); every
 * violation is reported, not the first (allErrors); no schema is registered by its `$id`, so two
 * plans may use the same one.
 */
export class SchemaCompiler {
  private readonly draft2020 = withFormats(new Ajv2020({ allErrors: true, strict: false, addUsedSchema: false }));
  private readonly draft07 = withFormats(new Ajv({ allErrors: true, strict: false, addUsedSchema: false }));

  /** Each keyword of the schema that its draft rejects, once, however deep; none when the schema is valid. */
  problemsOf(schema: JsonSchema): SchemaProblem[] {
    if (typeof schema === "boolean") return [];
    const { $schema, ...rest } = schema;
    const compiler = this.compilerFor($schema);
    if (compiler.validateSchema(rest) === true) return [];
    // Ajv gives a keyword's several failed alternatives (enum, type, anyOf) one after the other: the first says it best.
    const first = new Map<string, ErrorObject>();
    for (const error of compiler.errors ?? []) if (!first.has(error.instancePath)) first.set(error.instancePath, error);
    return [...first.values()].map((error) => ({ pointer: error.instancePath, reason: reasonOf(error, rest) }));
  }

  /** The schema compiled; throws Ajv's error when it cannot be (a `$ref` that resolves to nothing). */
  compile(schema: JsonSchema): ValidateFunction {
    if (typeof schema === "boolean") return this.draft2020.compile(schema);
    const { $schema, ...rest } = schema;
    return this.compilerFor($schema).compile(rest);
  }

  private compilerFor($schema: unknown): Ajv {
    return typeof $schema === "string" && OLDER_DRAFT.test($schema) ? this.draft07 : this.draft2020;
  }
}

/** A meta-schema error in words; a value outside a list (a `type` of no JSON type) names the list and the nearest. */
function reasonOf(error: ErrorObject, schema: unknown): string {
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  if (error.keyword !== "enum" || allowed === undefined) return error.message ?? "is invalid";
  const value = valueAt(schema, error.instancePath);
  const names = allowed.map(String);
  const guess = typeof value === "string" ? closestMatch(value, names) : undefined;
  return `must be one of ${quoteList(names)}, not ${JSON.stringify(value)}${guess === undefined ? "" : ` — did you mean "${guess}"?`}`;
}

function withFormats<T extends Ajv>(ajv: T): T {
  ajvFormats.default(ajv);
  return ajv;
}
