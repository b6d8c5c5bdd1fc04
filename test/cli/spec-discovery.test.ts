import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { discoverSpecs, plansLeftOutLine } from "../../src/cli/spec-discovery.js";
import { minimalWith } from "../support/spec-text.js";
import { folderWith, ORDER_PLAN } from "../support/tracking-plan.js";

/**
 * `run` and `validate` without SPEC arguments audit every spec in audits/: a tracking plan kept
 * there (as docs/tracking-plan.md's `plan draft --out audits/tracking-plan.yaml` does) is left
 * out, whether it reads as one or a spec names it, and a broken spec is still a spec.
 */

/** Which of the folder's files were loaded as specs (valid or not) and which were left out as plans. */
async function sorted(folder: string) {
  const { results, plans } = await discoverSpecs(folder);
  const name = (file: string) => file.slice(folder.length + 1);
  return {
    specs: results.map((result) => `${name(result.file)} ${result.ok ? "valid" : "invalid"}`),
    plans: plans.map(name),
  };
}

test("a plan in each format is left out by its content; the specs are loaded", async () => {
  const folder = folderWith({
    "shop.yaml": minimalWith({}, "trackingPlan: { file: tracking-plan.yaml }"),
    "tracking-plan.yaml": ORDER_PLAN,
    "identify-only.yaml": "identify:\n  traits: { type: object }\n",
    "segment.yaml": "rules:\n  events:\n    - { name: Paid, rules: {} }\n",
    "rudder-plan.yaml": "version: rudder/v1\nkind: tracking-plan\nspec: { id: shop, rules: [] }\n",
  });
  expect(await sorted(folder)).toEqual({
    specs: ["shop.yaml valid"],
    plans: ["identify-only.yaml", "rudder-plan.yaml", "segment.yaml", "tracking-plan.yaml"],
  });
});

test("a file a spec's trackingPlan.file names is left out, even when it does not read as a plan", async () => {
  const folder = folderWith({
    "shop.yaml": minimalWith({}, "trackingPlan: { file: ./plan-with-a-typo.yaml }"),
    "plan-with-a-typo.yaml": "evnts:\n  Paid: {}\n",
  });
  expect(await sorted(folder)).toEqual({ specs: ["shop.yaml valid"], plans: ["plan-with-a-typo.yaml"] });
});

test("a spec is a spec: one with a spec key beside events, a broken one, one with identify", async () => {
  const folder = folderWith({
    "events-typo.yaml": minimalWith({}, "events: {}"),
    "broken.yaml": "workspace: Acme\nproject: [\n",
    "with-identify.yaml": minimalWith({}, "identify: { required: [plan] }"),
  });
  expect(await sorted(folder)).toEqual({
    specs: ["broken.yaml invalid", "events-typo.yaml invalid", "with-identify.yaml valid"],
    plans: [],
  });
});

test("what is left out is said in one line", () => {
  expect(plansLeftOutLine([join("audits", "tracking-plan.yaml")])).toBe(
    `Left out ${join("audits", "tracking-plan.yaml")}: a tracking plan, not a spec.`,
  );
  expect(plansLeftOutLine(["audits/a.yaml", "audits/b.yaml"])).toBe(
    "Left out audits/a.yaml, audits/b.yaml: tracking plans, not specs.",
  );
});
