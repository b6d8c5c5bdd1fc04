import { expect, test } from "@playwright/test";
import { findProject, goalCondition, hostOf, listedEvent, matchingProjects, workspaceOf } from "../../src/api/match.js";

const wanted = { key: "prj_demo_staging", domain: "shop.example.test" };

test.describe("project matching", () => {
  for (const [field, value] of [
    ["key", "prj_demo_staging"],
    ["projectKey", "prj_demo_staging"],
    ["id", "prj_demo_staging"],
    ["name", "prj_demo_staging"],
    ["domain", "shop.example.test"],
    ["domains", ["other.test", "Shop.Example.Test."]],
    ["url", "https://shop.example.test/app"],
    ["name", "shop.example.test"],
  ] as const) {
    test(`an element matches by ${field} = ${JSON.stringify(value)}`, () => {
      const match = findProject([{ title: "unrelated" }, { [field]: value }], wanted);
      expect(match).toMatchObject({ index: 1, field });
    });
  }

  test("an element holding the key wins over an earlier one holding only the domain", () => {
    const match = findProject([{ key: "prj_other", domain: "shop.example.test" }, { projectKey: "prj_demo_staging" }], wanted);
    expect(match).toMatchObject({ index: 1, field: "projectKey", byKey: true });
  });

  test("a domain match is marked as such", () => {
    expect(findProject([{ domain: "shop.example.test:8443" }], wanted)).toMatchObject({ index: 0, byKey: false });
  });

  test("no element, no match; a numeric id compares as text", () => {
    expect(findProject([{ key: "prj_demo_prod", domain: "other.test" }], wanted)).toBeNull();
    expect(matchingProjects([{ id: 42 }], { key: "42", domain: "x.test" })).toHaveLength(1);
  });

  test("hosts are read from bare names, ports and URLs", () => {
    expect(["Example.com.", "example.com:8080", "https://example.com/x", "example.com/path"].map(hostOf)).toEqual(["example.com", "example.com", "example.com", "example.com"]);
  });
});

test.describe("workspace", () => {
  test("is read from workspace (a name or { id, name }), workspaceName or workspaceId", () => {
    expect(workspaceOf({ workspace: "Acme" })).toEqual({ id: null, name: "Acme", field: "workspace" });
    expect(workspaceOf({ workspace: { id: 7, name: "Acme" } })).toEqual({ id: "7", name: "Acme", field: "workspace" });
    expect(workspaceOf({ workspaceName: "Acme", workspaceId: "ws_1" })).toEqual({ id: "ws_1", name: "Acme", field: "workspaceName" });
    expect(workspaceOf({ workspaceId: "ws_1" })).toEqual({ id: "ws_1", name: null, field: "workspaceId" });
  });

  test("is found nested one level down", () => {
    expect(workspaceOf({ key: "k", settings: { timezone: "UTC", workspace: { name: "Acme" } } })).toEqual({ id: null, name: "Acme", field: "settings.workspace" });
    expect(workspaceOf({ owner: { workspaceName: "Acme" } })).toEqual({ id: null, name: "Acme", field: "owner.workspaceName" });
  });

  test("is null when the element names none", () => {
    expect(workspaceOf({ key: "k", settings: { timezone: "UTC" }, workspace: {} })).toBeNull();
  });
});

test("a goal's condition is a string, or an object's equals, value or event", () => {
  expect(goalCondition({ condition: "signup_success" })).toBe("signup_success");
  expect(goalCondition({ condition: { type: "event", equals: "a" } })).toBe("a");
  expect(goalCondition({ condition: { value: "b" } })).toBe("b");
  expect(goalCondition({ condition: { event: "c" } })).toBe("c");
  expect(goalCondition({ condition: { matches: "d.*" } })).toBeNull();
  expect(goalCondition({ name: "no condition" })).toBeNull();
});

test("a recent event is read from the common field names", () => {
  expect(listedEvent({ kind: "track", name: "signup_success", receivedAt: "2030-01-01T10:00:00.000Z" })).toEqual({
    kind: "track",
    name: "signup_success",
    receivedAtMs: Date.parse("2030-01-01T10:00:00.000Z"),
  });
  expect(listedEvent({ type: "identify", user_id: 42, timestamp: 1_893_492_000 })).toEqual({ kind: "identify", name: "42", receivedAtMs: 1_893_492_000_000 });
  expect(listedEvent({ kind: "track", event: "x", timestamp: 1_893_492_000_123 })).toEqual({ kind: "track", name: "x", receivedAtMs: 1_893_492_000_123 });
  expect(listedEvent({ kind: "page", name: "x" })).toBeNull();
  expect(listedEvent({ kind: "identify" })).toEqual({ kind: "identify", name: null, receivedAtMs: null });
});
