import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { parse } from "yaml";
import { draftTrackingPlan, type DraftCall } from "../../src/tracking-plan/draft.js";
import { loadTrackingPlan } from "../../src/tracking-plan/load.js";
import { folderWith } from "../support/tracking-plan.js";

const order = (properties: unknown, name = "Order Completed"): DraftCall => ({ kind: "track", name, properties });

test("drafts one schema per event: types, the keys every call sent as required, enums of few plan-like values", () => {
  const text = draftTrackingPlan(
    [
      order({ order_id: "O-1", revenue: 12.5, tier: "gold" }),
      order({ order_id: "O-2", revenue: 3, tier: "silver" }),
      { kind: "identify", name: "u_1", properties: { plan: "pro" } },
    ],
    "a test",
  );
  expect(text).toBe(`# A tracking plan drafted by setup-audit plan draft from a test.
# Confirm what each "# check:" says before you trust it.
events:
  "Order Completed":
    properties:
      type: object
      required: ["order_id", "revenue", "tier"]
      properties:
        "order_id": { type: string }
        "revenue": { type: number }
        "tier": { enum: ["gold", "silver"] }  # check: the values seen; add the others it may take
      additionalProperties: false  # check: only the keys seen are allowed
identify:
  traits:
    type: object
    required: ["plan"]
    properties:
      "plan": { enum: ["pro"] }  # check: the value seen; add the others it may take
    additionalProperties: false  # check: only the keys seen are allowed
`);
});

test("flags where the calls disagree: two types, a key some calls lack, a nested value, two close names", () => {
  const text = draftTrackingPlan(
    [order({ revenue: 1, items: [1] }), order({ revenue: "1" }), order(null, "Order Complete")],
    "a test",
  );
  expect(text).toContain(
    '"revenue": { type: [number, string] }  # check: sent as number and string: keep the type the plan means',
  );
  expect(text).toContain(
    '"items": { type: array }  # check: sent by 1 of 2 calls: not required; nested: its own keys are not drafted',
  );
  expect(text).toContain('"Order Complete":  # check: close to "Order Completed": one event under two names?');
  expect(draftTrackingPlan([], "a test")).toContain("events: {}  # check: the run made no track call");
});

test("a draft is a plan the loader reads, and the calls it was drafted from break none of it", () => {
  const calls = [
    order({ order_id: "O-1", revenue: 12.5, note: "Call me, Jane" }),
    order({ order_id: "O-2", revenue: 3 }),
    order(undefined, "Signed Up"),
  ];
  const text = draftTrackingPlan(calls, "a test");
  expect(parse(text)).toMatchObject({ events: { "Signed Up": { properties: { type: "object" } } } });
  const load = loadTrackingPlan(join(folderWith({ "plan.yaml": text }), "plan.yaml"), "auto");
  if (!load.ok) throw new Error(JSON.stringify(load.errors));
  expect(calls.map((call) => load.plan.validateTrack(call.name!, call.properties))).toEqual([[], [], []]);
});
