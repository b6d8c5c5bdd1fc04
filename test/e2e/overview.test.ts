import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import { CHECK_IDS } from "../../src/findings/finding.js";
import { expect, test } from "@playwright/test";
import { chromium } from "playwright";
import { LAUNCH_ARGS } from "../../src/browser/launch.js";
import { CHECKLIST_LABELS, findingCounts } from "../../src/report/console.js";
import type { RunSummary } from "../../src/results/summary.js";
import { testBrowserPath } from "../support/browser.js";
import { GOLDEN_DIR, GOLDEN_SPEC } from "../support/golden.js";
import { openOffline } from "../support/offline.js";
import { readSummary, runCli } from "./cli.js";

/**
 * The shareable report opens on its overview. The broken shop's golden artifacts are judged twice
 * into one output folder (`run --from-artifacts`: no page opened), first its home page alone, then
 * every page, so the second run has failures, new ones among them, and a history to draw. Its
 * single file is opened in a 1280×800 window where every request to another host is blocked and
 * counted.
 */
test.describe.configure({ mode: "serial" });

const out = mkdtempSync(join(tmpdir(), "overview-"));
let summary: RunSummary;

test.beforeAll(async () => {
  const replay = ["run", GOLDEN_SPEC, "--from-artifacts", GOLDEN_DIR, "--out", out];
  // Its report is built, so that the second's history lists it.
  const first = await runCli([...replay, "--page", "home"], {}, { htmlReport: true });
  expect(first.code, first.stdout + first.stderr).toBe(1);
  const second = await runCli([...replay, "--single-file"]);
  expect(second.code, second.stdout + second.stderr).toBe(1);
  summary = readSummary(out);
});

test("without a click, the first screen shows the verdict naming every failed check's id first, the five checklist items and the changes line; nothing calls out; one click opens the Allure report", async ({}, testInfo) => {
  expect(summary.changes?.new.length).toBeGreaterThan(0);
  const failing = new Set(
    summary.findings.filter((finding) => finding.status === "fail").map((finding) => finding.check),
  );
  // In the registry's order, as the findings to act on list them.
  const failed = CHECK_IDS.filter((check) => failing.has(check));
  expect(failed.length).toBeGreaterThan(3);

  const browser = await chromium.launch({ executablePath: testBrowserPath(), args: LAUNCH_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, outside } = await openOffline(context, join(out, "audit-report.html"));
    await page.screenshot({ path: testInfo.outputPath("overview.png") });

    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Verdict: FAIL");
    await expect(page.getByRole("heading", { level: 1 })).toBeInViewport();
    // The worst first: the failed checks with their counts, then what was not checked, then the counts.
    const count = (check: string) =>
      summary.findings.filter((finding) => finding.check === check && finding.status === "fail").length;
    const verdict = page.locator(".sa-verdict-line");
    await expect(verdict).toHaveText(
      `FAIL — failed checks: ${failed.map((check) => `${check} (${count(check)})`).join(", ")} — 1 of 5 checklist items not checked: the spec has no api section, so the service API is not cross-checked — ${findingCounts(summary)}`,
    );
    await expect(verdict).toBeInViewport();
    await expect(verdict.locator("code")).toHaveText(failed);
    const changes = summary.changes!;
    const changesLine = page.locator(".sa-changes");
    await expect(changesLine).toHaveText(
      new RegExp(
        `^Since [0-9-]+ [0-9:]+ UTC: ${changes.new.length} new, ${changes.worse.length} worse, ${changes.resolved.length} resolved, (\\d+) still failing, (\\d+) still warning\\.$`,
      ),
    );
    const [, failing, warning] = (await changesLine.textContent())!.match(/(\d+) still failing, (\d+) still warning/)!;
    // The persisting findings (the home page's, audited in both runs), warnings counted apart.
    expect(Number(failing) + Number(warning)).toBe(changes.persisting);
    await expect(changesLine).toBeInViewport();
    const checklist = page
      .getByRole("region", { name: "Setup checklist of Broken shop (staging)" })
      .getByRole("listitem");
    await expect(checklist).toHaveText(
      Object.values(CHECKLIST_LABELS).map(
        (label, index) => `${["not checked", "fail", "fail", "pass", "fail"][index]} ${label}`,
      ),
    );
    for (const item of await checklist.all()) await expect(item).toBeInViewport();

    // Below the first screen, what is new is named, the first ten.
    const changedNew = page.getByRole("heading", { level: 3, name: /^New: / });
    await expect(changedNew).toBeVisible();
    await expect(page.locator(".sa-changed").first().getByRole("listitem")).toHaveCount(
      Math.min(10, changes.new.length),
    );

    const accessibility = await new AxeBuilder({ page }).analyze();
    const serious = accessibility.violations.filter(
      (violation) => violation.impact === "serious" || violation.impact === "critical",
    );
    expect(
      serious.map(
        (violation) =>
          `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
      ),
    ).toEqual([]);

    await page.getByRole("button", { name: "Open the detailed report (Allure)", exact: true }).click();
    await expect(page.getByText("Setup audit: Broken shop (staging)").first()).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Verdict: FAIL" })).toBeHidden();
    await page.getByRole("button", { name: "Back to the overview" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeInViewport();
    expect(outside).toEqual([]);
  } finally {
    await browser.close();
  }
});

test("printed, the report is the overview alone; the report folder opens on the same overview", async () => {
  const browser = await chromium.launch({ executablePath: testBrowserPath(), args: LAUNCH_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, outside } = await openOffline(context, join(out, "audit-report.html"));
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Verdict: FAIL");
    await expect(page.getByRole("heading", { name: "Findings to act on" })).toBeVisible();
    await expect(page.locator("#app")).toBeHidden();
    await expect(page.getByRole("button", { name: "Open the detailed report (Allure)", exact: true })).toBeHidden();
    expect(outside).toEqual([]);
  } finally {
    await browser.close();
  }
  const folderReport = readFileSync(join(out, "html", "index.html"), "utf8");
  expect(folderReport.indexOf('<main id="sa-overview">')).toBeLessThan(folderReport.indexOf('<div id="app">'));
  expect(folderReport).toContain(`<p class="sa-changes">Since `);
});
