import { relative } from "node:path";
import { isRecord } from "../text/parse-json.js";
import { formatPath } from "../text/plain-messages.js";
import { checkTypes, propertySchema, referencedId, type Resource, type Resources } from "./rudderstack-types.js";
import { PlanShapeError, type PlanEntry, type PlanSource } from "./source.js";

/** One YAML file of a catalog folder, parsed. */
export interface CatalogFile {
  file: string;
  data: unknown;
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
  const { resources, plans } = catalogOf(files, folder);
  if (plans.length === 0)
    throw new PlanShapeError({
      file: folder,
      path: [],
      message: "the folder holds no rudder-cli tracking plan (a YAML file with kind: tracking-plan)",
    });
  const written = checkTypes(resources);
  const entries: PlanEntry[] = [];
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
      const eventType = event.spec.event_type ?? "track";
      if (eventType !== "identify" && eventType !== "track") return;
      entries.push({
        name: eventType === "identify" ? null : nameOf(event),
        schema: ruleSchema(rule, resources, at),
        ...at(),
        namePath: at("event").path,
      });
    });
  }
  return { format: "rudderstack", entries, written };
}

const KINDS = { events: "event", properties: "property", "custom-types": "custom type" } as const;

/** The catalog's resources by kind and id, and its tracking plans; an id defined twice, or two events of one name, is an error at the second. */
function catalogOf(files: readonly CatalogFile[], folder: string): { resources: Resources; plans: Resource[] } {
  const resources: Resources = { events: new Map(), properties: new Map(), "custom-types": new Map() };
  const plans: Resource[] = [];
  const where = (resource: Resource) => `${relative(folder, resource.file)} ${formatPath(resource.path)}`;
  const eventNames = new Map<string, Resource>();
  for (const { file, data } of files) {
    if (!isRecord(data) || !isRecord(data.spec)) continue;
    const kind = data.kind;
    if (kind === "tracking-plan" || kind === "tp") plans.push({ spec: data.spec, file, path: ["spec"] });
    if (kind !== "events" && kind !== "properties" && kind !== "custom-types") continue;
    const listKey = kind === "custom-types" ? "types" : kind;
    const list = data.spec[listKey];
    if (!Array.isArray(list)) continue;
    list.forEach((item: unknown, index) => {
      if (!isRecord(item) || typeof item.id !== "string") return;
      const resource = { spec: item, file, path: ["spec", listKey, index] };
      const first = resources[kind].get(item.id);
      if (first !== undefined)
        throw new PlanShapeError({
          file,
          path: [...resource.path, "id"],
          message: `the ${KINDS[kind]} ${item.id} is defined twice (first at ${where(first)}): each id once`,
        });
      resources[kind].set(item.id, resource);
      if (kind !== "events") return;
      const sameName = eventNames.get(nameOf(resource));
      if (sameName !== undefined)
        throw new PlanShapeError({
          file,
          path: [...resource.path, "name"],
          message: `"${nameOf(resource)}" is the name of another event too (${String(sameName.spec.id)}, ${where(sameName)}): each event once`,
        });
      eventNames.set(nameOf(resource), resource);
    });
  }
  return { resources, plans };
}

/** An event's or property's name, else its id. */
function nameOf(resource: Resource): string {
  return typeof resource.spec.name === "string" ? resource.spec.name : String(resource.spec.id);
}

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
    const name = nameOf(property);
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
