import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { formatSpecError } from "../../src/audit-spec/errors.js";
import { loadTrackingPlan } from "../../src/tracking-plan/load.js";
import type { TrackingPlan } from "../../src/tracking-plan/types.js";
import { folderWith, ORDER_PLAN } from "../support/tracking-plan.js";

function loaded(path: string, format: Parameters<typeof loadTrackingPlan>[1] = "auto"): TrackingPlan {
  const load = loadTrackingPlan(path, format);
  if (!load.ok) throw new Error(load.errors.map(formatSpecError).join("\n"));
  return load.plan;
}

function errorsOf(path: string, format: Parameters<typeof loadTrackingPlan>[1] = "auto"): string[] {
  const load = loadTrackingPlan(path, format);
  return load.ok ? [] : load.errors.map(formatSpecError);
}

test.describe("setup-audit's format", () => {
  test("reads each event's schema and the identify schema, and validates with them", () => {
    const plan = loaded(join(folderWith({ "plan.yaml": ORDER_PLAN }), "plan.yaml"));
    expect(plan).toMatchObject({ format: "setup-audit", events: ["Order Completed", "Signed Up"], hasIdentify: true });
    expect(plan.validateTrack("Order Completed", { order_id: "o_1", revenue: 12.5, currency: "EUR" })).toEqual([]);
    expect(plan.validateTrack("Order Completed", { order_id: "o_1", revenue: "12.50", coupon: "x" })).toEqual([
      {
        pointer: "/coupon",
        rule: "additionalProperties",
        expected: "no key the plan does not list",
        type: "string",
        value: "x",
      },
      { pointer: "/revenue", rule: "type", expected: "a number", type: "string", value: "12.50" },
    ]);
    expect(plan.validateTrack("Order Completed", null)).toEqual([
      { pointer: "/order_id", rule: "required", expected: "present", type: "missing" },
      { pointer: "/revenue", rule: "required", expected: "present", type: "missing" },
    ]);
    expect(plan.validateTrack("Signed Up", { anything: 1 })).toEqual([]);
    expect(plan.validateTrack("Order Complete", {})).toBeNull();
    expect(plan.validateIdentify({ email: "a" })).toEqual([
      { pointer: "/plan", rule: "required", expected: "present", type: "missing" },
    ]);
  });

  test("reads the same plan written as JSON, with draft-07 and formats", () => {
    const json = {
      events: {
        Paid: {
          properties: {
            $schema: "http://json-schema.org/draft-07/schema#",
            properties: { at: { type: "string", format: "date-time" } },
          },
        },
      },
    };
    const plan = loaded(join(folderWith({ "plan.json": JSON.stringify(json) }), "plan.json"));
    expect(plan.hasIdentify).toBe(false);
    expect(plan.validateIdentify({})).toBeNull();
    expect(plan.validateTrack("Paid", { at: "yesterday" })).toEqual([
      { pointer: "/at", rule: "format", expected: "a date-time", type: "string", value: "yesterday" },
    ]);
    expect(plan.validateTrack("Paid", { at: "2030-01-01T10:00:00Z" })).toEqual([]);
  });

  test("a broken plan gives each problem at file:line:col", () => {
    const folder = folderWith({
      "plan.yaml": "events:\n  Paid:\n    propertes: {}\n",
      "bad-type.yaml": "events:\n  Paid:\n    properties:\n      type: numbr\n",
      "syntax.yaml": "events:\n  Paid: [\n",
      "other.yaml": "name: not a plan\n",
    });
    expect(errorsOf(join(folder, "plan.yaml"))).toEqual([
      `${join(folder, "plan.yaml")}:3:5 events.Paid.propertes: unknown key "propertes": an event has properties and description`,
    ]);
    const [badType] = errorsOf(join(folder, "bad-type.yaml"));
    expect(badType).toMatch(
      /bad-type\.yaml:4:13 events\.Paid\.properties\.type: the schema of "Paid" is not a valid JSON Schema: `type` must be one of "array", "boolean", "integer", "null", "number", "object", "string", not "numbr" — did you mean "number"\?$/,
    );
    expect(errorsOf(join(folder, "syntax.yaml"))[0]).toMatch(/syntax\.yaml:\d+:\d+ invalid YAML or JSON: /);
    expect(errorsOf(join(folder, "other.yaml"))).toEqual([
      `${join(folder, "other.yaml")}:1:1 is not a tracking plan: expected events (setup-audit's format), rules (a Segment Protocols export), or a folder (a RudderStack rudder-cli catalog)`,
    ]);
    expect(errorsOf(join(folder, "missing.yaml"))[0]).toContain(
      "missing.yaml:1:1 cannot read the tracking plan: no such file or folder",
    );
  });
});

const SEGMENT_EVENT_RULES = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  labels: { team: "checkout" },
  properties: {
    context: {},
    properties: {
      type: "object",
      required: ["order_id"],
      properties: { order_id: { type: "string" }, total: { $ref: "#/definitions/amount" } },
    },
  },
  definitions: { amount: { type: "number" } },
};

test.describe("Segment Protocols exports", () => {
  test("reads the Config API's shape: rules.events[] and rules.identify, ignoring Segment's labels", () => {
    const exported = {
      name: "workspaces/acme/tracking-plans/rs_1",
      rules: {
        events: [{ name: "Order Completed", version: 1, rules: SEGMENT_EVENT_RULES }],
        identify: {
          $schema: "http://json-schema.org/draft-07/schema#",
          properties: { traits: { type: "object", required: ["plan"] } },
        },
      },
    };
    const plan = loaded(join(folderWith({ "segment.json": JSON.stringify(exported) }), "segment.json"));
    expect(plan).toMatchObject({ format: "segment", events: ["Order Completed"], hasIdentify: true });
    expect(
      plan
        .validateTrack("Order Completed", { order_id: 5, total: "9" })!
        .map(({ pointer, rule }) => `${pointer} ${rule}`),
    ).toEqual(["/order_id type", "/total type"]);
    expect(plan.validateIdentify({ plan: "pro" })).toEqual([]);
  });

  test("reads the Public API's shape: rules[] of TRACK and IDENTIFY, under data", () => {
    const exported = {
      data: {
        rules: [
          { type: "COMMON", jsonSchema: {} },
          { type: "TRACK", key: "Order Completed", version: 1, jsonSchema: SEGMENT_EVENT_RULES },
          { type: "IDENTIFY", jsonSchema: { properties: { traits: { required: ["plan"] } } } },
        ],
      },
    };
    const plan = loaded(join(folderWith({ "rules.json": JSON.stringify(exported) }), "rules.json"), "segment");
    expect(plan).toMatchObject({ format: "segment", events: ["Order Completed"], hasIdentify: true });
    expect(plan.validateTrack("Order Completed", {})).toEqual([
      { pointer: "/order_id", rule: "required", expected: "present", type: "missing" },
    ]);
    expect(plan.validateIdentify({})).toHaveLength(1);
  });

  test("a TRACK rule without a key is an error at its place", () => {
    const folder = folderWith({ "rules.json": '{\n  "rules": [\n    { "type": "TRACK", "jsonSchema": {} }\n  ]\n}\n' });
    expect(errorsOf(join(folder, "rules.json"))).toEqual([
      `${join(folder, "rules.json")}:3:5 rules[0].key: a TRACK rule needs key, the event's name`,
    ]);
  });
});

test.describe("RudderStack rudder-cli catalogs", () => {
  const catalog = {
    "events.yaml": `version: rudder/v1
kind: events
metadata: { name: shop_events }
spec:
  events:
    - { id: order_completed, name: Order Completed, event_type: track }
    - { id: identify_user, name: Identify, event_type: identify }
`,
    "properties.yaml": `version: rudder/v1
kind: properties
metadata: { name: shop_properties }
spec:
  properties:
    - { id: order_id, name: order_id, type: string }
    - { id: revenue, name: revenue, type: number, config: { minimum: 0 } }
    - { id: currency, name: currency, type: "#custom-type:Currency" }
    - { id: plan, name: plan, type: string, config: { enum: [free, pro] } }
`,
    "types/custom-types.yaml": `version: rudder/v1
kind: custom-types
metadata: { name: shop_types }
spec:
  types:
    - { id: Currency, name: Currency, type: string, config: { enum: [USD, EUR] } }
`,
    "plans/shop.yaml": `version: rudder/v1
kind: tracking-plan
metadata: { name: shop }
spec:
  id: shop
  display_name: Shop
  rules:
    - type: event_rule
      id: order_completed_rule
      event: "#event:order_completed"
      additional_properties: false
      properties:
        - { property: "#property:order_id", required: true }
        - { property: "#property:revenue", required: true }
        - { property: "#property:currency" }
    - type: event_rule
      id: identify_rule
      event: "#event:identify_user"
      properties:
        - { property: "#property:plan", required: true }
`,
  };

  test("reads a catalog folder: events, properties, custom types and the tracking plan's rules", () => {
    const plan = loaded(folderWith(catalog));
    expect(plan).toMatchObject({ format: "rudderstack", events: ["Order Completed"], hasIdentify: true });
    expect(plan.validateTrack("Order Completed", { order_id: "o_1", revenue: 3, currency: "USD" })).toEqual([]);
    expect(
      plan
        .validateTrack("Order Completed", { order_id: "o_1", revenue: -1, currency: "GBP", coupon: "x" })!
        .map(({ pointer, rule }) => `${pointer} ${rule}`),
    ).toEqual(["/coupon additionalProperties", "/revenue minimum", "/currency enum"]);
    expect(plan.validateIdentify({ plan: "team" })).toEqual([
      { pointer: "/plan", rule: "enum", expected: 'one of "free", "pro"', type: "string", value: "team" },
    ]);
  });

  test("reads v0.1's kind: tp with $ref and allow_unplanned", () => {
    const folder = folderWith({
      "catalog.yaml": `version: rudder/v0.1
kind: events
metadata: { name: shop_events }
spec:
  events:
    - { id: signed_up, name: Signed Up, event_type: track }
`,
      "props.yaml": `version: rudder/v0.1
kind: properties
metadata: { name: props }
spec:
  properties:
    - { id: method, name: method, type: string, propConfig: { enum: [email, google] } }
`,
      "tp.yaml": `version: rudder/v0.1
kind: tp
metadata: { name: plan }
spec:
  rules:
    - type: event_rule
      id: signed_up_rule
      event: { $ref: "#/events/shop_events/signed_up", allow_unplanned: false }
      properties:
        - { $ref: "#/properties/props/method", required: true }
`,
    });
    const plan = loaded(folder, "rudderstack");
    expect(plan.validateTrack("Signed Up", { method: "email" })).toEqual([]);
    expect(plan.validateTrack("Signed Up", { method: "email", extra: 1 })!.map(({ rule }) => rule)).toEqual([
      "additionalProperties",
    ]);
  });

  test("a rule naming an event the catalog lacks is an error at its place; a folder without a plan is one too", () => {
    const broken = {
      ...catalog,
      "plans/shop.yaml": catalog["plans/shop.yaml"].replace("#event:order_completed", "#event:order_complete"),
    };
    const folder = folderWith(broken);
    expect(errorsOf(folder)).toEqual([
      `${join(folder, "plans/shop.yaml")}:10:14 spec.rules[0].event: names an event the catalog does not define (order_complete)`,
    ]);
    const noPlan = folderWith({ "events.yaml": catalog["events.yaml"] });
    expect(errorsOf(noPlan)).toEqual([
      `${noPlan}:1:1 the folder holds no rudder-cli tracking plan (a YAML file with kind: tracking-plan)`,
    ]);
    expect(errorsOf(noPlan, "segment")[0]).toContain("is a folder, which only a RudderStack catalog is");
  });
});
