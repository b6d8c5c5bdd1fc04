import { expect, test } from "@playwright/test";
import { entryPathOf } from "../../src/audit-spec/locate.js";

const spec = {
  goals: [{ name: "Signup completed", event: "signup_success" }],
  experiments: [{ name: "Pricing CTA copy", page: "pricing", selector: "#cta" }],
  pages: [{ id: "home" }, { id: "pricing" }],
};
const about = (where: { page?: string; goal?: string; experiment?: string }) => ({
  page: null,
  goal: null,
  experiment: null,
  ...where,
});

test("a finding about an experiment is placed at the experiment, though it names its page too", () => {
  expect(entryPathOf(spec, about({ page: "pricing", experiment: "Pricing CTA copy" }))).toEqual(["experiments", 0]);
});

test("a page finding at its page, a goal finding at its goal, a spec-wide one nowhere", () => {
  expect(entryPathOf(spec, about({ page: "pricing" }))).toEqual(["pages", 1]);
  expect(entryPathOf(spec, about({ goal: "Signup completed" }))).toEqual(["goals", 0]);
  expect(entryPathOf(spec, about({}))).toBeUndefined();
});

test("an entry the spec no longer lists falls back to the next one the finding names, then to none", () => {
  expect(entryPathOf(spec, about({ page: "home", experiment: "Renamed since" }))).toEqual(["pages", 0]);
  expect(entryPathOf(null, about({ page: "home" }))).toBeUndefined();
});
