import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parse } from "yaml";
import { specJsonSchema } from "../../src/audit-spec/json-schema.js";
import { knownViewports } from "../../src/browser/viewports.js";
import { parseSpec } from "../../src/audit-spec/load.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
// Union types (`type: ["string", "number"]`) are plain JSON Schema; Ajv's strict mode only asks that they be allowed.
const validateAgainstSchema = new Ajv2020({ allErrors: true, validateFormats: false, allowUnionTypes: true }).compile(
  specJsonSchema(),
);
const demoSpec = readFileSync(`${root}audits/demo-shop.yaml`, "utf8");

test("every bundled spec that validates also validates against the JSON Schema", () => {
  const specs = [
    `${root}audits/demo-shop.yaml`,
    ...readdirSync(`${root}test/e2e/specs`)
      .filter((name) => name.endsWith(".yaml"))
      .map((name) => `${root}test/e2e/specs/${name}`),
  ];
  for (const file of specs) {
    const text = readFileSync(file, "utf8");
    expect(parseSpec(text, file, knownViewports()).ok, file).toBe(true);
    expect(validateAgainstSchema(parse(text)) ? [] : validateAgainstSchema.errors, file).toEqual([]);
  }
});

test("an unknown key fails against the JSON Schema as it fails validate", () => {
  for (const [where, text] of [
    ["top level", `${demoSpec}\nscreenshot: off\n`],
    ["sdk", demoSpec.replace(/^sdk:\n/m, "sdk:\n  tracker: track\n")],
  ] as const) {
    const validated = parseSpec(text, "audits/demo-shop.yaml", knownViewports());
    expect(validated.ok, where).toBe(false);
    expect(validateAgainstSchema(parse(text)), where).toBe(false);
    expect(validateAgainstSchema.errors, where).toContainEqual(
      expect.objectContaining({ keyword: "additionalProperties" }),
    );
  }
});

test("a wrong type fails against the JSON Schema as it fails validate", () => {
  const text = demoSpec.replace(/^viewports: .*$/m, "viewports: desktop");
  expect(text).not.toBe(demoSpec);
  expect(parseSpec(text, "audits/demo-shop.yaml", knownViewports()).ok).toBe(false);
  expect(validateAgainstSchema(parse(text))).toBe(false);
});
