import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { parse, stringify } from "yaml";
import type { RunSummary } from "../../src/results/summary.js";
import type { Finding } from "../../src/findings/finding.js";
import { allowRunOf, e2eSpec, readSummary, runCli } from "./cli.js";

/**
 * The plan shop on the real Segment and PostHog bundles (fixtures/vendors/plan-shop.ts), judged
 * against its tracking plan in setup-audit's format (Segment) and as a Segment Protocols export
 * (PostHog), on both viewports: each planted fault gives exactly its plan.* finding with the JSON
 * pointer in evidence, the correct page passes, the page with no call skips. Then `plan draft`:
 * a draft of the correct pages, used as their plan, gives no violation; a draft of every page
 * flags where the calls disagree.
 */
test.describe.configure({ mode: "serial" });

const SPECS = { segment: "plan-shop-segment.yaml", posthog: "plan-shop-posthog.yaml" } as const;
const VIEWPORTS = ["desktop", "mobile"] as const;
const FAULTS = {
  "wrong-type": "plan.properties fail /revenue type",
  "missing-key": "plan.properties fail /order_id required",
  "outside-enum": "plan.properties fail /currency enum",
  "extra-key": "plan.properties fail /coupon additionalProperties",
  "near-miss": "plan.events warn Order Complete",
  "identify-missing-trait": "plan.properties fail /plan required",
} as const;

let out: string;
let summary: RunSummary;

test.beforeAll(async ({}, testInfo) => {
  allowRunOf(testInfo, [e2eSpec(SPECS.segment), e2eSpec(SPECS.posthog)]);
  out = join(testInfo.project.outputDir, "tracking-plan-run");
  const run = await runCli([
    "run",
    e2eSpec(SPECS.segment),
    e2eSpec(SPECS.posthog),
    "--out",
    out,
    "--save-artifacts",
    "--workers",
    "4",
  ]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  summary = readSummary(out);
});

/** A plan.* finding that is not a pass, as `check status pointer…` (or the unplanned names for plan.events). */
function described(finding: Finding): string {
  const evidence = finding.evidence as {
    violations?: { pointer: string; rule: string }[];
    unplanned?: { name: string }[];
  };
  const what =
    finding.check === "plan.events"
      ? (evidence.unplanned ?? []).map(({ name }) => name)
      : (evidence.violations ?? []).map(({ pointer, rule }) => `${pointer} ${rule}`);
  return `${finding.check} ${finding.status} ${what.join(", ")}`;
}

for (const [vendor, spec] of Object.entries(SPECS)) {
  const ofSpec = (finding: Finding) => finding.spec === e2eSpec(spec) && finding.check.startsWith("plan.");

  test(`${vendor}: each planted fault gives exactly its finding on both viewports, its JSON pointer in evidence`, () => {
    const reported = summary.findings.filter(
      (finding) => ofSpec(finding) && finding.page !== null && finding.status !== "pass" && finding.status !== "skip",
    );
    expect(reported.map((finding) => `${finding.page} ${finding.viewport} ${described(finding)}`).sort()).toEqual(
      Object.entries(FAULTS)
        .flatMap(([page, finding]) => VIEWPORTS.map((viewport) => `${page} ${viewport} ${finding}`))
        .sort(),
    );
  });

  test(`${vendor}: the correct page passes, the page with no call skips, and coverage names the planned event no page fired`, () => {
    const page = (id: string) =>
      summary.findings
        .filter((finding) => ofSpec(finding) && finding.page === id)
        .map((finding) => `${finding.check} ${finding.viewport} ${finding.status}`)
        .sort();
    expect(page("correct")).toEqual(
      VIEWPORTS.flatMap((viewport) => [`plan.events ${viewport} pass`, `plan.properties ${viewport} pass`]).sort(),
    );
    expect(page("no-call")).toEqual(
      VIEWPORTS.flatMap((viewport) => [`plan.events ${viewport} skip`, `plan.properties ${viewport} skip`]).sort(),
    );
    const coverage = summary.findings.filter((finding) => ofSpec(finding) && finding.check === "plan.coverage");
    expect(coverage.map((finding) => ({ status: finding.status, evidence: finding.evidence }))).toEqual([
      { status: "warn", evidence: { seen: ["Order Completed"], unseen: ["Checkout Started"], planned: 2 } },
    ]);
  });
}

test("the violations read as sentences, showing a value only when plan-like", () => {
  const message = (page: string) =>
    summary.findings.find(
      (finding) =>
        finding.spec === e2eSpec(SPECS.posthog) &&
        finding.check === "plan.properties" &&
        finding.page === page &&
        finding.viewport === "mobile",
    )?.message;
  expect(message("wrong-type")).toBe(
    "On mobile: Order Completed: `revenue` must be a number (was a string). Send what the plan says, or change the plan.",
  );
  expect(message("extra-key")).toBe(
    'On mobile: Order Completed: `coupon` is not in the plan, which allows no other key (was "spring"). Send what the plan says, or change the plan.',
  );
  expect(message("outside-enum")).toBe(
    'On mobile: Order Completed: `currency` must be one of "USD", "EUR" (was a string). Send what the plan says, or change the plan.',
  );
});

test("a draft of every page flags where the calls disagree", async ({}, testInfo) => {
  const draft = join(testInfo.outputDir, "every-page.yaml");
  mkdirSync(testInfo.outputDir, { recursive: true });
  const run = await runCli(["plan", "draft", "--from", out, "--out", draft]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const text = readFileSync(draft, "utf8");
  expect(text).toContain(
    '"revenue": { type: [number, string] }  # check: sent as number and string: keep the type the plan means',
  );
  expect(text).toContain('"order_id": { type: string }  # check: sent by 20 of 24 calls: not required');
  expect(text).toContain(
    '"coupon": { enum: ["spring"] }  # check: sent by 4 of 24 calls: not required; the value seen; add the others it may take',
  );
  expect(text).toContain('"Order Complete":  # check: close to "Order Completed": one event under two names?');
  expect(text).toContain(
    '"plan": { enum: ["pro"] }  # check: sent by 24 of 28 calls: not required; the value seen; add the others it may take',
  );
});

test("a draft of the correct pages, used as their plan, gives no violation", async ({}, testInfo) => {
  // The spec names a plan beside it: first the shop's own, then the draft written over it from the run.
  const dir = join(testInfo.outputDir, "correct");
  mkdirSync(dir, { recursive: true });
  const spec = join(dir, "plan-shop-segment.yaml");
  const plan = join(dir, "drafted.yaml");
  copyFileSync(e2eSpec("plans/plan-shop.yaml"), plan);
  writeFileSync(
    spec,
    stringify({ ...parse(readFileSync(e2eSpec(SPECS.segment), "utf8")), trackingPlan: { file: "drafted.yaml" } }),
  );
  const runOut = join(dir, "out");
  const gathered = await runCli(["run", spec, "--page", "correct", "--save-artifacts", "--out", runOut]);
  expect([0, 1], gathered.stdout + gathered.stderr).toContain(gathered.code);
  const drafted = await runCli(["plan", "draft", "--from", runOut, "--out", plan, "--force"]);
  expect(drafted.code, drafted.stdout + drafted.stderr).toBe(0);
  expect(readFileSync(plan, "utf8")).toContain('"Order Completed":');
  const judged = await runCli(["run", "--from-artifacts", runOut, "--out", join(dir, "judged")]);
  const findings = readSummary(join(dir, "judged")).findings.filter((finding) => finding.check.startsWith("plan."));
  expect(
    findings.map((finding) => `${finding.check} ${finding.viewport} ${finding.status}`).sort(),
    judged.stdout,
  ).toEqual(
    [
      "plan.coverage null pass",
      ...VIEWPORTS.flatMap((viewport) => [`plan.events ${viewport} pass`, `plan.properties ${viewport} pass`]),
    ].sort(),
  );
});

test("a broken plan stops validate and run with exit 2, each problem at its file:line:col", async ({}, testInfo) => {
  const dir = join(testInfo.outputDir, "broken");
  mkdirSync(dir, { recursive: true });
  const spec = join(dir, "shop.yaml");
  writeFileSync(join(dir, "plan.yaml"), "events:\n  Order Completed:\n    propertes: { type: object }\n");
  writeFileSync(
    spec,
    stringify({ ...parse(readFileSync(e2eSpec(SPECS.segment), "utf8")), trackingPlan: { file: "plan.yaml" } }),
  );
  for (const command of ["validate", "run"]) {
    const run = await runCli(command === "run" ? [command, spec, "--out", join(dir, "out")] : [command, spec]);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `${join(dir, "plan.yaml")}:3:5 events["Order Completed"].propertes: unknown key "propertes": an event has properties and description`,
    );
  }
});
