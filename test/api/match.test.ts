import { expect, test } from "@playwright/test";
import { findProject, hostOf, matchingProjects } from "../../src/api/match.js";
import { projectListSchema } from "../../src/api/schemas.js";
import { normalised } from "../support/artifacts.js";

const wanted = { key: "prj_demo_staging", domain: "shop.example.test" };

/** Project elements as the service lists them, normalised as the API gatherer does. */
const projects = (elements: Record<string, unknown>[]) => normalised(projectListSchema, elements);

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
      const match = findProject(projects([{ title: "unrelated" }, { [field]: value }]), wanted);
      expect(match).toMatchObject({ index: 1, field });
    });
  }

  test("an element holding the key wins over an earlier one holding only the domain", () => {
    const match = findProject(
      projects([{ key: "prj_other", domain: "shop.example.test" }, { projectKey: "prj_demo_staging" }]),
      wanted,
    );
    expect(match).toMatchObject({ index: 1, field: "projectKey", byKey: true });
  });

  test("a domain match is marked as such", () => {
    expect(findProject(projects([{ domain: "shop.example.test:8443" }]), wanted)).toMatchObject({
      index: 0,
      byKey: false,
    });
  });

  test("no element, no match; a numeric id compares as text", () => {
    expect(findProject(projects([{ key: "prj_demo_prod", domain: "other.test" }]), wanted)).toBeNull();
    expect(matchingProjects(projects([{ id: 42 }]), { key: "42", domain: "x.test" })).toHaveLength(1);
  });

  test("hosts are read from bare names, ports and URLs", () => {
    expect(["Example.com.", "example.com:8080", "https://example.com/x", "example.com/path"].map(hostOf)).toEqual([
      "example.com",
      "example.com",
      "example.com",
      "example.com",
    ]);
  });
});
