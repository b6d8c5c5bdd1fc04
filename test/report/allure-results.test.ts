import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { reconcileDeliveries } from "../../src/artifacts/delivery.js";
import type { TestResult as AllureResult } from "allure-js-commons";
import { md5 } from "allure-js-commons/sdk/reporter";
import { checkOf } from "../../src/checks/index.js";
import type { AuditTarget } from "../../src/schedule/plan.js";
import { allureEntries } from "../../src/report/allure-results.js";
import { writeAllureResults } from "../../src/report/allure-writer.js";
import type { Finding } from "../../src/findings/finding.js";
import { reportTarget, type RunResult } from "../../src/results/run-result.js";
import { pageWith, specWith, findingWith, plannedTarget } from "../support/artifacts.js";
import { scratchDir } from "../support/scratch.js";
import { checkReasons } from "../../src/results/check-reasons.js";

const spec = specWith();
const target: AuditTarget = plannedTarget(spec, { pages: ["home", "signup"], viewports: ["desktop", "mobile"] });
const finding = (overrides: Partial<Finding>): Finding =>
  findingWith({
    page: "home",
    viewport: "desktop",
    message: "Loaded.",
    ...overrides,
  });

/** home on both viewports, signup on desktop only (its mobile unit belongs to another shard); home fails on mobile. */
function runWith(findings: Finding[]): RunResult {
  const pages = [
    pageWith({ page: "home", viewport: "desktop" }),
    pageWith({ page: "home", viewport: "mobile", mobile: true }),
    pageWith({ page: "signup", viewport: "desktop" }),
  ];
  return {
    runId: "abc123",
    outDir: scratchDir("allure-out"),
    checks: checkReasons(findings),
    targets: [
      {
        target: reportTarget(target),
        result: {
          spec: "audits/shop.yaml",
          project: "Demo shop",
          environment: "staging",
          collect: "send",
          findings,
          pages: reconcileDeliveries(pages, null),
          api: null,
        },
      },
    ],
  };
}

const findings = [
  finding({ page: "home", viewport: "desktop" }),
  finding({
    page: "home",
    viewport: "mobile",
    check: "page.errors",
    status: "fail",
    message: "TypeError for jane@example.org typed s3cret-value",
  }),
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
  const login = (viewport: string, status: Finding["status"]) =>
    finding({ check: "page.access", page: null, viewport, status, message: `The login on ${viewport}.` });
  const entries = allureEntries(
    runWith([...findings, login("desktop", "pass"), login("mobile", "fail")]),
    [],
    new Map(),
  );
  const titles = (viewport: string) =>
    entries.filter((entry) => entry.viewport === viewport).map((entry) => entry.title);
  expect(titles("desktop")).toEqual([
    "shop › setup checklist",
    "shop › home",
    "shop › signup",
    "shop › the login",
    "shop › goal checks",
    "shop › spec-wide checks",
  ]);
  expect(titles("mobile")).toEqual(["shop › home", "shop › signup", "shop › the login", "shop › goal checks"]);
  const content = (viewport: string, title: string) =>
    entries.find((entry) => entry.viewport === viewport && entry.title === title)!.content();
  expect(content("mobile", "shop › the login").outcome).toEqual({
    status: "failed",
    message: "1 check(s) failed on the login · mobile:\n- page.access: The login on mobile.",
  });
  expect(JSON.stringify(content("desktop", "shop › spec-wide checks").messages)).not.toContain("The login");
});

test("a result fails when one of its checks failed, naming each, with secrets and e-mail addresses scrubbed; a unit not audited in this run is skipped", () => {
  const entries = allureEntries(runWith(findings), ["s3cret-value"], new Map());
  const content = (viewport: string, title: string) =>
    entries.find((entry) => entry.viewport === viewport && entry.title === title)!.content();

  const failed = content("mobile", "shop › home");
  expect(failed.outcome).toEqual({
    status: "failed",
    message: "1 check(s) failed on home · mobile:\n- page.errors: TypeError for «email» typed «redacted»",
  });
  const stop = failed.messages.find((message) => message.type === "step_stop");
  expect(stop).toMatchObject({ data: { status: "failed" } });
  expect(JSON.stringify(failed.messages)).not.toMatch(/jane@|s3cret/);
  expect(failed.messages[0]).toMatchObject({
    type: "metadata",
    data: {
      displayName: "home · mobile",
      parameters: expect.arrayContaining([{ name: "environment", value: "staging" }]),
    },
  });

  expect(content("desktop", "shop › home").outcome).toEqual({ status: "passed" });
  expect(content("mobile", "shop › signup").outcome).toEqual({ status: "skipped", reason: "not audited in this run" });
  expect(content("desktop", "shop › setup checklist").outcome).toEqual({ status: "passed" });
});

/** The results `writeAllureResults` wrote for `run` into a folder of their own. */
async function writtenResults(
  run: RunResult,
  secrets: readonly string[] = [],
): Promise<{ resultsDir: string; results: AllureResult[] }> {
  const resultsDir = mkdtempSync(join(run.outDir, "allure-results-"));
  await writeAllureResults(run, { resultsDir, secrets, pictures: new Map() });
  const results = readdirSync(resultsDir)
    .filter((name) => name.endsWith("-result.json"))
    .map((name) => JSON.parse(readFileSync(join(resultsDir, name), "utf8")) as AllureResult);
  return { resultsDir, results };
}

const resultIn = (results: readonly AllureResult[], name: string, viewport: string) =>
  results.find(
    (result) =>
      result.name === name && result.labels.some((label) => label.name === "parentSuite" && label.value === viewport),
  )!;

test("each result is written under its viewport, with its name, labels, parameters, status, steps, evidence and the run's environment", async () => {
  const { resultsDir, results } = await writtenResults(runWith(findings), ["s3cret-value"]);
  expect(results).toHaveLength(8);

  const failed = resultIn(results, "home · mobile", "mobile");
  expect(failed.status).toBe("failed");
  expect(failed.statusDetails.message).toBe(
    "1 check(s) failed on home · mobile:\n- page.errors: TypeError for «email» typed «redacted»",
  );
  expect(failed.fullName).toBe("report/allure-results.ts › shop › home");
  expect(failed.labels).toEqual(
    expect.arrayContaining([
      { name: "parentSuite", value: "mobile" },
      { name: "tag", value: "mobile" },
      { name: "epic", value: "Acme Marketing" },
      { name: "feature", value: "Demo shop" },
      { name: "story", value: "home" },
      { name: "severity", value: checkOf("page.errors").severity },
    ]),
  );
  expect(failed.parameters).toEqual([
    { name: "Project", value: "mobile" },
    { name: "environment", value: "staging" },
    { name: "base URL", value: "http://127.0.0.1:47412", excluded: true },
    { name: "run", value: "abc123", excluded: true },
  ]);
  expect(failed.steps.map((step) => [step.name!.split(":")[0], step.status ?? null])).toEqual([
    ["page.errors", "failed"],
    ["captured calls", null],
    ["SDK and collect network log", null],
  ]);
  const calls = failed.steps[1]!.attachments[0]!;
  expect(calls.type).toBe("application/json");
  expect(JSON.parse(readFileSync(join(resultsDir, calls.source), "utf8"))).toEqual([]);

  expect(resultIn(results, "signup · mobile", "mobile")).toMatchObject({
    status: "skipped",
    statusDetails: { message: "not audited in this run" },
  });
  expect(resultIn(results, "home · desktop", "desktop")).toMatchObject({
    status: "passed",
    statusDetails: {},
    stage: "finished",
  });
  expect(readFileSync(join(resultsDir, "environment.properties"), "utf8")).toContain("Spec\\ file=audits/shop.yaml\n");
});

test("a result keeps the test case and history ids that earlier versions wrote, from one run to the next", async () => {
  const run = runWith(findings);
  const ids = async () => {
    const { results } = await writtenResults(run);
    return new Map(
      results.map((result) => [
        `${result.fullName} @ ${result.parameters[0]!.value}`,
        { uuid: result.uuid, testCaseId: result.testCaseId, historyId: result.historyId },
      ]),
    );
  };
  const [first, second] = [await ids(), await ids()];

  expect([...second.keys()]).toEqual(expect.arrayContaining([...first.keys()]));
  for (const [key, { uuid, ...history }] of first) {
    expect(second.get(key), key).toMatchObject(history);
    expect(second.get(key)!.uuid).not.toBe(uuid);
  }
  // As allure-playwright keyed a test of the results module in the viewport's project: the package's name, the module, the title; the parameters that are not excluded.
  const testCaseId = md5("setup-audit:report/allure-results.ts#shop › home");
  expect(first.get("report/allure-results.ts › shop › home @ mobile")).toMatchObject({
    testCaseId,
    historyId: `${testCaseId}:${md5("environment:staging,Project:mobile")}`,
  });
});

test("a page's screenshot is copied into the results, in a step of its own", async () => {
  const run = runWith(findings);
  const screenshot = join("screenshots", "home-desktop.png");
  mkdirSync(join(run.outDir, "screenshots"));
  writeFileSync(join(run.outDir, screenshot), "the first screen");
  run.targets[0]!.result.pages[0]!.screenshot = screenshot;

  const { resultsDir, results } = await writtenResults(run);
  const step = resultIn(results, "home · desktop", "desktop").steps.find(
    (candidate) => candidate.name === "screenshot",
  )!;
  expect(step.attachments).toEqual([
    { name: "screenshot", type: "image/png", source: expect.stringMatching(/-attachment\.png$/) },
  ]);
  expect(readFileSync(join(resultsDir, step.attachments[0]!.source), "utf8")).toBe("the first screen");
});

test("no result, container or environment entry shows a base URL's user name and password, nor a secret in its parameters and names", async () => {
  const closed = {
    ...reportTarget({ ...target, baseUrl: "http://qa-user:pa55-word-9@127.0.0.1:47412" }),
    project: "Shop tok_4e1f9a2c",
  };
  const run = runWith(findings);
  const { resultsDir } = await writtenResults({ ...run, targets: [{ ...run.targets[0]!, target: closed }] }, [
    "tok_4e1f9a2c",
    "pa55-word-9",
  ]);
  const written = readdirSync(resultsDir).map((name) => readFileSync(join(resultsDir, name), "latin1"));
  expect(written.join("\n")).toContain('{"name":"base URL","value":"http://127.0.0.1:47412/","excluded":true}');
  expect(readFileSync(join(resultsDir, "environment.properties"), "utf8")).toContain(
    "Base\\ URL=http://127.0.0.1:47412/\n",
  );
  expect(written.filter((text) => /tok_4e1f|pa55|qa-user/.test(text))).toEqual([]);
});
