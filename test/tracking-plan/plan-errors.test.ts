import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { formatSpecError } from "../../src/audit-spec/errors.js";
import { loadTrackingPlan } from "../../src/tracking-plan/load.js";
import { folderWith } from "../support/tracking-plan.js";

/**
 * Plans that used to fail quietly (read as "anything goes", last one wins, a crash, the wrong
 * line): each is exit 2's error at the file:line:col of the exact key, as a spec's errors are.
 */

function errorsOf(path: string): string[] {
  const load = loadTrackingPlan(path, "auto");
  return load.ok ? [] : load.errors.map(formatSpecError);
}

/** `file:line:col` of the `nth` occurrence (1-based) of `needle` in `text`, written to `file`. */
function at(file: string, text: string, needle: string, nth = 1): string {
  let offset = -1;
  for (let found = 0; found < nth; found++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset === -1) throw new Error(`"${needle}" is not in the text ${nth} time(s)`);
  }
  const before = text.slice(0, offset).split("\n");
  return `${file}:${before.length}:${before.at(-1)!.length + 1}`;
}

const EVENTS = `version: rudder/v1
kind: events
metadata: { name: shop_events }
spec:
  events:
    - id: order_completed
      name: Order Completed
      event_type: track
`;

const PROPERTIES = `version: rudder/v1
kind: properties
metadata: { name: shop_properties }
spec:
  properties:
    - id: order_id
      name: order_id
      type: string
    - id: currency
      name: currency
      type: "#custom-type:Currency"
`;

const TYPES = `version: rudder/v1
kind: custom-types
metadata: { name: shop_types }
spec:
  types:
    - id: Currency
      name: Currency
      type: string
      config: { enum: [USD, EUR] }
`;

const PLAN = `version: rudder/v1
kind: tracking-plan
metadata: { name: shop }
spec:
  id: shop
  display_name: Shop
  rules:
    - type: event_rule
      id: order_completed_rule
      event: "#event:order_completed"
      properties:
        - { property: "#property:order_id", required: true }
        - { property: "#property:currency" }
`;

/** A rudder-cli catalog folder with these files replaced. */
function catalog(files: Partial<Record<"events.yaml" | "properties.yaml" | "types.yaml" | "plan.yaml", string>>) {
  return folderWith({
    "events.yaml": EVENTS,
    "properties.yaml": PROPERTIES,
    "types.yaml": TYPES,
    "plan.yaml": PLAN,
    ...files,
  });
}

test.describe("a RudderStack catalog's custom types", () => {
  test("the catalog as written reads, its custom type resolved", () => {
    const load = loadTrackingPlan(catalog({}), "auto");
    const sent = { order_id: "o_1", currency: "GBP" };
    expect(load.ok && load.plan.validateTrack("Order Completed", sent)?.map(({ rule }) => rule)).toEqual(["enum"]);
  });

  test("a reference to a custom type the catalog lacks is an error at the reference, with the nearest name", () => {
    const properties = PROPERTIES.replace("#custom-type:Currency", "#custom-type:Curency");
    const folder = catalog({ "properties.yaml": properties });
    const file = join(folder, "properties.yaml");
    expect(errorsOf(folder)).toEqual([
      `${at(file, properties, '"#custom-type:Curency"')} spec.properties[1].type: names a custom type the catalog does not define (Curency) — did you mean "Currency"?`,
    ]);
  });

  test("a custom type made of itself is an error naming it, at its reference, not a stack overflow", () => {
    const types = TYPES.replace("type: string", 'type: "#custom-type:Currency"');
    const folder = catalog({ "types.yaml": types });
    expect(errorsOf(folder)).toEqual([
      `${at(join(folder, "types.yaml"), types, '"#custom-type:Currency"')} spec.types[0].type: makes a cycle of custom types, Currency → Currency: a type cannot be made of itself`,
    ]);
  });

  test("custom types made of each other are an error naming the cycle, at the reference that closes it", () => {
    const types = `version: rudder/v1
kind: custom-types
metadata: { name: shop_types }
spec:
  types:
    - id: Currency
      name: Currency
      type: "#custom-type:Code"
    - id: Code
      name: Code
      type: "#custom-type:Currency"
`;
    const folder = catalog({ "types.yaml": types });
    expect(errorsOf(folder)).toEqual([
      `${at(join(folder, "types.yaml"), types, '"#custom-type:Currency"')} spec.types[1].type: makes a cycle of custom types, Currency → Code → Currency: a type cannot be made of itself`,
    ]);
  });
});

test.describe("a wrong type, in each format", () => {
  test("setup-audit's format: at the type however deep, with the nearest type", () => {
    const plan = `events:
  Paid:
    properties:
      type: object
      properties:
        order_id: { type: strng }
`;
    const file = join(folderWith({ "plan.yaml": plan }), "plan.yaml");
    expect(errorsOf(file)).toEqual([
      `${at(file, plan, "strng")} events.Paid.properties.properties.order_id.type: the schema of "Paid" is not a valid JSON Schema: \`properties.order_id.type\` must be one of "array", "boolean", "integer", "null", "number", "object", "string", not "strng" — did you mean "string"?`,
    ]);
  });

  test("a Segment export: at the exact key of the event's schema, not at a line of its parent", () => {
    const exported = `{
  "rules": {
    "events": [
      {
        "name": "Order Completed",
        "rules": {
          "$schema": "http://json-schema.org/draft-07/schema#",
          "type": "object",
          "properties": {
            "context": {},
            "properties": {
              "type": "object",
              "properties": {
                "order_id": { "type": "strng" }
              }
            }
          }
        }
      }
    ]
  }
}
`;
    const file = join(folderWith({ "segment.json": exported }), "segment.json");
    const [error] = errorsOf(file);
    expect(error).toMatch(
      `${at(file, exported, '"strng"')} rules.events[0].rules.properties.properties.properties.order_id.type: the schema of "Order Completed" is not a valid JSON Schema: `,
    );
  });

  test("a Segment export: a wrong type outside the event's properties is an error too, at its key", () => {
    const exported = `{
  "rules": [
    {
      "type": "TRACK",
      "key": "Order Completed",
      "jsonSchema": {
        "properties": {
          "context": { "type": "objct" },
          "properties": { "type": "object" }
        }
      }
    }
  ]
}
`;
    const file = join(folderWith({ "rules.json": exported }), "rules.json");
    expect(errorsOf(file)[0]).toMatch(
      `${at(file, exported, '"objct"')} rules[0].jsonSchema.properties.context.type: the schema of "Order Completed" is not a valid JSON Schema: \`properties.context.type\` must be one of`,
    );
  });

  test("a RudderStack property's and custom type's type, and a list of types, at the value at fault", () => {
    const types = '"string", "number", "integer", "boolean", "array", "object", "null"';
    const orCustom = `${types}, or a custom type ("#custom-type:id")`;
    for (const [name, text, wrong, path, message] of [
      [
        "properties.yaml",
        PROPERTIES.replace("type: string", "type: strng"),
        "strng",
        "spec.properties[0].type",
        `must be one of ${orCustom}, not "strng" — did you mean "string"?`,
      ],
      [
        "properties.yaml",
        PROPERTIES.replace("type: string", "type: string, nul"),
        "string, nul",
        "spec.properties[0].type",
        `must be one of ${orCustom}, not "nul" — did you mean "null"?`,
      ],
      [
        "properties.yaml",
        PROPERTIES.replace("type: string", "types: [string, nul]"),
        "nul",
        "spec.properties[0].types[1]",
        `must be one of ${types}, not "nul" — did you mean "null"?`,
      ],
      [
        "properties.yaml",
        PROPERTIES.replace("type: string", "type: array\n      config: { item_types: [strng] }"),
        "strng",
        "spec.properties[0].config.item_types[0]",
        `must be one of ${types}, not "strng" — did you mean "string"?`,
      ],
      [
        "types.yaml",
        TYPES.replace("type: string", "type: strng"),
        "strng",
        "spec.types[0].type",
        `must be one of ${orCustom}, not "strng" — did you mean "string"?`,
      ],
    ] as const) {
      const folder = catalog({ [name]: text });
      expect(errorsOf(folder), text).toEqual([`${at(join(folder, name), text, wrong)} ${path}: ${message}`]);
    }
  });

  test("a RudderStack property's config keyword that JSON Schema rejects is an error at that keyword", () => {
    const properties = PROPERTIES.replace("type: string\n", "type: string\n      config: { minLength: two }\n");
    const folder = catalog({ "properties.yaml": properties });
    expect(errorsOf(folder)).toEqual([
      `${at(join(folder, "properties.yaml"), properties, "two")} spec.properties[0].config.minLength: the config of property order_id is not a valid JSON Schema: \`minLength\` must be integer`,
    ]);
  });
});

test.describe("an event defined twice", () => {
  test("setup-audit's format, YAML or JSON: a duplicate key, at the second", () => {
    const yaml = "events:\n  Paid: {}\n  Signed Up: {}\n  Paid: { properties: { type: object } }\n";
    const json = '{ "events": { "Paid": {}, "Paid": {} } }';
    const folder = folderWith({ "plan.yaml": yaml, "plan.json": json });
    expect(errorsOf(join(folder, "plan.yaml"))).toEqual([
      `${at(join(folder, "plan.yaml"), yaml, "Paid", 2)} events: duplicate key "Paid": a key may appear only once in a mapping`,
    ]);
    expect(errorsOf(join(folder, "plan.json"))).toEqual([
      `${at(join(folder, "plan.json"), json, '"Paid"', 2)} events: duplicate key "Paid": a key may appear only once in a mapping`,
    ]);
  });

  test("a Segment export: two rules.events[] or two TRACK rules of one name, two IDENTIFY rules, at the second", () => {
    const config = `rules:
  events:
    - { name: Paid, rules: {} }
    - { name: Signed Up, rules: {} }
    - { name: Paid, rules: {} }
`;
    const publicApi = `rules:
  - { type: TRACK, key: Paid, jsonSchema: {} }
  - { type: IDENTIFY, jsonSchema: {} }
  - { type: TRACK, key: Paid, jsonSchema: {} }
  - { type: IDENTIFY, jsonSchema: {} }
`;
    const folder = folderWith({ "config.yaml": config, "public.yaml": publicApi });
    expect(errorsOf(join(folder, "config.yaml"))).toEqual([
      `${at(join(folder, "config.yaml"), config, "Paid", 2)} rules.events[2].name: "Paid" is planned twice (first at rules.events[0].name): a plan gives each event one schema, keep one`,
    ]);
    const publicFile = join(folder, "public.yaml");
    expect(errorsOf(publicFile)).toEqual([
      `${at(publicFile, publicApi, "Paid", 2)} rules[2].key: "Paid" is planned twice (first at rules[0].key): a plan gives each event one schema, keep one`,
      `${at(publicFile, publicApi, "IDENTIFY", 2)} rules[3].type: identify is planned twice (first at rules[1].type): a plan gives identify one schema, keep one`,
    ]);
  });

  test("a RudderStack catalog: two events of one name, an id defined twice, two rules of one event, at the second", () => {
    const twoNames = `${EVENTS}    - id: order_completed_v2
      name: Order Completed
      event_type: track
`;
    const folder = catalog({ "events.yaml": twoNames });
    expect(errorsOf(folder)).toEqual([
      `${at(join(folder, "events.yaml"), twoNames, "Order Completed", 2)} spec.events[1].name: "Order Completed" is the name of another event too (order_completed, events.yaml spec.events[0]): each event once`,
    ]);
    const twoIds = `${PROPERTIES}    - id: order_id
      name: order_ref
      type: string
`;
    const idFolder = catalog({ "properties.yaml": twoIds });
    expect(errorsOf(idFolder)).toEqual([
      `${at(join(idFolder, "properties.yaml"), twoIds, "order_id", 3)} spec.properties[2].id: the property order_id is defined twice (first at properties.yaml spec.properties[0]): each id once`,
    ]);
    const twoRules = `${PLAN}    - type: event_rule
      id: order_completed_again
      event: "#event:order_completed"
`;
    const ruleFolder = catalog({ "plan.yaml": twoRules });
    expect(errorsOf(ruleFolder)).toEqual([
      `${at(join(ruleFolder, "plan.yaml"), twoRules, '"#event:order_completed"', 2)} spec.rules[1].event: "Order Completed" is planned twice (first at spec.rules[0].event): a plan gives each event one schema, keep one`,
    ]);
  });
});
