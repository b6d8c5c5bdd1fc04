import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { planCoverage } from "../../src/checks/plan/coverage.js";
import { planEvents } from "../../src/checks/plan/events.js";
import { planProperties } from "../../src/checks/plan/properties.js";
import { violationSentence } from "../../src/checks/plan/sentences.js";
import { toCall } from "../../src/gather/recorded-call.js";
import { loadTrackingPlan } from "../../src/tracking-plan/load.js";
import type { TrackingPlan } from "../../src/tracking-plan/types.js";
import { callWith, contextOf, pageWith, specWith } from "../support/artifacts.js";
import { folderWith, ORDER_PLAN } from "../support/tracking-plan.js";

function compiledPlan(): TrackingPlan {
  const load = loadTrackingPlan(join(folderWith({ "plan.yaml": ORDER_PLAN }), "plan.yaml"), "auto");
  if (!load.ok) throw new Error("the test's plan is invalid");
  return load.plan;
}

let plan: TrackingPlan;
test.beforeAll(() => {
  plan = compiledPlan();
});
const order = (properties: unknown) => callWith({ name: "Order Completed", properties });
const contextWith = (
  calls: ReturnType<typeof callWith>[],
  unplanned: "warn" | "fail" | "off" = "warn",
  pages = [pageWith({ calls })],
) => ({
  ...contextOf(pages, specWith({ trackingPlan: { file: "plan.yaml", unplanned } })),
  trackingPlan: plan,
});

test.describe("the violation sentences", () => {
  test("say what the plan expects and what was sent, the value only when plan-like", () => {
    expect(
      violationSentence("Order Completed", {
        pointer: "/revenue",
        rule: "type",
        expected: "a number",
        type: "string",
        value: "12.50",
      }),
    ).toBe("Order Completed: `revenue` must be a number (was a string)");
    expect(
      violationSentence("Order Completed", {
        pointer: "/order_id",
        rule: "required",
        expected: "present",
        type: "missing",
      }),
    ).toBe("Order Completed: `order_id` is required but missing");
    expect(
      violationSentence("Order Completed", {
        pointer: "/currency",
        rule: "enum",
        expected: 'one of "USD", "EUR"',
        type: "string",
        value: "gbp",
      }),
    ).toBe('Order Completed: `currency` must be one of "USD", "EUR" (was "gbp")');
    expect(
      violationSentence("Order Completed", {
        pointer: "/coupon",
        rule: "additionalProperties",
        expected: "no key the plan does not list",
        type: "string",
        value: "Jane Doe",
      }),
    ).toBe("Order Completed: `coupon` is not in the plan, which allows no other key (was a string)");
    expect(
      violationSentence("identify traits", {
        pointer: "/items/0/sku",
        rule: "pattern",
        expected: "text matching /^S-/",
        type: "null",
        value: null,
      }),
    ).toBe("identify traits: `items.0.sku` must be text matching /^S-/ (was null)");
    expect(
      violationSentence("Order Completed", {
        pointer: "",
        rule: "type",
        expected: "an object",
        type: "array",
        value: [],
      }),
    ).toBe("Order Completed: the properties must be an object (was an array)");
  });
});

test.describe("plan.properties", () => {
  test("passes when every planned call carries what the plan says", () => {
    const [finding] = planProperties.evaluate(
      contextWith([
        order({ order_id: "o_1", revenue: 12.5 }),
        callWith({ kind: "identify", name: "u_1", properties: { plan: "pro" } }),
      ]),
    );
    expect(finding).toMatchObject({
      check: "plan.properties",
      status: "pass",
      page: "home",
      viewport: "desktop",
      message: "2 planned calls (Order Completed, identify traits) carry what the plan says.",
    });
  });

  test("fails with each violation's sentence, and its pointer, call, journey step and route in evidence", () => {
    const [finding] = planProperties.evaluate(
      contextWith([{ ...order({ order_id: "o_1", revenue: "12.50", coupon: "SPRING" }), step: 1, route: "/checkout" }]),
    );
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      "On desktop: Order Completed: `coupon` is not in the plan, which allows no other key (was a string); Order Completed: `revenue` must be a number (was a string). Send what the plan says, or change the plan.",
    );
    expect(finding?.evidence).toEqual({
      judgedCalls: 1,
      violations: [
        {
          event: "Order Completed",
          call: 'track("Order Completed")',
          callIndex: 0,
          atMs: 500,
          step: 1,
          route: "/checkout",
          pointer: "/coupon",
          rule: "additionalProperties",
          expected: "no key the plan does not list",
          type: "string",
        },
        {
          event: "Order Completed",
          call: 'track("Order Completed")',
          callIndex: 0,
          atMs: 500,
          step: 1,
          route: "/checkout",
          pointer: "/revenue",
          rule: "type",
          expected: "a number",
          type: "string",
        },
      ],
    });
  });

  test("fails an identify without a required trait, and a value outside the enum, showing a plan-like value", () => {
    const [finding] = planProperties.evaluate(
      contextWith([
        order({ order_id: "o_1", revenue: 1, currency: "gbp" }),
        callWith({ kind: "identify", name: "u_1", properties: { email: "x" } }),
      ]),
    );
    expect(finding?.message).toBe(
      'On desktop: Order Completed: `currency` must be one of "USD", "EUR" (was "gbp"); identify traits: `plan` is required but missing. Send what the plan says, or change the plan.',
    );
    expect((finding?.evidence.violations as { value?: unknown }[])[0]?.value).toBe("gbp");
  });

  test("judges the properties of a track made with an event object (Amplitude's event_properties) as those of track(name, properties)", () => {
    const sdk = { traits: "_properties.$set", properties: "event_properties", pageEvent: null };
    const recorded = (...args: unknown[]) =>
      toCall(
        { type: "call", kind: "track", method: "track", args, state: "direct", at: 500, url: "http://127.0.0.1:1/" },
        (at) => at,
        sdk,
      );
    const eventObject = (properties: Record<string, unknown>) =>
      recorded({ event_type: "Order Completed", event_properties: properties });
    const [broken] = planProperties.evaluate(
      contextWith([eventObject({ order_id: "o_1", revenue: "12.50" }), recorded("Order Completed", { revenue: 3 })]),
    );
    expect(broken?.message).toBe(
      "On desktop: Order Completed: `revenue` must be a number (was a string); Order Completed: `order_id` is required but missing. Send what the plan says, or change the plan.",
    );
    expect(
      (broken?.evidence.violations as { callIndex: number; pointer: string }[]).map(
        ({ callIndex, pointer }) => `${callIndex} ${pointer}`,
      ),
    ).toEqual(["0 /revenue", "1 /order_id"]);
    const [kept] = planProperties.evaluate(contextWith([eventObject({ order_id: "o_1", revenue: 12.5 })]));
    expect(kept).toMatchObject({ status: "pass", evidence: { judgedCalls: 1, violations: [] } });
  });

  test("skips a page with no planned call (no pass on no evidence), and a page that did not load", () => {
    const [noPlanned] = planProperties.evaluate(contextWith([callWith({ name: "Newsletter Opened" })]));
    expect(noPlanned).toMatchObject({
      status: "skip",
      message: "Not judged: the page made no call the tracking plan covers.",
    });
    const [unloaded] = planProperties.evaluate(
      contextWith([], "warn", [pageWith({ loadError: "net::ERR_CONNECTION_REFUSED" })]),
    );
    expect(unloaded?.status).toBe("skip");
  });

  test("gives no finding without a trackingPlan", () => {
    expect(planProperties.evaluate(contextOf([pageWith({ calls: [order({})] })]))).toEqual([]);
  });
});

test.describe("plan.events", () => {
  test("passes when every track is planned", () => {
    const [finding] = planEvents.evaluate(contextWith([order({}), callWith({ name: "Signed Up" })]));
    expect(finding).toMatchObject({
      status: "pass",
      message: "Every track (Order Completed, Signed Up) is in the plan.",
    });
  });

  test("warns on an unplanned name with the plan's nearest one; unplanned: fail fails it, off skips it", () => {
    const calls = [callWith({ name: "Order Complete" })];
    const [warned] = planEvents.evaluate(contextWith(calls));
    expect(warned).toMatchObject({
      status: "warn",
      message:
        "On desktop: `Order Complete` is not in the plan (did you mean `Order Completed`?). Fix the name, or add the event to the plan.",
    });
    expect(warned?.evidence).toEqual({
      tracks: ["Order Complete"],
      unplanned: [{ name: "Order Complete", nearest: "Order Completed" }],
    });
    expect(planEvents.evaluate(contextWith(calls, "fail"))[0]?.status).toBe("fail");
    expect(planEvents.evaluate(contextWith(calls, "off"))[0]?.status).toBe("skip");
  });

  test("skips a page with no track", () => {
    expect(
      planEvents.evaluate(contextWith([callWith({ kind: "identify", name: "u_1", properties: { plan: "pro" } })]))[0],
    ).toMatchObject({ status: "skip", message: "Not judged: the page made no track call." });
  });
});

test.describe("plan.coverage", () => {
  test("warns on planned events no page fired, with seen and unseen in evidence", () => {
    const [finding] = planCoverage.evaluate(contextWith([order({})]));
    expect(finding).toMatchObject({
      status: "warn",
      page: null,
      viewport: null,
      message:
        "1 of 2 planned events fired on no audited page × viewport: Signed Up. Add the journeys that fire them, or remove them from the plan.",
    });
    expect(finding?.evidence).toEqual({ seen: ["Order Completed"], unseen: ["Signed Up"], planned: 2 });
  });

  test("passes when every planned event fired; skips when no page loaded", () => {
    expect(planCoverage.evaluate(contextWith([order({}), callWith({ name: "Signed Up" })]))[0]?.status).toBe("pass");
    expect(planCoverage.evaluate(contextWith([], "warn", [pageWith({ loadError: "timeout" })]))[0]?.status).toBe(
      "skip",
    );
  });
});
