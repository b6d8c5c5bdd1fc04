import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import type { JsonSchema } from "./source.js";

/** A schema that names an older draft by its `$schema` (Segment writes draft-07). */
const OLDER_DRAFT = /json-schema\.org\/(draft-0[4-7]|schema)\b(?!.*2019|.*2020)/;

/**
 * The validators of one run: draft 2020-12 by default, draft-07 for a schema whose `$schema` says
 * so. Vendors' own keywords (Segment's `labels`) are ignored, not errors (strict off); every
 * violation is reported, not the first (allErrors); no schema is registered by its `$id`, so two
 * plans may use the same one.
 */
export class SchemaCompiler {
  private readonly draft2020 = withFormats(new Ajv2020({ allErrors: true, strict: false, addUsedSchema: false }));
  private readonly draft07 = withFormats(new Ajv({ allErrors: true, strict: false, addUsedSchema: false }));

  /** The schema compiled; throws an InvalidSchemaError when it is not a valid schema of its draft. */
  compile(schema: JsonSchema): ValidateFunction {
    if (typeof schema === "boolean") return this.draft2020.compile(schema);
    const { $schema, ...rest } = schema;
    const compiler = typeof $schema === "string" && OLDER_DRAFT.test($schema) ? this.draft07 : this.draft2020;
    const first = compiler.validateSchema(rest) === true ? undefined : compiler.errors?.[0];
    if (first !== undefined) throw new InvalidSchemaError(first.instancePath, first.message ?? "is invalid");
    return compiler.compile(rest);
  }
}

/** A schema its draft's meta-schema rejects, at the first keyword at fault. */
export class InvalidSchemaError extends Error {
  constructor(
    /** JSON pointer of the keyword at fault inside the schema; "" for the schema itself. */
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(`${pointer} ${reason}`);
  }
}

function withFormats<T extends Ajv>(ajv: T): T {
  ajvFormats.default(ajv);
  return ajv;
}
