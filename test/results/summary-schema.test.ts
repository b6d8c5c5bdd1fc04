import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { SUMMARY_SCHEMA_FILE, summaryJsonSchema } from "../../src/results/summary-schema.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const validate = new Ajv2020({ allErrors: true }).compile(summaryJsonSchema());
const golden = JSON.parse(readFileSync(`${root}test/golden/broken-shop/summary.json`, "utf8")) as Record<
  string,
  unknown
>;

function errorsOf(summary: unknown): unknown[] {
  return validate(summary) ? [] : (validate.errors ?? []);
}

test("the golden run's summary.json validates against the shipped schema", () => {
  expect(JSON.parse(readFileSync(`${root}${SUMMARY_SCHEMA_FILE}`, "utf8"))).toEqual(summaryJsonSchema());
  expect(errorsOf(golden)).toEqual([]);
});

test("a summary with an unknown check id, an unknown field or a missing one does not validate", () => {
  const findings = golden.findings as Record<string, unknown>[];
  const calls = golden.calls as Record<string, unknown>[];
  const { verdict: _verdict, ...withoutVerdict } = golden;
  for (const [what, summary] of [
    ["unknown check id", { ...golden, findings: [{ ...findings[0], check: "sdk.orders" }] }],
    ["unknown status", { ...golden, findings: [{ ...findings[0], status: "error" }] }],
    ["unknown field", { ...golden, calls: [{ ...calls[0], value: "x" }] }],
    ["missing verdict", withoutVerdict],
  ] as const) {
    expect(errorsOf(summary), what).not.toEqual([]);
  }
});

test("a summary compared with an earlier run validates with its changes, and a change without its key does not", () => {
  const findings = golden.findings as Record<string, unknown>[];
  const {
    message: _message,
    evidence: _evidence,
    title: _title,
    severity: _severity,
    family: _family,
    ...key
  } = findings.find((finding) => finding.status === "fail")!;
  const changed = { ...key, environment: "staging" };
  const changes = {
    comparedWith: { startedAt: "2026-11-27T03:00:00.000Z", verdict: "fail" },
    new: [changed],
    worse: [],
    resolved: [{ ...changed, status: "pass" }],
    persisting: 3,
  };
  expect(errorsOf({ ...golden, changes })).toEqual([]);
  const { environment: _environment, ...withoutEnvironment } = changed;
  expect(errorsOf({ ...golden, changes: { ...changes, new: [withoutEnvironment] } })).not.toEqual([]);
});
