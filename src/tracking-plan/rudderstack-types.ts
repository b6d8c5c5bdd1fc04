import { isRecord } from "../text/parse-json.js";
import { closestMatch, quoteList } from "../text/wording.js";
import { PlanShapeError, type WrittenSchema } from "./source.js";

/** A catalog resource (an event, a property, a custom type) with where it is written. */
export interface Resource {
  spec: Record<string, unknown>;
  file: string;
  path: PropertyKey[];
}

/** A catalog's resources by kind, each by its id. */
export type Resources = Record<"events" | "properties" | "custom-types", Map<string, Resource>>;

/** The types a property, a custom type or an array's items may have. */
const JSON_TYPES = ["string", "number", "integer", "boolean", "array", "object", "null"];

/** The JSON Schema keywords a property's or custom type's `config` (v1) or `propConfig` (v0.1) may hold. */
const CONFIG_KEYWORDS = [
  "enum",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "uniqueItems",
];

/** The id a reference names: `#event:product_viewed` (v1), `#/events/group/product_viewed` (v0.1), `#custom-type:Email`. */
export function referencedId(reference: unknown): string | null {
  if (typeof reference !== "string") return null;
  return reference.split(/[:/]/).at(-1) ?? null;
}

/** A property's or custom type's config, and the key it is written under. */
function configOf(spec: Record<string, unknown>): { key: string; config: Record<string, unknown> } {
  if (isRecord(spec.config)) return { key: "config", config: spec.config };
  if (isRecord(spec.propConfig)) return { key: "propConfig", config: spec.propConfig };
  return { key: "config", config: {} };
}

/** The custom type a property's or custom type's `type` names, by id; null when it names a JSON type. */
function customTypeId(spec: Record<string, unknown>): string | null {
  return typeof spec.type === "string" && spec.type.startsWith("#") ? referencedId(spec.type) : null;
}

/**
 * Checks every property's and custom type's type, whether a rule uses it or not: each type a JSON
 * type, each custom type it names defined, no custom type made of itself. Returns their configs'
 * JSON Schema keywords, to be checked as written.
 */
export function checkTypes(resources: Resources): WrittenSchema[] {
  rejectCycles(resources["custom-types"]);
  const kinds = [
    ["property", resources.properties],
    ["custom type", resources["custom-types"]],
  ] as const;
  return kinds.flatMap(([kind, map]) =>
    [...map.values()].map((resource) => {
      checkTypeOf(resource, resources);
      const { key, config } = configOf(resource.spec);
      const itemKey = config.item_types === undefined ? "itemTypes" : "item_types";
      if (Array.isArray(config[itemKey]))
        config[itemKey].forEach((type: unknown, index) => checkTypeName(type, resource, [key, itemKey, index], false));
      return {
        what: `the ${key} of ${kind} ${String(resource.spec.id)}`,
        schema: configKeywords(config),
        file: resource.file,
        path: [...resource.path, key],
      };
    }),
  );
}

function checkTypeOf(resource: Resource, resources: Resources): void {
  const { spec } = resource;
  if (Array.isArray(spec.types)) {
    spec.types.forEach((type: unknown, index) => checkTypeName(type, resource, ["types", index], false));
    return;
  }
  const custom = customTypeId(spec);
  if (custom !== null) {
    if (!resources["custom-types"].has(custom)) {
      const guess = closestMatch(custom, [...resources["custom-types"].keys()]);
      throw new PlanShapeError({
        file: resource.file,
        path: [...resource.path, "type"],
        message: `names a custom type the catalog does not define (${custom})${guess === undefined ? "" : ` — did you mean "${guess}"?`}`,
      });
    }
    return;
  }
  if (typeof spec.type === "string")
    for (const part of spec.type.split(",")) checkTypeName(part.trim(), resource, ["type"], true);
  else if (spec.type !== undefined) checkTypeName(spec.type, resource, ["type"], true);
}

function checkTypeName(type: unknown, resource: Resource, path: PropertyKey[], customAllowed: boolean): void {
  if (typeof type === "string" && JSON_TYPES.includes(type)) return;
  const guess = typeof type === "string" ? closestMatch(type, JSON_TYPES) : undefined;
  throw new PlanShapeError({
    file: resource.file,
    path: [...resource.path, ...path],
    message: `must be one of ${quoteList(JSON_TYPES)}${customAllowed ? ', or a custom type ("#custom-type:id")' : ""}, not ${JSON.stringify(type)}${guess === undefined ? "" : ` — did you mean "${guess}"?`}`,
  });
}

/** A custom type whose `type` leads back to itself, directly or through others: an error at the reference that closes the cycle. */
function rejectCycles(customTypes: Map<string, Resource>): void {
  for (const start of customTypes.keys()) {
    const chain = [start];
    for (let current = customTypes.get(start); current !== undefined; ) {
      const next = customTypeId(current.spec);
      if (next === null) break;
      if (chain.includes(next))
        throw new PlanShapeError({
          file: current.file,
          path: [...current.path, "type"],
          message: `makes a cycle of custom types, ${[...chain, next].join(" → ")}: a type cannot be made of itself`,
        });
      chain.push(next);
      current = customTypes.get(next);
    }
  }
}

function configKeywords(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    CONFIG_KEYWORDS.filter((keyword) => config[keyword] !== undefined).map((keyword) => [keyword, config[keyword]]),
  );
}

/** A catalog property's (or custom type's) JSON Schema: its type or types, its config's keywords, a custom type's own. Its types are checked. */
export function propertySchema(spec: Record<string, unknown>, resources: Resources): Record<string, unknown> {
  const { config } = configOf(spec);
  const keywords = configKeywords(config);
  const itemTypes = config.item_types ?? config.itemTypes;
  const items = Array.isArray(itemTypes) ? { items: { type: itemTypes } } : {};
  const custom = customTypeId(spec);
  if (custom !== null) {
    return { ...propertySchema(resources["custom-types"].get(custom)!.spec, resources), ...keywords, ...items };
  }
  const types = Array.isArray(spec.types)
    ? spec.types
    : typeof spec.type === "string"
      ? spec.type.split(",").map((type) => type.trim())
      : [];
  const type = types.length === 0 ? {} : { type: types.length === 1 ? types[0] : types };
  return { ...type, ...keywords, ...items };
}
