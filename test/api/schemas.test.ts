import { expect, test } from "@playwright/test";
import { goalListSchema, parseList, projectListSchema } from "../../src/api/schemas.js";

test("unknown fields are kept and missing ones tolerated", () => {
  const parsed = parseList(projectListSchema, JSON.stringify({ data: [{ key: "k", plan: "pro", nested: { a: 1 } }, {}], next: null }));
  expect(parsed).toEqual({ ok: true, data: [{ key: "k", plan: "pro", nested: { a: 1 } }, {}] });
});

test("a body that is not JSON says so", () => {
  const parsed = parseList(projectListSchema, '{"data": [');
  expect(parsed.ok).toBe(false);
  expect(!parsed.ok && parsed.problem).toMatch(/^the body is not JSON \(/);
});

test("a body of another shape names each field at fault", () => {
  expect(parseList(projectListSchema, JSON.stringify({ projects: [] }))).toEqual({ ok: false, problem: "data must be a list, not missing" });
  expect(parseList(projectListSchema, JSON.stringify({ data: ["p_1", { domains: "shop.test" }] }))).toEqual({
    ok: false,
    problem: 'data[0] must be a mapping, not text ("p_1"); data[1].domains must be a list, not text ("shop.test")',
  });
});

test("a goal's condition may be text or an object", () => {
  const body = JSON.stringify({ data: [{ name: "a", condition: "x" }, { name: "b", condition: { equals: "y", type: "event" } }] });
  expect(parseList(goalListSchema, body)).toEqual({ ok: true, data: [{ name: "a", condition: "x" }, { name: "b", condition: { equals: "y", type: "event" } }] });
});

test("more than three problems are counted, not all listed", () => {
  const parsed = parseList(projectListSchema, JSON.stringify({ data: [1, 2, 3, 4, 5] }));
  expect(!parsed.ok && parsed.problem).toContain("(and 2 more)");
});
