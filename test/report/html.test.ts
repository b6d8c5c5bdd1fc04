import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { historyReportIds } from "../../src/report/history.js";
import { buildReport } from "../../src/report/html.js";
import { writeRun } from "../support/allure-results.js";

// Each test builds the report two or three times (Allure's generator, a few seconds each when the
// machine is idle, ten times that beside two suites on 2 cores): the limit catches a hang.
test.describe.configure({ timeout: 180_000 });

test("rebuilding the same results replaces their history entry; a new run adds one", async ({}, testInfo) => {
  const out = testInfo.outputPath("out");
  writeRun(out, "failed");
  const first = await buildReport(out, { singleFile: false });
  expect(first).toMatchObject({ historyRuns: 1, rebuilt: false, singleFile: null, singleFileBytes: null });
  const firstIds = historyReportIds(first.historyFile);

  const again = await buildReport(out, { singleFile: true });
  expect(again).toMatchObject({ historyRuns: 1, rebuilt: true });
  expect(historyReportIds(again.historyFile)).toEqual(firstIds);

  writeRun(out, "passed");
  const next = await buildReport(out, { singleFile: false });
  expect(next).toMatchObject({ historyRuns: 2, rebuilt: false });
  expect(historyReportIds(next.historyFile)).toEqual([firstIds[0], expect.not.stringMatching(firstIds[0]!)]);
  expect(next.historyFile).toBe(join(out, "history", "history.jsonl"));
});

test("the build writes html/ and, on request, the single file; it leaves no stale file or build folder", async ({}, testInfo) => {
  const out = testInfo.outputPath("out");
  writeRun(out, "failed");
  const single = await buildReport(out, { singleFile: true });
  expect(single.singleFile).toBe(join(out, "audit-report.html"));
  expect(single.singleFileBytes).toBeGreaterThan(100_000);
  const html = readFileSync(single.singleFile!, "utf8");
  expect(html).toContain('http-equiv="Content-Security-Policy"');
  expect(html).not.toMatch(/googletagmanager|gtag\(/);
  const folderReport = readFileSync(join(out, "html", "index.html"), "utf8");
  expect(folderReport).toContain('http-equiv="Content-Security-Policy"');
  // The single file's data is declared before its app starts; the folder's report has none, and fetches its files.
  const declared = html.indexOf("<script>window.allureReportData = {}; window.allureReportDataReady = false;</script>");
  expect(declared).toBeGreaterThan(0);
  expect(declared).toBeLessThan(html.search(/<script\b[^>]*\bsrc=/));
  expect(folderReport).not.toContain("window.allureReportData = {}");

  writeRun(out, "passed");
  await buildReport(out, { singleFile: false });
  // The single file of the earlier run would pass for this run's report.
  expect(existsSync(join(out, "audit-report.html"))).toBe(false);
  expect(readdirSync(out).sort()).toEqual(["allure-results", "history", "html"]);
});
