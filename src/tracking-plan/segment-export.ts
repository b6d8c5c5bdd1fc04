import { isSchema, PlanShapeError, schemaName, type JsonSchema, type PlanEntry, type PlanSource } from "./source.js";
import { isRecord } from "../text/parse-json.js";

/** Where an export keeps its rules: at the top, or under the API answer's `data`, `tracking_plan` or `trackingPlan`. */
const RULE_HOLDERS = [[], ["data"], ["tracking_plan"], ["trackingPlan"]] as const;

/** The rules of a Segment Protocols export and their key path; null when the data is none. */
function rulesOf(data: unknown): { rules: unknown; path: string[] } | null {
  for (const holderPath of RULE_HOLDERS) {
    const holder = holderPath.reduce<unknown>((value, key) => (isRecord(value) ? value[key] : undefined), data);
    if (isRecord(holder) && (Array.isArray(holder.rules) || isRecord(holder.rules)))
      return { rules: holder.rules, path: [...holderPath, "rules"] };
  }
  return null;
}

/** True when the data is a Segment Protocols export (the Config API's or the Public API's shape). */
export function isSegmentExport(data: unknown): boolean {
  return rulesOf(data) !== null;
}

/**
 * A Segment Protocols export as Segment writes it: the Config API's `rules.events[]` (`name`,
 * `rules`, whose `properties.properties` is the event's properties) and `rules.identify`
 * (`properties.traits`), or the Public API's `rules[]` (`type` TRACK or IDENTIFY, `key`,
 * `jsonSchema`). Other rule types (page, group, common) are not judged. Each schema is checked
 * as written, whole, so that a problem anywhere in it is placed at its key.
 */
export function readSegmentExport(data: unknown, file: string): PlanSource {
  const found = rulesOf(data);
  if (found === null) throw new PlanShapeError({ file, path: [], message: "a Segment Protocols export needs `rules`" });
  const fail = (path: PropertyKey[], message: string): never => {
    throw new PlanShapeError({ file, path: [...found.path, ...path], message });
  };
  const entries = Array.isArray(found.rules)
    ? publicApiRules(found.rules, found.path, file, fail)
    : configApiRules(found.rules as Record<string, unknown>, found.path, file, fail);
  return {
    format: "segment",
    entries: entries.map(({ written: _, ...entry }) => entry),
    written: entries.map(({ name, written, path }) => ({ what: schemaName(name), schema: written, file, path })),
  };
}

/** An entry, with the schema of the whole event as the export writes it at its path. */
type ExportEntry = PlanEntry & { written: JsonSchema };

function configApiRules(
  rules: Record<string, unknown>,
  path: string[],
  file: string,
  fail: (path: PropertyKey[], message: string) => never,
): ExportEntry[] {
  const events = rules.events ?? [];
  if (!Array.isArray(events)) return fail(["events"], "must be a list of events, each with name and rules");
  const entries = events.map((event: unknown, index): ExportEntry => {
    const schema: unknown = isRecord(event) ? (event.rules ?? {}) : undefined;
    if (!isRecord(event) || typeof event.name !== "string" || !isSchema(schema))
      return fail(["events", index], "must have name (text) and rules (a JSON Schema)");
    const at = [...path, "events", index];
    return {
      name: event.name,
      schema: inner(schema, "properties"),
      written: schema,
      file,
      path: [...at, "rules"],
      namePath: [...at, "name"],
    };
  });
  const identify = rules.identify;
  if (identify === undefined || identify === null) return entries;
  if (!isSchema(identify))
    return fail(["identify"], "must be a JSON Schema whose properties.traits are the identify traits");
  const identifyPath = [...path, "identify"];
  return [
    ...entries,
    {
      name: null,
      schema: inner(identify, "traits"),
      written: identify,
      file,
      path: identifyPath,
      namePath: identifyPath,
    },
  ];
}

function publicApiRules(
  rules: unknown[],
  path: string[],
  file: string,
  fail: (path: PropertyKey[], message: string) => never,
): ExportEntry[] {
  return rules.flatMap((rule, index): ExportEntry[] => {
    if (!isRecord(rule) || typeof rule.type !== "string")
      return fail([index], "must have type (TRACK, IDENTIFY, …) and jsonSchema");
    const type = rule.type.toUpperCase();
    if (type !== "TRACK" && type !== "IDENTIFY") return [];
    const schema: unknown = rule.jsonSchema ?? {};
    if (!isSchema(schema)) return fail([index, "jsonSchema"], "must be a JSON Schema");
    const at = { file, path: [...path, index, "jsonSchema"], written: schema };
    if (type === "IDENTIFY")
      return [{ name: null, schema: inner(schema, "traits"), namePath: [...path, index, "type"], ...at }];
    if (typeof rule.key !== "string" || rule.key === "")
      return fail([index, "key"], "a TRACK rule needs key, the event's name");
    return [{ name: rule.key, schema: inner(schema, "properties"), namePath: [...path, index, "key"], ...at }];
  });
}

/**
 * The schema of the event's `properties` (or `traits`) inside Segment's schema of the whole
 * event, with the root's `$schema` and definitions kept, so that its draft and `$ref`s still read.
 */
function inner(schema: JsonSchema, key: string): JsonSchema {
  if (typeof schema === "boolean") return schema;
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const found = properties[key];
  if (!isRecord(found)) return typeof found === "boolean" ? found : {};
  const kept = Object.fromEntries(
    ["$schema", "definitions", "$defs"]
      .filter((field) => schema[field] !== undefined)
      .map((field) => [field, schema[field]]),
  );
  return { ...kept, ...found };
}
