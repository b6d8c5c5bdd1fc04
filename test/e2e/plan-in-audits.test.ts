import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { parse, stringify } from "yaml";
import { scratchDir } from "../support/scratch.js";
import { e2eSpec, readSummary, runCommand } from "./cli.js";

/**
 * docs/tracking-plan.md drafts the plan into audits/, where plain `validate` and `run` look for
 * specs: in a project of its own, they leave the plan out, say so once, and audit the spec (the
 * plan shop's correct page on the real Segment bundle, on one viewport).
 */
const BIN = join(import.meta.dirname, "../../bin/setup-audit.js");
const LEFT_OUT = "Left out audits/tracking-plan.yaml: a tracking plan, not a spec.";

test("a tracking plan beside the spec in audits/ is left out by plain validate and run, which audit the spec", async () => {
  const project = scratchDir("plan-in-audits");
  mkdirSync(join(project, "audits"));
  copyFileSync(e2eSpec("plans/plan-shop.yaml"), join(project, "audits", "tracking-plan.yaml"));
  const spec = parse(readFileSync(e2eSpec("plan-shop-segment.yaml"), "utf8")) as { pages: { id: string }[] };
  writeFileSync(
    join(project, "audits", "shop.yaml"),
    stringify({
      ...spec,
      trackingPlan: { file: "tracking-plan.yaml" },
      viewports: ["desktop"],
      // One viewport on purpose: not the audit's finding to judge here.
      checks: { "viewports.coverage": "off" },
      pages: spec.pages.filter((page) => page.id === "correct"),
    }),
  );
  const env = { ...process.env, GITHUB_ACTIONS: "", GITHUB_STEP_SUMMARY: "" };

  const validate = await runCommand(process.execPath, [BIN, "validate"], { cwd: project, env });
  expect(validate.code, validate.stdout + validate.stderr).toBe(0);
  expect(validate.stdout.split(LEFT_OUT)).toHaveLength(2);
  expect(validate.stdout).toContain("✓ audits/shop.yaml: Plan shop on segment");

  const run = await runCommand(process.execPath, [BIN, "run"], { cwd: project, env });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout.split(LEFT_OUT)).toHaveLength(2);
  const findings = readSummary(join(project, "reports")).findings;
  expect(new Set(findings.map((finding) => finding.spec))).toEqual(new Set(["audits/shop.yaml"]));
  expect(
    findings
      .filter((finding) => finding.check === "plan.properties")
      .map((finding) => `${finding.page} ${finding.viewport} ${finding.status}`),
  ).toEqual(["correct desktop pass"]);
});
