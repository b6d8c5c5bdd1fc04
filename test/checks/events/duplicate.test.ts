import { expect, test } from "@playwright/test";
import type { CapturedCall } from "../../../src/artifacts/types.js";
import { eventsDuplicate } from "../../../src/checks/events/duplicate.js";
import { callWith, contextOf, pageWith, specWith } from "../../support/artifacts.js";

const spec = specWith({
  pages: [
    { id: "app", path: "/app/", steps: [{ click: "#cta" }, { click: "#cta" }] },
    { id: "home", path: "/" },
  ],
});
const click = (step: number | null, overrides: Partial<CapturedCall> = {}) =>
  callWith({ name: "CTA Clicked", properties: { plan: "pro", seats: 3 }, step, route: "/app/pricing", ...overrides });
const judge = (calls: CapturedCall[], page = "app") =>
  eventsDuplicate.evaluate(contextOf([pageWith({ page, calls })], spec));

test("passes when the same click in two steps sent its track once each", () => {
  const [finding] = judge([click(0), click(1)]);
  expect(finding).toMatchObject({ check: "events.duplicate", status: "pass", page: "app" });
});

test("fails on a track made twice with equal properties in one step, naming the step by its number from 1 and its action, as the evidence does", () => {
  const [finding] = judge([
    click(1, { atMs: 2000 }),
    click(1, { atMs: 2003, properties: { seats: 3, plan: "pro" } }),
    click(0, { atMs: 1000 }),
  ]);
  expect(finding?.status).toBe("fail");
  expect(finding?.message).toContain(
    '"CTA Clicked" was made 2 times with equal properties less than 1 s apart during step 2 (click "#cta") on /app/pricing',
  );
  // The evidence names the step in the message's words; its index counts from 0, as the calls' `step` does.
  expect(finding?.evidence).toEqual({
    duplicates: [
      {
        name: "CTA Clicked",
        step: 'step 2 (click "#cta")',
        stepIndex: 1,
        routes: ["/app/pricing"],
        times: 2,
        atMs: [2000, 2003],
      },
    ],
  });
});

test("repeats at least 1 s apart (a carousel's impressions, a timer) are no duplicates; those less than 1 s apart among them are", () => {
  const slide = (atMs: number) =>
    callWith({ name: "Slide Viewed", properties: { carousel: "hero" }, step: null, route: "/", atMs });
  // No journey: every call was made before the first step.
  const carousel = [slide(1000), slide(2500), slide(4000), slide(5500)];
  const [passed] = judge(carousel, "home");
  expect(passed?.status).toBe("pass");
  expect(passed?.message).toContain('"Slide Viewed" repeated at least 1 s apart');
  const [failed] = judge([...carousel, slide(2502)], "home");
  expect(failed?.status).toBe("fail");
  expect(failed?.message).toContain(
    '"Slide Viewed" was made 2 times with equal properties less than 1 s apart before the first step on /',
  );
  expect(failed?.evidence.duplicates).toMatchObject([
    { step: "before the first step", stepIndex: null, atMs: [2500, 2502] },
  ]);
  // The same bound in a journey's step: a timer's repeats during one wait.
  expect(judge([click(0, { atMs: 100 }), click(0, { atMs: 1100 }), click(0, { atMs: 2100 })])[0]?.status).toBe("pass");
});

test("fails on a repeat before the first step", () => {
  const [finding] = judge([click(null), click(null)]);
  expect(finding?.message).toContain("before the first step");
});

test("other properties, another name, a page view or a lost call make no duplicate", () => {
  const calls = [
    click(0),
    click(0, { properties: { plan: "team", seats: 3 } }),
    click(0, { name: "CTA Seen" }),
    click(0, { kind: "page" }),
    click(0, { state: "lost" }),
  ];
  expect(judge(calls)[0]?.status).toBe("pass");
});

test("skips a page without tracks, and a journey's calls saved before steps were noted", () => {
  expect(judge([])[0]?.status).toBe("skip");
  const unnoted = [callWith({ name: "CTA Clicked" }), callWith({ name: "CTA Clicked" })];
  expect(judge(unnoted)[0]).toMatchObject({ status: "skip", message: expect.stringContaining("saved before") });
  // Without a journey every call was made before the first step.
  expect(judge(unnoted, "home")[0]?.status).toBe("fail");
});

test("skips a journey whose calls were read from its collect requests, saying so", () => {
  const read = [callWith({ name: "CTA Clicked" }), callWith({ name: "CTA Clicked" })];
  const page = pageWith({ page: "app", calls: read, callsFromNetwork: { reason: "frozen", detail: "frozen" } });
  expect(eventsDuplicate.evaluate(contextOf([page], spec))[0]).toMatchObject({
    status: "skip",
    message: expect.stringContaining("read from its collect requests"),
  });
});

test("an experiment's exposure sent twice is left to experiment.exposure", () => {
  const withExposure = specWith({
    pages: [{ id: "app", path: "/app/" }],
    goals: [{ name: "Signup completed", event: "signup_success" }],
    experiments: [
      {
        name: "Pricing CTA copy",
        page: "app",
        selector: "#cta",
        goals: ["Signup completed"],
        exposure: { event: "Experiment Viewed", properties: {}, variationProperty: "variation_id" },
      },
    ],
  });
  const seen = () => callWith({ name: "Experiment Viewed", properties: { experiment_id: "cta" }, step: null });
  expect(
    eventsDuplicate.evaluate(
      contextOf([pageWith({ page: "app", calls: [seen(), seen(), click(null)] })], withExposure),
    )[0]?.status,
  ).toBe("pass");
});
