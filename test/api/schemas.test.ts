import { expect, test } from "@playwright/test";
import type { z } from "zod";
import { goalListSchema, parseList, projectListSchema, recentEventListSchema } from "../../src/api/schemas.js";

/** The service's list answers: validated leniently, then normalised into one shape whichever field names the service used. */

/** The one element of `{ "data": [element] }`, parsed and normalised. */
function onlyElement<T>(schema: z.ZodType<{ data: T[] }>, element: unknown): T {
  const parsed = parseList(schema, JSON.stringify({ data: [element] }));
  if (!parsed.ok) throw new Error(parsed.problem);
  expect(parsed.data).toHaveLength(1);
  return parsed.data[0]!;
}

test("unknown fields are allowed and missing ones tolerated", () => {
  const parsed = parseList(
    projectListSchema,
    JSON.stringify({ data: [{ key: "k", plan: "pro", nested: { a: 1 } }, {}], next: null }),
  );
  expect(parsed).toEqual({
    ok: true,
    data: [
      { id: null, name: null, keys: ["k"], identifiers: [{ field: "key", value: "k" }], workspace: null },
      { id: null, name: null, keys: [], identifiers: [], workspace: null },
    ],
  });
});

test("a body that is not JSON says so", () => {
  const parsed = parseList(projectListSchema, '{"data": [');
  expect(parsed.ok).toBe(false);
  expect(!parsed.ok && parsed.problem).toMatch(/^the body is not JSON \(/);
});

test("a body of another shape names each field at fault", () => {
  expect(parseList(projectListSchema, JSON.stringify({ projects: [] }))).toEqual({
    ok: false,
    problem: "data must be a list, not missing",
  });
  expect(parseList(projectListSchema, JSON.stringify({ data: ["p_1", { domains: "shop.test" }] }))).toEqual({
    ok: false,
    problem: 'data[0] must be a mapping, not text ("p_1"); data[1].domains must be a list, not text ("shop.test")',
  });
});

test("a problem names the field as the service spelled it, whichever alias it used", () => {
  expect(
    parseList(projectListSchema, JSON.stringify({ data: [{ projectKey: 5 }, { workspaceName: ["Acme"] }] })),
  ).toEqual({
    ok: false,
    problem: "data[0].projectKey must be text, not a number (5); data[1].workspaceName must be text, not a list",
  });
  expect(
    parseList(recentEventListSchema, JSON.stringify({ data: [{ type: "track", event: 7, received_at: false }] })),
  ).toEqual({
    ok: false,
    problem: "data[0].event must be text, not a number (7); data[0].received_at must be text, not false",
  });
});

test("more than three problems are counted, not all listed", () => {
  const parsed = parseList(projectListSchema, JSON.stringify({ data: [1, 2, 3, 4, 5] }));
  expect(!parsed.ok && parsed.problem).toContain("(and 2 more)");
});

test.describe("a project element", () => {
  test("carries every identifying value with the field it stood in, in the order matching tries them", () => {
    const element = {
      name: "Demo",
      url: "https://shop.example.test/app",
      domains: ["a.test", "b.test"],
      domain: "shop.example.test",
      id: 42,
      projectKey: "prj_b",
      key: "prj_a",
    };
    expect(onlyElement(projectListSchema, element)).toEqual({
      id: "42",
      name: "Demo",
      keys: ["prj_a", "prj_b"],
      identifiers: [
        { field: "key", value: "prj_a" },
        { field: "projectKey", value: "prj_b" },
        { field: "id", value: "42" },
        { field: "domain", value: "shop.example.test" },
        { field: "domains", value: "a.test" },
        { field: "domains", value: "b.test" },
        { field: "url", value: "https://shop.example.test/app" },
        { field: "name", value: "Demo" },
      ],
      workspace: null,
    });
  });

  test("names its key in key or projectKey", () => {
    expect(onlyElement(projectListSchema, { key: "prj_a" }).keys).toEqual(["prj_a"]);
    expect(onlyElement(projectListSchema, { projectKey: "prj_b" }).keys).toEqual(["prj_b"]);
  });
});

test.describe("the workspace", () => {
  const workspaceOf = (element: Record<string, unknown>) => onlyElement(projectListSchema, element).workspace;

  test("is read from workspace (a name or { id, name }), workspaceName or workspaceId", () => {
    expect(workspaceOf({ workspace: "Acme" })).toEqual({ id: null, name: "Acme", field: "workspace" });
    expect(workspaceOf({ workspace: { id: 7, name: "Acme" } })).toEqual({ id: "7", name: "Acme", field: "workspace" });
    expect(workspaceOf({ workspaceName: "Acme", workspaceId: "ws_1" })).toEqual({
      id: "ws_1",
      name: "Acme",
      field: "workspaceName",
    });
    expect(workspaceOf({ workspaceId: "ws_1" })).toEqual({ id: "ws_1", name: null, field: "workspaceId" });
  });

  test("is found nested one level down, named by the service's field path", () => {
    expect(workspaceOf({ key: "k", settings: { timezone: "UTC", workspace: { name: "Acme" } } })).toEqual({
      id: null,
      name: "Acme",
      field: "settings.workspace",
    });
    expect(workspaceOf({ owner: { workspaceName: "Acme" } })).toEqual({
      id: null,
      name: "Acme",
      field: "owner.workspaceName",
    });
  });

  test("is null when the element names none", () => {
    expect(workspaceOf({ key: "k", settings: { timezone: "UTC" }, workspace: {} })).toBeNull();
  });
});

test.describe("a goal", () => {
  const conditionOf = (goal: Record<string, unknown>) => onlyElement(goalListSchema, goal).condition;

  test("counts the event its condition names: the string itself, or an object's equals, value or event", () => {
    expect(onlyElement(goalListSchema, { name: "a", condition: "signup_success" })).toEqual({
      name: "a",
      condition: "signup_success",
    });
    expect(conditionOf({ condition: { type: "event", equals: "a" } })).toBe("a");
    expect(conditionOf({ condition: { value: "b" } })).toBe("b");
    expect(conditionOf({ condition: { event: "c" } })).toBe("c");
  });

  test("has no condition when it names none that can be read", () => {
    expect(conditionOf({ condition: { matches: "d.*" } })).toBeNull();
    expect(onlyElement(goalListSchema, { id: "g_1" })).toEqual({ name: null, condition: null });
  });
});

test.describe("a recent event", () => {
  const eventOf = (event: Record<string, unknown>) => onlyElement(recentEventListSchema, event);

  test("is read from the common field names", () => {
    expect(eventOf({ kind: "track", name: "signup_success", receivedAt: "2030-01-01T10:00:00.000Z" })).toEqual({
      kind: "track",
      name: "signup_success",
      receivedAtMs: Date.parse("2030-01-01T10:00:00.000Z"),
    });
    expect(eventOf({ type: "track", event: "x", received_at: "2030-01-01T10:00:00.000Z" })).toEqual({
      kind: "track",
      name: "x",
      receivedAtMs: Date.parse("2030-01-01T10:00:00.000Z"),
    });
    expect(eventOf({ kind: "identify", userId: "u_1", timestamp: "2030-01-01T10:00:00.000Z" })).toEqual({
      kind: "identify",
      name: "u_1",
      receivedAtMs: Date.parse("2030-01-01T10:00:00.000Z"),
    });
    expect(eventOf({ type: "identify", user_id: 42 })).toEqual({ kind: "identify", name: "42", receivedAtMs: null });
  });

  test("takes a Unix time in seconds or milliseconds", () => {
    expect(eventOf({ kind: "identify", user_id: 42, timestamp: 1_893_492_000 }).receivedAtMs).toBe(1_893_492_000_000);
    expect(eventOf({ kind: "track", event: "x", timestamp: 1_893_492_000_123 }).receivedAtMs).toBe(1_893_492_000_123);
  });

  test("of another kind records no call; one without a name or time says so", () => {
    expect(eventOf({ kind: "page", name: "x" }).kind).toBeNull();
    expect(eventOf({ kind: "identify" })).toEqual({ kind: "identify", name: null, receivedAtMs: null });
  });
});
