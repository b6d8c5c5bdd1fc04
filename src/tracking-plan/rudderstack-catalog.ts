import { PlanShapeError, type PlanEntry, type PlanSource } from "./source.js";
import { isRecord } from "../text/parse-json.js";

/** One YAML file of a catalog folder, parsed. */
export interface CatalogFile {
  file: string;
  data: unknown;
}

/** A catalog resource (an event, a property, a custom type) with where it is written. */
interface Resource {
  spec: Record<string, unknown>;
  file: string;
  path: PropertyKey[];
}

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
function referencedId(reference: unknown): string | null {
  if (typeof reference !== "string") return null;
  return reference.split(/[:/]/).at(-1) ?? null;
}

/** A rule's reference to an event or property: `event: "#event:id"` (v1) or `{ $ref: … }` (v0.1). */
function referenceOf(value: unknown): string | null {
  return referencedId(isRecord(value) ? value.$ref : value);
}

/**
 * A RudderStack rudder-cli catalog: its YAML files' `kind: events`, `properties`, `custom-types`
 * and `tracking-plan` (`tp` in v0.1). Each track rule of the plan becomes the JSON Schema of the
 * event's properties (the rule's properties, `required`, `additional_properties: false` or
 * `allow_unplanned: false`); the rule of an identify event, the schema of identify's traits.
 */
export function readRudderCatalog(files: readonly CatalogFile[], folder: string): PlanSource {
  const resources = {
    events: new Map<string, Resource>(),
    properties: new Map<string, Resource>(),
    "custom-types": new Map<string, Resource>(),
  };
  const plans: Resource[] = [];
  for (const { file, data } of files) {
    if (!isRecord(data) || !isRecord(data.spec)) continue;
    const kind = data.kind;
    if (kind === "tracking-plan" || kind === "tp") plans.push({ spec: data.spec, file, path: ["spec"] });
    const list =
      kind === "events"
        ? data.spec.events
        : kind === "properties"
          ? data.spec.properties
          : kind === "custom-types"
            ? data.spec.types
            : undefined;
    if (!Array.isArray(list)) continue;
    list.forEach((item: unknown, index) => {
      if (isRecord(item) && typeof item.id === "string")
        resources[kind as keyof typeof resources].set(item.id, {
          spec: item,
          file,
          path: ["spec", kind === "custom-types" ? "types" : String(kind), index],
        });
    });
  }
  if (plans.length === 0)
    throw new PlanShapeError({
      file: folder,
      path: [],
      message: "the folder holds no rudder-cli tracking plan (a YAML file with kind: tracking-plan)",
    });
  const events: PlanEntry[] = [];
  let identify: PlanEntry | null = null;
  for (const plan of plans) {
    const rules = plan.spec.rules;
    if (!Array.isArray(rules))
      throw new PlanShapeError({ file: plan.file, path: ["spec", "rules"], message: "must be a list of event rules" });
    rules.forEach((rule: unknown, index) => {
      const at = (...path: PropertyKey[]) => ({ file: plan.file, path: ["spec", "rules", index, ...path] });
      if (!isRecord(rule) || (rule.type !== undefined && rule.type !== "event_rule")) return;
      const event = resources.events.get(referenceOf(rule.event) ?? "");
      if (event === undefined)
        throw new PlanShapeError({
          ...at("event"),
          message: `names an event the catalog does not define (${String(referenceOf(rule.event))})`,
        });
      const schema = ruleSchema(rule, resources, at);
      const entry = {
        name: typeof event.spec.name === "string" ? event.spec.name : String(event.spec.id),
        schema,
        ...at(),
      };
      const eventType = event.spec.event_type ?? "track";
      if (eventType === "identify") identify = { ...entry, name: null };
      else if (eventType === "track") events.push(entry);
    });
  }
  return { format: "rudderstack", events, identify };
}

type Resources = Record<"events" | "properties" | "custom-types", Map<string, Resource>>;

function ruleSchema(
  rule: Record<string, unknown>,
  resources: Resources,
  at: (...path: PropertyKey[]) => { file: string; path: PropertyKey[] },
): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const listed = Array.isArray(rule.properties) ? rule.properties : [];
  listed.forEach((entry: unknown, index) => {
    const id = isRecord(entry) ? referenceOf(entry.property ?? entry) : null;
    const property = resources.properties.get(id ?? "");
    if (!isRecord(entry) || property === undefined)
      throw new PlanShapeError({
        ...at("properties", index),
        message: `names a property the catalog does not define (${String(id)})`,
      });
    const name = typeof property.spec.name === "string" ? property.spec.name : String(property.spec.id);
    properties[name] = propertySchema(property.spec, resources);
    if (entry.required === true) required.push(name);
  });
  const closed =
    rule.additional_properties === false ||
    rule.allow_unplanned === false ||
    (isRecord(rule.event) && rule.event.allow_unplanned === false);
  return {
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(closed ? { additionalProperties: false } : {}),
  };
}

/** A catalog property's (or custom type's) JSON Schema: its type or types, its config's keywords, a custom type's own. */
function propertySchema(spec: Record<string, unknown>, resources: Resources): Record<string, unknown> {
  const config = isRecord(spec.config) ? spec.config : isRecord(spec.propConfig) ? spec.propConfig : {};
  const keywords = Object.fromEntries(
    CONFIG_KEYWORDS.filter((keyword) => config[keyword] !== undefined).map((keyword) => [keyword, config[keyword]]),
  );
  const itemTypes = config.item_types ?? config.itemTypes;
  const items = Array.isArray(itemTypes) ? { items: { type: itemTypes } } : {};
  const typeText = typeof spec.type === "string" ? spec.type : null;
  if (typeText !== null && typeText.startsWith("#")) {
    const custom = resources["custom-types"].get(referencedId(typeText) ?? "");
    return { ...(custom ? propertySchema(custom.spec, resources) : {}), ...keywords, ...items };
  }
  const types = Array.isArray(spec.types)
    ? spec.types
    : typeText === null
      ? []
      : typeText.split(",").map((type) => type.trim());
  const type = types.length === 0 ? {} : { type: types.length === 1 ? types[0] : types };
  return { ...type, ...keywords, ...items };
}
