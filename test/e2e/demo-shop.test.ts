import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { readSummary, runCli } from "./cli.js";
import { problemsOf } from "../../src/findings/finding.js";

/** The parts of an Allure result file this test reads. */
interface AllureResult {
  name: string;
  labels: { name: string; value: string }[];
  parameters: { name: string; value: string }[];
  steps: { name: string; status?: string; attachments: { name: string; type: string; source: string }[] }[];
}

test("the bundled demo shop passes on desktop and mobile", async ({}, testInfo) => {
  const out = testInfo.outputPath("out");
  const run = await runCli(["run", "audits/demo-shop.yaml", "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  // 3 pages and 2 variations' previews, each on 2 viewports.
  expect(run.stdout).toMatch(/\[10\/10\] demo-shop › .+ · (desktop|mobile)  gathered/);
  expect(run.stdout).toMatch(
    /\] demo-shop › pricing · Pricing CTA copy, short vs long · Preview link · mobile  gathered/,
  );
  // One progress line per page × viewport, though a page's viewports are gathered together.
  for (const viewport of ["desktop", "mobile"])
    expect(run.stdout).toMatch(new RegExp(`\\] demo-shop › signup · ${viewport}  gathered, [1-9]\\d* call\\(s\\)`));
  expect(run.stdout).toContain("Setup checklist — Demo shop (staging, audits/demo-shop.yaml)");
  expect(run.stdout).toMatch(/✓ Goals and events match\s+pass/);

  const summary = readSummary(out);
  expect(summary).toMatchObject({ version: 1, verdict: "pass" });
  expect(summary.runs).toEqual([
    expect.objectContaining({
      project: "Demo shop",
      environment: "staging",
      verdict: "pass",
      checklist: expect.objectContaining({ goalEventMatch: "pass", mobileAndDesktop: "pass" }),
    }),
  ]);
  expect(problemsOf(summary.findings)).toEqual([]);
  expect(new Set(summary.findings.map((finding) => finding.viewport))).toEqual(new Set(["desktop", "mobile", null]));
  // Every finding has the contract's fields; `variation` is null on all but the findings on a variation.
  for (const finding of summary.findings)
    expect(Object.keys(finding)).toEqual([
      "check",
      "status",
      "title",
      "severity",
      "family",
      "spec",
      "page",
      "viewport",
      "goal",
      "experiment",
      "variation",
      "message",
      "evidence",
    ]);
  const previews = summary.findings.filter((finding) => finding.variation !== null);
  expect(
    previews
      .map((finding) => [
        finding.check,
        finding.status,
        finding.page,
        finding.experiment,
        finding.variation,
        finding.viewport,
      ])
      .sort(),
  ).toEqual(
    ["desktop", "mobile"]
      .flatMap((viewport) => [
        ...["Long copy", "Preview link"].map((variation) => [
          "experiment.variation",
          "pass",
          "pricing",
          "Pricing CTA copy, short vs long",
          variation,
          viewport,
        ]),
        // The audit applies the js itself: not judged for flicker. The preview link is applied as its target is parsed: no flicker.
        ["experiment.flicker", "skip", "pricing", "Pricing CTA copy, short vs long", "Long copy", viewport],
        ["experiment.flicker", "pass", "pricing", "Pricing CTA copy, short vs long", "Preview link", viewport],
      ])
      .sort(),
  );
  expect(
    summary.calls
      .filter((call) => call.name === "signup_success")
      .map((call) => [call.viewport, call.delivery, call.beforeSdk]),
  ).toEqual(
    expect.arrayContaining([
      ["desktop", "accepted", false],
      ["mobile", "accepted", false],
    ]),
  );

  const resultsDir = join(out, "allure-results");
  const results = readdirSync(resultsDir)
    .filter((name) => name.endsWith("-result.json"))
    .map((name) => JSON.parse(readFileSync(join(resultsDir, name), "utf8")) as AllureResult);
  expect(results.length).toBeGreaterThanOrEqual(6);
  expect(existsSync(join(out, "screenshots/demo-shop/staging/signup.mobile.png"))).toBe(true);
  // The page's result carries one step per check and its screenshot, copied into the results (Allure keeps attachments in steps of their own).
  const signupMobile = results.find((result) => result.name === "signup · mobile")!;
  expect(signupMobile.labels).toEqual(
    expect.arrayContaining([
      { name: "epic", value: "Acme Marketing" },
      { name: "feature", value: "Demo shop" },
      { name: "story", value: "signup" },
    ]),
  );
  expect(signupMobile.parameters).toEqual(
    expect.arrayContaining([expect.objectContaining({ name: "environment", value: "staging" })]),
  );
  const screenshot = signupMobile.steps
    .flatMap((step) => step.attachments)
    .find((attachment) => attachment.name === "screenshot");
  expect(screenshot).toMatchObject({ type: "image/png" });
  expect(readFileSync(join(resultsDir, screenshot!.source)).subarray(1, 4).toString()).toBe("PNG");
  expect(signupMobile.steps.map((step) => [step.name.split(":")[0], step.status])).toEqual(
    expect.arrayContaining([
      ["page.load", "passed"],
      ["events.delivered", "passed"],
    ]),
  );
});
