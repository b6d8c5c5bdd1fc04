import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { chromium, type Browser } from "playwright";
import { LAUNCH_ARGS } from "../../src/browser/launch.js";
import { readSummary, runCli } from "./cli.js";
import { testBrowserPath } from "../support/browser.js";
import { GOLDEN_DIR, GOLDEN_SPEC } from "../support/golden.js";
import { textsUnder } from "../support/output-texts.js";
import { expectAllureShows, openOffline as openOfflineIn, type OfflinePage } from "../support/offline.js";

/**
 * The broken shop's golden artifacts judged again (`run --from-artifacts`, no page opened): the
 * report is built from what was gathered, the same either way.
 */
const REPLAY = ["run", GOLDEN_SPEC, "--from-artifacts", GOLDEN_DIR];
/** The broken shop's journey types this e-mail address; it must appear nowhere in the report. */
const TYPED_EMAIL = "qa@example.test";
/** The broken shop's identify calls send user ids like `u_3f9a1c2b7d4e`. */
const USER_ID = /\bu_[0-9a-f]{6,}\b/;

/** The overview's button that shows the Allure report. */
const OPEN_ALLURE = "Open the detailed report (Allure)";

/** A report opened in Chromium where every request that is not file:, data: or blob: is blocked and recorded. */
interface OfflineReport extends OfflinePage {
  browser: Browser;
}

async function openOffline(file: string): Promise<OfflineReport> {
  const browser = await chromium.launch({ executablePath: testBrowserPath(), args: LAUNCH_ARGS });
  const context = await browser.newContext({ viewport: { width: 1400, height: 1100 } });
  return { browser, ...(await openOfflineIn(context, file)) };
}

test("the single-file report of a broken-shop run opens offline on its overview, shows the checklist and the planted failures one click away, and holds no planted personal data", async ({}, testInfo) => {
  const out = testInfo.outputPath("out");
  const run = await runCli([...REPLAY, "--out", out], {}, { htmlReport: true });
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stdout).toContain(`Report: ${join(out, "html")}/ — serve it`);
  expect(run.stdout).toContain(`Shareable file: run \`setup-audit report --out ${out} --single-file --open\``);

  const startedAt = Date.now();
  const report = await runCli(["report", "--out", out, "--single-file"]);
  const buildMs = Date.now() - startedAt;
  expect(report.code, report.stdout + report.stderr).toBe(0);
  const singleFile = join(out, "audit-report.html");
  expect(report.stdout).toContain(`Shareable file: ${singleFile} (`);
  // The run already recorded itself; building its report again replaces that entry.
  expect(report.stdout).toContain("History: 1 run(s)");
  expect(report.stdout).toContain("(this run's entry replaced)");
  testInfo.annotations.push({
    type: "single-file report",
    description: `${statSync(singleFile).size} bytes; \`report --single-file\` took ${buildMs} ms`,
  });

  await test.step("opened offline, it shows the checklist and the planted failures and calls no host", async () => {
    const opened = await openOffline(singleFile);
    const { browser, page, outside } = opened;
    try {
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Verdict: FAIL");
      await page.getByRole("button", { name: OPEN_ALLURE, exact: true }).click();
      // The Allure app: the overview beside it is hidden, yet holds some of the same words.
      const allure = page.locator("#app");
      await expectAllureShows(opened, "Setup audit: Broken shop (staging)");
      await expect(allure.getByText("Setup checklist — Broken shop (staging)")).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath("report.png") });

      await allure.getByText("Setup checklist — Broken shop (staging)").click();
      await expect(
        allure.getByText(/^Goals and events match: fail — \d+ failed: .*goals\.match \[Signup completed · desktop\]/),
      ).toBeVisible();
      await expect(
        allure.getByText(
          /^No bot\/SRM or dropped-event warning: fail — .*events\.delivered \[navigate-away · (desktop|mobile)\]/,
        ),
      ).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath("checklist.png") });
      await page.goBack();

      await allure.getByText("early-call · desktop", { exact: true }).click();
      await expect(
        allure.getByText(/^sdk\.order: Calls run before the SDK has loaded — 1 call\(s\) ran before `expsvc` existed/),
      ).toBeVisible();
      await page.goBack();

      await allure.getByText("goals · desktop", { exact: true }).click();
      await expect(
        allure.getByText(
          /^goals\.match: .* — Goal "Signup completed" expects `signup_success`, but the pages fire `Signup Success`/,
        ),
      ).toBeVisible();
      await page.goBack();

      await allure
        .getByText(/^Categories/)
        .first()
        .click();
      for (const category of [
        "Setup cannot be trusted yet",
        "SDK installation and load order",
        "Goal/event mismatch",
        "Delivery",
      ]) {
        await expect(allure.getByText(category, { exact: true }).first()).toBeVisible();
      }
      expect(outside).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  await test.step("no planted personal data is anywhere in the output folder (the API key's are test/e2e/api.test.ts')", async () => {
    const summary = readSummary(out);
    // The broken shop does send identify calls, so there were user ids to leak.
    expect(summary.calls.some((call) => call.kind === "identify")).toBe(true);
    const texts = textsUnder(out);
    expect(texts.some(({ file }) => file.includes("audit-report.html → data/attachments/"))).toBe(true);
    expect(texts.filter(({ text }) => text.includes(TYPED_EMAIL)).map(({ file }) => file)).toEqual([]);
    const reportParts = texts.filter(
      ({ file }) => !file.endsWith("summary.json") && !/\/html\/app-[\w]+\.js/.test(file),
    );
    expect(reportParts.filter(({ text }) => USER_ID.test(text)).map(({ file }) => file)).toEqual([]);
  });
});

test("two consecutive runs give a report whose history shows both; rebuilding it adds no entry", async ({}, testInfo) => {
  const out = testInfo.outputPath("out");
  const run = [...REPLAY, "--out", out, "--page", "early-call", "--viewport", "desktop"];
  const first = await runCli(run, {}, { htmlReport: true });
  expect(first.code, first.stdout + first.stderr).toBe(1);
  expect(first.stdout).toContain("History: 1 run(s)");
  const second = await runCli([...run, "--single-file"]);
  expect(second.code, second.stdout + second.stderr).toBe(1);
  expect(second.stdout).toContain("History: 2 run(s)");
  expect(second.stdout).toContain("(this run added)");

  const rebuilt = await runCli(["report", "--out", out, "--open"], { DISPLAY: "", WAYLAND_DISPLAY: "" });
  expect(rebuilt.code, rebuilt.stdout + rebuilt.stderr).toBe(0);
  expect(rebuilt.stdout).toContain("History: 2 run(s)");
  expect(rebuilt.stdout).toContain(
    `No desktop to open it on here (no DISPLAY or WAYLAND_DISPLAY): open ${join(out, "audit-report.html")} in a browser.`,
  );
  expect(
    readFileSync(join(out, "history", "history.jsonl"), "utf8")
      .trim()
      .split("\n"),
  ).toHaveLength(2);

  const opened = await openOffline(join(out, "audit-report.html"));
  const { browser, page, outside } = opened;
  try {
    await page.getByRole("button", { name: OPEN_ALLURE, exact: true }).click();
    await expectAllureShows(opened, "Setup checklist — Broken shop (staging)");
    await page.getByText("Setup checklist — Broken shop (staging)").click();
    await page
      .getByText(/^History/)
      .first()
      .click();
    // The report is the second run; its history lists the first.
    await expect(page.getByText(/^\d{1,2}\/\d{1,2}\/\d{4} at \d{1,2}:\d{2}:\d{2}$/)).toHaveCount(1);
    await page.screenshot({ path: testInfo.outputPath("history.png") });
    expect(outside).toEqual([]);
  } finally {
    await browser.close();
  }
});

test("report without results says which run to do first", async ({}, testInfo) => {
  const out = testInfo.outputPath("empty");
  const report = await runCli(["report", "--out", out]);
  expect(report.code).toBe(2);
  expect(report.stderr).toBe(
    `setup-audit: No audit results in ${join(out, "allure-results")}.\nRun \`setup-audit run --out ${out}\` first, or point --out at the folder a run wrote.\n`,
  );
  expect(existsSync(out)).toBe(false);
});
