import type { z } from "zod";

type Schema = z.core.$ZodType;

/** The schema without the wrappers that do not change which keys a mapping may have. */
function unwrap(schema: Schema): Schema {
  const def = (schema as z.core.$ZodTypes)._zod.def;
  switch (def.type) {
    case "optional":
    case "nullable":
    case "nonoptional":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
      return unwrap(def.innerType);
    case "pipe":
      return unwrap(def.in);
    case "lazy":
      return unwrap(def.getter());
    default:
      return schema;
  }
}

function childSchemas(schema: Schema, segment: PropertyKey): Schema[] {
  const def = (unwrap(schema) as z.core.$ZodTypes)._zod.def;
  switch (def.type) {
    case "object": {
      const child = def.shape[String(segment)];
      return child === undefined ? [] : [child];
    }
    case "array":
      return [def.element];
    case "record":
      return [def.valueType];
    case "union":
      // Only the options that know this segment can be the one the user meant.
      return def.options.flatMap((option) => childSchemas(option, segment));
    default:
      return [];
  }
}

/** The schemas that may describe the value at `path`: several when the path crosses a union. */
export function schemasAt(root: Schema, path: readonly PropertyKey[]): Schema[] {
  return path.reduce<Schema[]>(
    (schemas, segment) => schemas.flatMap((schema) => childSchemas(schema, segment)),
    [root],
  );
}

// The key names a record's key schema lists; zod's partialRecord wraps them in a union.
function namesOf(keySchema: Schema): string[] {
  const def = (unwrap(keySchema) as z.core.$ZodTypes)._zod.def;
  switch (def.type) {
    case "enum":
      return Object.values(def.entries).map(String);
    case "literal":
      return def.values.map(String);
    case "union":
      return def.options.flatMap(namesOf);
    default:
      return [];
  }
}

function keysOf(schema: Schema): string[] {
  const def = (unwrap(schema) as z.core.$ZodTypes)._zod.def;
  switch (def.type) {
    case "object":
      return Object.keys(def.shape);
    case "record":
      return namesOf(def.keyType);
    case "union":
      return def.options.flatMap(keysOf);
    default:
      return [];
  }
}

/** Every key a mapping described by these schemas may have; empty when they name no keys. */
export function allowedKeys(schemas: readonly Schema[]): string[] {
  return [...new Set(schemas.flatMap(keysOf))];
}
