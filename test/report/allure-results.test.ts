import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import type { TestResult as AllureResult } from "allure-js-commons";
import { checkOf } from "../../src/checks/index.js";
import type { AuditTarget } from "../../src/plan.js";
import { allureEntries } from "../../src/report/allure-results.js";
import { writeAllureResults } from "../../src/report/allure-writer.js";
import type { Finding } from "../../src/results.js";
import { reportTarget, type RunResult } from "../../src/run-result.js";
import { pageWith, specWith } from "../support/artifacts.js";

const spec = specWith();
const target: AuditTarget = { specFile: "audits/shop.yaml", slug: "shop", spec, specSha256: "0".repeat(64), environment: "staging", baseUrl: "http://127.0.0.1:47412", pages: ["home", "signup"], viewports: ["desktop", "mobile"] };
const finding = (overrides: Partial<Finding>): Finding => ({ check: "page.load", status: "pass", spec: "audits/shop.yaml", page: "home", viewport: "desktop", goal: null, experiment: null, variation: null, message: "Loaded.", evidence: {}, ...overrides });

/** home on both viewports, signup on desktop only (its mobile unit belongs to another shard); home fails on mobile. */
function runWith(findings: Finding[]): RunResult {
  const pages = [pageWith({ page: "home", viewport: "desktop" }), pageWith({ page: "home", viewport: "mobile", mobile: true }), pageWith({ page: "signup", viewport: "desktop" })];
  return {
    runId: "abc123",
    outDir: mkdtempSync(join(tmpdir(), "allure-out-")),
    targets: [{ target: reportTarget(target), result: { spec: "audits/shop.yaml", project: "Demo shop", environment: "staging", collect: "send", findings, pages, deliveries: pages.map(() => []), api: null } }],
  };
}

const findings = [
  finding({ page: "home", viewport: "desktop" }),
  finding({ page: "home", viewport: "mobile", check: "page.errors", status: "fail", message: "TypeError for jane@example.org typed s3cret-value" }),
  finding({ page: "signup", viewport: "desktop" }),
  finding({ page: null, viewport: null, check: "viewports.coverage", message: "Both viewports." }),
];

test("one result per page × viewport, the checklist first and the spec-wide checks once, under the first viewport", () => {
  const entries = allureEntries(runWith(findings), [], new Map());
  expect(entries.map((entry) => [entry.viewport, entry.title])).toEqual([
    ["desktop", "shop › setup checklist"],
    ["desktop", "shop › home"],
    ["desktop", "shop › signup"],
    ["desktop", "shop › goal checks"],
    ["desktop", "shop › spec-wide checks"],
    ["mobile", "shop › home"],
    ["mobile", "shop › signup"],
    ["mobile", "shop › goal checks"],
  ]);
});

test("a closed site's login gets a result of its own on each viewport, before the goals, and stays out of the spec-wide checks", () => {
  const login = (viewport: string, status: Finding["status"]) => finding({ check: "page.access", page: null, viewport, status, message: `The login on ${viewport}.` });
  const entries = allureEntries(runWith([...findings, login("desktop", "pass"), login("mobile", "fail")]), [], new Map());
  const titles = (viewport: string) => entries.filter((entry) => entry.viewport === viewport).map((entry) => entry.title);
  expect(titles("desktop")).toEqual(["shop › setup checklist", "shop › home", "shop › signup", "shop › the login", "shop › goal checks", "shop › spec-wide checks"]);
  expect(titles("mobile")).toEqual(["shop › home", "shop › signup", "shop › the login", "shop › goal checks"]);
  const content = (viewport: string, title: string) => entries.find((entry) => entry.viewport === viewport && entry.title === title)!.content();
  expect(content("mobile", "shop › the login").outcome).toEqual({ status: "failed", message: "1 check(s) failed on the login · mobile:\n- page.access: The login on mobile." });
  expect(JSON.stringify(content("desktop", "shop › spec-wide checks").messages)).not.toContain("The login");
});

test("a result fails when one of its checks failed, naming each, with secrets and e-mail addresses scrubbed; a unit not audited in this run is skipped", () => {
  const entries = allureEntries(runWith(findings), ["s3cret-value"], new Map());
  const content = (viewport: string, title: string) => entries.find((entry) => entry.viewport === viewport && entry.title === title)!.content();

  const failed = content("mobile", "shop › home");
  expect(failed.outcome).toEqual({ status: "failed", message: "1 check(s) failed on home · mobile:\n- page.errors: TypeError for «email» typed «redacted»" });
  const stop = failed.messages.find((message) => message.type === "step_stop");
  expect(stop).toMatchObject({ data: { status: "failed" } });
  expect(JSON.stringify(failed.messages)).not.toMatch(/jane@|s3cret/);
  expect(failed.messages[0]).toMatchObject({ type: "metadata", data: { displayName: "home · mobile", parameters: expect.arrayContaining([{ name: "environment", value: "staging" }]) } });

  expect(content("desktop", "shop › home").outcome).toEqual({ status: "passed" });
  expect(content("mobile", "shop › signup").outcome).toEqual({ status: "skipped", reason: "not audited in this run" });
  expect(content("desktop", "shop › setup checklist").outcome).toEqual({ status: "passed" });
});

test("allure-playwright writes each result under its viewport, with its status, steps, evidence and the run's environment", async () => {
  const run = runWith(findings);
  const resultsDir = join(run.outDir, "allure-results");
  await writeAllureResults(run, { resultsDir, secrets: ["s3cret-value"], pictures: new Map() });

  const results = readdirSync(resultsDir)
    .filter((name) => name.endsWith("-result.json"))
    .map((name) => JSON.parse(readFileSync(join(resultsDir, name), "utf8")) as AllureResult);
  expect(results).toHaveLength(8);
  const resultOf = (name: string, viewport: string) => results.find((result) => result.name === name && result.labels.some((label) => label.name === "parentSuite" && label.value === viewport))!;

  const failed = resultOf("home · mobile", "mobile");
  expect(failed.status).toBe("failed");
  expect(failed.statusDetails.message).toBe("1 check(s) failed on home · mobile:\n- page.errors: TypeError for «email» typed «redacted»");
  expect(failed.fullName).toBe("report/allure-results.ts › shop › home");
  expect(failed.labels).toEqual(expect.arrayContaining([{ name: "epic", value: "Acme Marketing" }, { name: "feature", value: "Demo shop" }, { name: "story", value: "home" }, { name: "severity", value: checkOf("page.errors").severity }]));
  expect(failed.parameters).toEqual(expect.arrayContaining([{ name: "Project", value: "mobile" }, { name: "run", value: "abc123", excluded: true }]));
  expect(failed.steps.map((step) => [step.name!.split(":")[0], step.status ?? null])).toEqual([
    ["page.errors", "failed"],
    ["captured calls", null],
    ["SDK and collect network log", null],
  ]);
  const calls = failed.steps[1]!.attachments[0]!;
  expect(calls.type).toBe("application/json");
  expect(JSON.parse(readFileSync(join(resultsDir, calls.source), "utf8"))).toEqual([]);

  expect(resultOf("signup · mobile", "mobile")).toMatchObject({ status: "skipped", statusDetails: { message: "not audited in this run" } });
  expect(resultOf("home · desktop", "desktop").status).toBe("passed");
  expect(readFileSync(join(resultsDir, "environment.properties"), "utf8")).toContain("Spec\\ file=audits/shop.yaml\n");
});
