import { isSchema, PlanShapeError, schemaName, type PlanEntry, type PlanSource } from "./source.js";
import { isRecord } from "../text/parse-json.js";

/** True when the data is written in setup-audit's own format: an `events` mapping by name. */
export function isOwnPlan(data: unknown): boolean {
  return isRecord(data) && isRecord(data.events);
}

const PLAN_KEYS = ["events", "identify"];
const EVENT_KEYS = ["properties", "description"];

/**
 * Setup-audit's format: `events` maps each exact event name to `properties`, the JSON Schema of
 * the call's properties object; `identify.traits` is the schema of identify-kind attributes.
 */
export function readOwnPlan(data: unknown, file: string): PlanSource {
  const fail = (path: PropertyKey[], message: string, key?: string): never => {
    throw new PlanShapeError({ file, path, message, ...(key === undefined ? {} : { key }) });
  };
  if (!isRecord(data) || !isRecord(data.events))
    return fail([], "a tracking plan in setup-audit's format needs `events`, a mapping of event names");
  for (const key of Object.keys(data))
    if (!PLAN_KEYS.includes(key)) fail([], `unknown key "${key}": a plan has events and identify`, key);
  const events = Object.entries(data.events).map(([name, event]): PlanEntry => {
    if (!isRecord(event))
      return fail(
        ["events", name],
        `must be a mapping with properties (a JSON Schema), like { properties: { type: object } }`,
      );
    for (const key of Object.keys(event))
      if (!EVENT_KEYS.includes(key))
        fail(["events", name], `unknown key "${key}": an event has properties and description`, key);
    const schema = event.properties ?? {};
    if (!isSchema(schema))
      fail(
        ["events", name, "properties"],
        "must be a JSON Schema: a mapping like { type: object, required: [order_id] }",
      );
    return {
      name,
      schema: schema as PlanEntry["schema"],
      file,
      path: ["events", name, "properties"],
      namePath: ["events", name],
    };
  });
  const identify = identifyEntry(data.identify, file, fail);
  const entries = identify === null ? events : [...events, identify];
  return {
    format: "setup-audit",
    entries,
    written: entries.map(({ name, schema, path }) => ({ what: schemaName(name), schema, file, path })),
  };
}

function identifyEntry(
  identify: unknown,
  file: string,
  fail: (path: PropertyKey[], message: string, key?: string) => never,
): PlanEntry | null {
  if (identify === undefined || identify === null) return null;
  if (!isRecord(identify) || !isSchema(identify.traits))
    return fail(["identify"], "must be a mapping with traits, the JSON Schema of identify-kind attributes");
  for (const key of Object.keys(identify))
    if (key !== "traits") fail(["identify"], `unknown key "${key}": identify has traits`, key);
  return { name: null, schema: identify.traits, file, path: ["identify", "traits"], namePath: ["identify"] };
}
