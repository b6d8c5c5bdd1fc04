import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "@playwright/test";
import { PNG } from "pngjs";
import type { ChangedFinding, RunSummary } from "../../src/results/summary.js";
import type { RecordedChecklist } from "../../src/results/changes.js";
import { type Finding, problemsOf } from "../../src/findings/finding.js";
import { overviewParts, withOverview } from "../../src/report/overview/overview.js";
import { test } from "../support/browser.js";
import { GOLDEN_DIR } from "../support/golden.js";

/**
 * The overview on a phone: the broken shop's golden summary made as long as real ones get (a long
 * spec path and project, URLs without a space to break at, twenty more pages, a tracking plan,
 * consent, changes, sixty runs of history and a wide picture), in Allure's page (whose template
 * has no viewport tag of its own), opened in Chromium as a 390×844 phone.
 */

const PHONE = { width: 390, height: 844 };
const LONG_URL =
  "https://checkout.northwind-traders-international.example.com/en-gb/account/orders/2026/11/28/order-confirmation-and-upsell-page";
const LONG_SPEC = "audits/clients/northwind-traders-international/production/checkout-and-account-journeys.yaml";
const LONG_EVENT = "Checkout_Step_Completed_With_Payment_Method_Selected_And_Coupon_Applied";
/** Allure's single-file template around the overview, as far as the page's layout goes. */
const ALLURE_PAGE =
  '<!DOCTYPE html>\n<html dir="ltr" lang="en">\n<head>\n<meta charset="utf-8">\n<title>Allure Report</title>\n</head>\n<body>\n<div id="app"></div>\n</body>\n</html>';

function longSummary(): RunSummary {
  const golden = JSON.parse(readFileSync(join(GOLDEN_DIR, "summary.json"), "utf8")) as RunSummary;
  const lengthen = (finding: Finding): Finding => ({
    ...finding,
    spec: LONG_SPEC,
    message: finding.message.replaceAll("http://127.0.0.1:47413/", `${LONG_URL}/`),
  });
  const home = golden.findings.filter((finding) => finding.page === "home");
  const morePages = Array.from({ length: 20 }, (_, index) =>
    home.map((finding) => ({ ...finding, page: `category-womens-outerwear-and-accessories-autumn-${index}` })),
  ).flat();
  const spanning = (check: Finding["check"], status: Finding["status"], message: string, evidence = {}): Finding => ({
    ...home[0]!,
    check,
    status,
    message,
    evidence,
  });
  const extra: Finding[] = [
    {
      ...spanning("plan.coverage", "warn", `1 of 2 planned events fired on no audited page: ${LONG_EVENT}.`, {
        seen: [`${LONG_EVENT}_Again`],
        unseen: [LONG_EVENT],
      }),
      page: null,
      viewport: null,
    },
    spanning("plan.properties", "fail", `On desktop: \`${LONG_EVENT}\` property \`revenue\` is a string.`, {
      judgedCalls: 2,
      violations: [{ callIndex: 1 }],
    }),
    spanning("consent.before", "fail", `Before consent was given, ${LONG_URL} sent 2 request(s) to ${LONG_URL}.`),
    spanning("consent.banner", "pass", "The banner showed at 300 ms."),
  ];
  const changed = (finding: Finding): ChangedFinding => ({
    check: finding.check,
    spec: LONG_SPEC,
    environment: "production-eu-west-with-a-long-name",
    page: finding.page,
    viewport: finding.viewport,
    goal: finding.goal,
    experiment: finding.experiment,
    variation: finding.variation,
    status: finding.status,
  });
  const problems = problemsOf(golden.findings);
  return {
    ...golden,
    runs: golden.runs.map((run) => ({
      ...run,
      spec: LONG_SPEC,
      project: "Northwind Traders International web shop — checkout and account",
      environment: "production-eu-west-with-a-long-name",
    })),
    findings: [...golden.findings, ...morePages, ...extra].map(lengthen),
    changes: {
      comparedWith: { startedAt: "2026-11-27T03:00:41.000Z", verdict: "fail" },
      new: problems.slice(0, 14).map(changed),
      worse: problems.slice(14, 16).map(changed),
      resolved: problems.slice(16, 30).map((finding) => ({ ...changed(finding), status: "pass" })),
      persisting: 4,
    },
  };
}

function sixtyRuns(summary: RunSummary): RecordedChecklist[] {
  const run = summary.runs[0]!;
  return Array.from({ length: 60 }, (_, day) => ({
    startedAt: new Date(Date.UTC(2026, 9, 1 + day, 3)).toISOString(),
    spec: run.spec,
    environment: run.environment,
    verdict: run.verdict,
    checklist: run.checklist,
  }));
}

/** A 1280×200 picture, as wide as a desktop side by side. */
function widePicture(): Buffer {
  const image = new PNG({ width: 1280, height: 200 });
  image.data.fill(200);
  return PNG.sync.write(image);
}

test("on a 390 px phone nothing overflows sideways: long URLs, spec paths and names wrap, tables and the trend scroll inside their own box", async ({
  browser,
}, testInfo) => {
  const summary = longSummary();
  const parts = overviewParts({
    summary,
    history: sixtyRuns(summary),
    pictures: [
      {
        title: "Pricing CTA copy with a long experiment name · variations · desktop",
        target: "Northwind Traders (production)",
        images: [{ caption: "control and variations side by side", png: widePicture() }],
      },
    ],
  });
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  try {
    const page = await context.newPage();
    await page.setContent(withOverview(ALLURE_PAGE, parts));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Verdict: FAIL");
    await page.screenshot({ path: testInfo.outputPath("overview-phone.png") });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // Every box that sticks out of the viewport, other than inside a box that scrolls sideways on its own.
    const outside = await page.evaluate(() => {
      const scrolls = (element: Element) => ["auto", "scroll"].includes(getComputedStyle(element).overflowX);
      const inScrollingBox = (element: Element) => {
        for (let parent = element.parentElement; parent !== null; parent = parent.parentElement)
          if (scrolls(parent)) return true;
        return false;
      };
      return [...document.querySelectorAll("#sa-overview *")]
        .filter((element) => {
          const box = element.getBoundingClientRect();
          return box.width > 0 && (box.right > window.innerWidth + 0.5 || box.left < -0.5);
        })
        .filter((element) => !inScrollingBox(element))
        .map(
          (element) => `${element.tagName.toLowerCase()}.${element.className}: ${element.textContent?.slice(0, 60)}`,
        );
    });
    expect(outside).toEqual([]);
    // What scrolls sideways can be scrolled from the keyboard, and says what it holds (axe-core's
    // scrollable-region-focusable; the full axe-core audit of the report is the end-to-end overview test's).
    const scrolling = await page.evaluate(() =>
      [...document.querySelectorAll("#sa-overview *")]
        .filter((element) => element.scrollWidth > element.clientWidth + 1)
        .filter((element) => ["auto", "scroll"].includes(getComputedStyle(element).overflowX))
        .map((element) => ({
          focusable: (element as HTMLElement).tabIndex >= 0,
          label: element.getAttribute("aria-label"),
        })),
    );
    expect(scrolling.length).toBeGreaterThan(0);
    expect(scrolling.filter(({ focusable, label }) => !focusable || !label)).toEqual([]);
  } finally {
    await context.close();
  }
});
