import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import * as allure from "allure-js-commons";
import { CHECKS } from "../checks/index.js";
import { pageTitle, viewportTag } from "../gather/titles.js";
import { readPlan } from "../plan.js";
import type { Finding, Status } from "../results.js";
import type { TargetResult } from "./summary.js";

/**
 * The report phase: replays the findings as Allure results, one test per page × viewport with one
 * step per check, so the report reads like the audit. Nothing is gathered or judged here.
 */
const plan = readPlan();
const results = JSON.parse(readFileSync(join(plan.workDir, "results.json"), "utf8")) as TargetResult[];

const ALLURE_STATUS: Record<Status, allure.Status> = {
  pass: allure.Status.PASSED,
  warn: allure.Status.BROKEN,
  fail: allure.Status.FAILED,
  skip: allure.Status.SKIPPED,
};
const CHECK_TITLES = new Map(CHECKS.map((check) => [check.id, check]));

async function reportFindings(findings: readonly Finding[]): Promise<void> {
  for (const finding of findings) {
    const check = CHECK_TITLES.get(finding.check);
    const title = finding.status === "pass" || finding.status === "skip" ? check?.title : check?.failureTitle;
    await allure.logStep(`${finding.check}: ${title ?? finding.check} — ${finding.message}`, ALLURE_STATUS[finding.status]);
  }
  const failed = findings.filter((finding) => finding.status === "fail");
  expect(failed.map((finding) => `${finding.check}: ${finding.message}`), "failed checks").toEqual([]);
}

for (const result of results) {
  const target = plan.targets.find((candidate) => candidate.specFile === result.spec)!;
  const labels = async (story: string) => {
    await allure.epic(target.spec.workspace);
    await allure.feature(target.spec.project);
    await allure.story(story);
    await allure.parameter("environment", target.environment);
  };

  for (const pageId of target.pages) {
    test(pageTitle(target.slug, pageId), { tag: target.viewports.map(viewportTag) }, async ({}, testInfo) => {
      const viewport = testInfo.project.name;
      const page = result.pages.find((candidate) => candidate.page === pageId && candidate.viewport === viewport);
      test.skip(!page, "not audited in this run");
      await labels(pageId);
      if (page?.screenshot) await allure.attachmentPath("screenshot", join(plan.outDir, page.screenshot), { contentType: "image/png" });
      await reportFindings(result.findings.filter((finding) => finding.page === pageId && finding.viewport === viewport));
    });
  }

  test(pageTitle(target.slug, "goals"), { tag: target.viewports.map(viewportTag) }, async ({}, testInfo) => {
    await labels("goals");
    await reportFindings(result.findings.filter((finding) => finding.goal !== null && finding.viewport === testInfo.project.name));
  });

  // Spec-wide findings are reported once, under the first viewport's project.
  test(pageTitle(target.slug, "setup"), { tag: [viewportTag(target.viewports[0]!)] }, async () => {
    await labels("setup");
    await reportFindings(result.findings.filter((finding) => finding.page === null && finding.goal === null));
  });
}
