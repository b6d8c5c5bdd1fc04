import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { finding, type Check } from "../../src/checks/check.js";
import { CHECKS, runChecks } from "../../src/checks/index.js";
import { CHECK_IDS, type CheckId } from "../../src/findings/finding.js";
import { apiGoals } from "../../src/checks/api/goals.js";
import { baselineCalls } from "../../src/checks/baseline/calls.js";
import { reportWarnings } from "../../src/checks/report/warnings.js";
import { sdkOrder } from "../../src/checks/sdk/order.js";
import { callWith, contextOf, pageWith, specWith } from "../support/artifacts.js";

const lostCall = pageWith({ calls: [callWith({ state: "lost" })] });

test("a spec can turn a check off: its findings stay, skipped, saying why", () => {
  const [finding] = runChecks(contextOf([lostCall], specWith({ checks: { "sdk.order": "off" } })), [sdkOrder]);
  expect(finding?.status).toBe("skip");
  expect(finding?.message).toMatch(/^Turned off by the spec's checks section \(would have been fail:/);
});

test("a spec can lower a failing check to a warning, and leaves passes alone", () => {
  const spec = specWith({ checks: { "sdk.order": "warn" } });
  const findings = runChecks(contextOf([lostCall, pageWith({ viewport: "mobile" })], spec), [sdkOrder]);
  expect(findings.map((finding) => finding.status)).toEqual(["warn", "pass"]);
});

test("a finding carries the experiment and variation of its scope; null where the scope has none", () => {
  const context = { ...contextOf([pageWith()]), check: "experiment.selector" as const };
  expect(
    finding(context, "pass", "ok", {
      page: "pricing",
      viewport: "mobile",
      experiment: "CTA copy",
      variation: "Long copy",
    }),
  ).toMatchObject({ experiment: "CTA copy", variation: "Long copy" });
  expect(finding(context, "pass", "ok", { page: "pricing" })).toMatchObject({
    page: "pricing",
    viewport: null,
    goal: null,
    experiment: null,
    variation: null,
  });
});

test("a finding of sdk.* or events.* names the SDK it is about (evidence.sdk); a check may name the experimentation SDK, and other checks name none", () => {
  const [order] = runChecks(contextOf([lostCall]), [sdkOrder]);
  expect(order?.evidence.sdk).toBe("analytics");
  const experimental: Check = {
    ...sdkOrder,
    evaluate: (context) => [finding({ ...context, check: "sdk.order" }, "fail", "late", {}, { sdk: "experiment" })],
  };
  expect(runChecks(contextOf([pageWith()]), [experimental])[0]?.evidence.sdk).toBe("experiment");
  const [report] = runChecks(contextOf([pageWith()]), [reportWarnings]);
  expect(report?.evidence).not.toHaveProperty("sdk");
});

test("a check that throws becomes one failed finding", () => {
  const broken: Check = {
    ...sdkOrder,
    evaluate: () => {
      throw new Error("boom");
    },
  };
  const findings = runChecks(contextOf([pageWith()]), [broken]);
  expect(findings).toHaveLength(1);
  expect(findings[0]).toMatchObject({ check: "sdk.order", status: "fail" });
  expect(findings[0]?.message).toContain("boom");
});

test("a check whose input the run lacks is not judged: the runner gives its one finding, saying why, or none for a baseline nobody asked for", () => {
  const evaluated: string[] = [];
  const watched = (check: Check): Check => ({
    ...check,
    evaluate: (context) => (evaluated.push(check.id), check.evaluate(context)),
  });
  const withoutApi = runChecks(contextOf([pageWith()], specWith()), [watched(apiGoals)]);
  expect(withoutApi).toEqual([
    expect.objectContaining({
      check: "api.goals",
      status: "skip",
      page: null,
      viewport: null,
      message: expect.stringMatching(/^The spec has no api section/),
      evidence: {},
    }),
  ]);
  const exported = specWith({ report: { file: "exports/report.json" } });
  expect(runChecks(contextOf([], exported), [watched(reportWarnings)])).toEqual([
    expect.objectContaining({ status: "skip", message: "Not judged: the report file was not read." }),
  ]);
  const asked = specWith({
    api: { baseUrl: "http://127.0.0.1:47411", keyEnv: "SERVICE_API_KEY" },
    report: { path: "/v1/projects/{project}/report" },
  });
  expect(runChecks(contextOf([], asked, null), [watched(reportWarnings)])).toEqual([
    expect.objectContaining({ status: "skip", message: expect.stringMatching(/^The spec has no api section/) }),
  ]);
  expect(runChecks(contextOf([pageWith()]), [watched(baselineCalls)])).toEqual([]);
  expect(evaluated).toEqual([]);
});

test("a page check judges each page × viewport from its artifacts alone, as merging shards assumes", () => {
  const cta = {
    name: "Pricing CTA copy, short vs long",
    page: "pricing",
    selector: "#cta-primary",
    goals: ["Signup completed"],
  };
  const spec = specWith({
    pages: [
      { id: "home", path: "/" },
      { id: "pricing", path: "/pricing" },
    ],
    experiments: [cta],
  });
  const pages = [
    pageWith({ page: "home" }),
    pageWith({
      page: "pricing",
      selectors: [
        { experiment: cta.name, selector: cta.selector, matched: 1, visible: 1, stableAlternative: cta.selector },
      ],
    }),
    pageWith({ page: "home", viewport: "mobile", mobile: true }),
  ];
  const judged = (pagesJudged: typeof pages, check: Check) =>
    runChecks(contextOf(pagesJudged, spec), [check])
      .map((finding) => JSON.stringify(finding))
      .sort();
  for (const check of CHECKS.filter((candidate) => candidate.scope === "page")) {
    // A shard holds some pages only: its page findings must be exactly those of a whole run.
    const apart = pages.flatMap((page) => judged([page], check)).sort();
    expect(apart, check.id).toEqual(judged(pages, check));
  }
});

test("the registry holds every check the modules define, each once", async () => {
  const folder = join(import.meta.dirname, "../../src/checks");
  const modules: Record<string, unknown>[] = await Promise.all(
    readdirSync(folder, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".ts"))
      .map((name) => import(pathToFileURL(join(folder, name)).href)),
  );
  const isCheck = (value: unknown): value is Check =>
    typeof value === "object" && value !== null && "id" in value && "evaluate" in value;
  const defined = modules.flatMap((module) =>
    Object.values(module)
      .filter(isCheck)
      .map((check) => check.id),
  );
  expect([...new Set(defined)].sort()).toEqual([...CHECK_IDS].sort());
  expect(new Set(CHECK_IDS).size).toBe(CHECK_IDS.length);
  // The report's order is the contract's: the registry lists its checks as CHECK_IDS names them.
  expect(CHECKS.map((check) => check.id)).toEqual([...CHECK_IDS]);
});

test("every published check id is still there, in its order; new ones may join anywhere", () => {
  const published: readonly CheckId[] = [
    "api.auth",
    "api.project",
    "api.workspace",
    "api.goals",
    "page.load",
    "page.domain",
    "page.errors",
    "sdk.present",
    "sdk.order",
    "sdk.key",
    "events.expected",
    "events.delivered",
    "goals.match",
    "identify.attributes",
    "identify.pii",
    "experiment.name",
    "experiment.goals",
    "experiment.selector",
    "viewports.coverage",
    "report.warnings",
    "baseline.calls",
  ];
  expect(CHECK_IDS.filter((id) => published.includes(id))).toEqual(published);
});
