import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { readSummary, runCli } from "./cli.js";

test("the bundled demo shop passes on desktop and mobile", async ({}, testInfo) => {
  const out = testInfo.outputPath("out");
  const run = await runCli(["run", "audits/demo-shop.yaml", "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toMatch(/\[6\/6\] demo-shop › \S+ · (desktop|mobile)/);
  expect(run.stdout).toContain("Setup checklist — Demo shop (staging, audits/demo-shop.yaml)");
  expect(run.stdout).toMatch(/✓ Goals and events match\s+pass/);

  const summary = readSummary(out);
  expect(summary).toMatchObject({ version: 1, verdict: "pass" });
  expect(summary.runs).toEqual([
    expect.objectContaining({ project: "Demo shop", environment: "staging", verdict: "pass", checklist: expect.objectContaining({ goalEventMatch: "pass", mobileAndDesktop: "pass" }) }),
  ]);
  expect(summary.findings.filter((finding) => finding.status === "fail" || finding.status === "warn")).toEqual([]);
  expect(new Set(summary.findings.map((finding) => finding.viewport))).toEqual(new Set(["desktop", "mobile", null]));
  expect(summary.calls.filter((call) => call.name === "signup_success").map((call) => [call.viewport, call.delivery, call.beforeSdk])).toEqual(
    expect.arrayContaining([["desktop", "accepted", false], ["mobile", "accepted", false]]),
  );

  const results = readdirSync(join(out, "allure-results")).filter((name) => name.endsWith("-result.json"));
  expect(results.length).toBeGreaterThanOrEqual(6);
  expect(existsSync(join(out, "screenshots/demo-shop/staging/signup.mobile.png"))).toBe(true);
});
