import { expect, test } from "@playwright/test";
import { knownViewports } from "../../src/browser/viewports.js";
import { formatSpecError, parseSpec } from "../../src/audit-spec/load.js";
import { variationId } from "../../src/audit-spec/variation-id.js";
import { minimalWith } from "../support/spec-text.js";

/** The experiment's exposure, its forced control and its variations' ids. */
const experiment = (...lines: string[]) =>
  minimalWith({}, "experiments:", "  - name: Pricing CTA copy", "    page: home", '    selector: "#cta"', ...lines);
const parse = (text: string) => parseSpec(text, "spec.yaml", knownViewports());

test("an exposure, a forced control and variation ids are read, numbers as strings", () => {
  const result = parse(
    experiment(
      "    control: { query: { cta-copy: 0 } }",
      "    exposure: { event: Experiment Viewed, properties: { experiment_id: cta-copy }, variationProperty: variation_id }",
      "    variations:",
      "      - { name: Long copy, query: { cta-copy: 1 }, id: cta-long }",
      "      - { name: Short copy, css: 'a {}', id: 2 }",
      "      - { name: Bold copy, css: 'b {}' }",
    ),
  );
  if (!result.ok) throw new Error(result.errors.map(formatSpecError).join("\n"));
  const [read] = result.spec.experiments;
  expect(read?.control).toEqual({ query: { "cta-copy": "0" } });
  expect(read?.exposure).toEqual({
    event: "Experiment Viewed",
    properties: { experiment_id: "cta-copy" },
    variationProperty: "variation_id",
  });
  expect(read?.variations.map((variation, index) => variationId(variation, index))).toEqual(["cta-long", "2", "3"]);
});

test("an exposure needs its event and variationProperty; properties default to none", () => {
  const result = parse(experiment("    exposure: { event: Experiment Viewed, variationProperty: variation_id }"));
  expect(result.ok && result.spec.experiments[0]?.exposure?.properties).toEqual({});
  const invalid = parse(experiment("    exposure: { event: Experiment Viewed }", "    control: { query: {} }"));
  expect(invalid.ok ? [] : invalid.errors.map((error) => `${error.path}: ${error.message}`)).toEqual([
    'experiments[0].exposure: missing required field "variationProperty"',
    "experiments[0].control.query: has no parameters: name the preview link's parameters, or leave query out",
  ]);
});
