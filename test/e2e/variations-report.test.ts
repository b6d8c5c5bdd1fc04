import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "@playwright/test";
import type { Page } from "playwright";
import { COLUMN_GUTTER } from "../../src/report/side-by-side.js";
import type { RunSummary } from "../../src/results/summary.js";
import { test } from "../support/browser.js";
import { openOffline } from "../support/offline.js";
import { allowRunOf, findingOf, readSummary, runCli } from "./cli.js";

/**
 * The demo shop's experiment with variations, as the single-file report shows it: per viewport one
 * result whose steps are the variations' findings and whose picture puts the control beside them.
 */
test.describe.configure({ mode: "serial" });

const EXPERIMENT = "Pricing CTA copy, short vs long";
const VARIATIONS = ["Long copy", "Preview link"] as const;
const VIEWPORTS = ["desktop", "mobile"] as const;
const PICTURE = "control and variations side by side";
/** The preview link's filmstrip (experiment.flicker): the site applies it, so its frames are kept. */
const FILMSTRIP = 'filmstrip of "Preview link"';
/** The picture's columns: the control, then each variation. */
const COLUMNS = 1 + VARIATIONS.length;
const resultName = (viewport: string) => `${EXPERIMENT} · variations · ${viewport}`;

/** The parts of an Allure result file this test reads. */
interface Attachment {
  name: string;
  type: string;
  source: string;
}
interface AllureResult {
  name: string;
  status: string;
  labels: { name: string; value: string }[];
  attachments: Attachment[];
  steps: { name: string; status?: string | null; attachments: Attachment[] }[];
}

let out: string;
let runOutput: string;
let summary: RunSummary;
let results: AllureResult[];

test.beforeAll(async ({}, testInfo) => {
  allowRunOf(testInfo, ["audits/demo-shop.yaml"]);
  out = join(testInfo.project.outputDir, "variations-report-run");
  const run = await runCli(["run", "audits/demo-shop.yaml", "--out", out, "--single-file"]);
  runOutput = run.stdout + run.stderr;
  expect(run.code, runOutput).toBe(0);
  summary = readSummary(out);
  const resultsDir = join(out, "allure-results");
  results = readdirSync(resultsDir)
    .filter((name) => name.endsWith("-result.json"))
    .map((name) => JSON.parse(readFileSync(join(resultsDir, name), "utf8")) as AllureResult);
});

/** The `image/png` attachments of a result, wherever Allure put them (its own or its steps'). */
function pngAttachments(result: AllureResult): Attachment[] {
  return [...result.attachments, ...result.steps.flatMap((step) => step.attachments)].filter(
    (attachment) => attachment.type === "image/png",
  );
}

/** A PNG's width and height, read from its header. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test("summary.json: each variation previews well on each viewport, with its experiment, variation and viewport", () => {
  expect(summary.findings.filter((finding) => finding.check === "experiment.variation")).toHaveLength(
    VARIATIONS.length * VIEWPORTS.length,
  );
  for (const variation of VARIATIONS) {
    for (const viewport of VIEWPORTS) {
      const finding = findingOf(summary, "experiment.variation", { page: "pricing", viewport, variation });
      expect(finding, `${variation} on ${viewport}`).toMatchObject({
        status: "pass",
        experiment: EXPERIMENT,
        goal: null,
      });
    }
  }
});

test("allure-results: one variations result per viewport, its steps the variations' findings, with the side-by-side picture and the preview link's filmstrip attached", () => {
  const variationResults = results.filter((result) => result.name.startsWith(`${EXPERIMENT} · variations`));
  expect(variationResults.map((result) => result.name).sort()).toEqual(VIEWPORTS.map(resultName).sort());
  for (const viewport of VIEWPORTS) {
    const result = variationResults.find((candidate) => candidate.name === resultName(viewport))!;
    expect(result.status, viewport).toBe("passed");
    expect(result.labels, viewport).toEqual(expect.arrayContaining([{ name: "story", value: "pricing" }]));
    const findingSteps = result.steps.filter((step) => step.name.startsWith("experiment.variation:"));
    expect(
      findingSteps.map((step) => step.status),
      viewport,
    ).toEqual(VARIATIONS.map(() => "passed"));
    for (const variation of VARIATIONS) {
      expect(
        findingSteps.filter((step) => step.name.includes(`Variation "${variation}" of "${EXPERIMENT}" on ${viewport}`)),
        `${variation} on ${viewport}`,
      ).toHaveLength(1);
    }
    const pictures = pngAttachments(result);
    expect(
      pictures.map((attachment) => attachment.name),
      viewport,
    ).toEqual([PICTURE, FILMSTRIP]);
  }
});

/**
 * Opens the result named `name` from the report's tree: loads the report afresh, opens the Allure
 * report from its overview, searches for the
 * result, then opens the tree's sections on its path (workspace, project, story) until its leaf
 * shows. A section is clicked only when what it holds is hidden, and the whole is retried, since
 * the search applies a moment later and the report may remember which sections were open.
 */
async function openResult(page: Page, file: string, name: string, path: readonly string[]): Promise<void> {
  await page.goto(pathToFileURL(file).href);
  await page.getByRole("button", { name: "Open the detailed report (Allure)", exact: true }).click();
  await page.getByTestId("search-input").fill(name);
  const leaf = page.getByTestId("tree-leaf-title").getByText(name, { exact: true });
  const section = (title: string) => page.getByTestId("tree-section-title").getByText(title, { exact: true });
  await expect(async () => {
    for (const [i, title] of path.entries()) {
      const inside = i + 1 < path.length ? section(path[i + 1]!) : leaf;
      if (!(await inside.isVisible())) await section(title).click({ timeout: 2_000 });
    }
    await expect(leaf).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await leaf.click();
  await expect(page.getByTestId("test-result-info-title")).toHaveText(name);
}

test("the single-file report, opened offline, shows the control beside the variations and the preview link's filmstrip on desktop and mobile, and calls no host", async ({
  browser,
}, testInfo) => {
  const singleFile = join(out, "audit-report.html");
  expect(runOutput).toContain(`Shareable file: ${singleFile} (`);
  const context = await browser.newContext({ viewport: { width: 1400, height: 1100 } });
  // The 4 MB single-file report loads and answers as fast as the machine lets it: every wait is
  // for what it shows, bounded by the test's own limit alone.
  context.setDefaultTimeout(0);
  try {
    const { page, requests, outside } = await openOffline(context, singleFile);
    // The overview shows each viewport's picture and filmstrip inline, before any click.
    await expect(page.getByRole("heading", { name: "Experiments: the control and its variations" })).toBeVisible();
    await expect(page.locator("#sa-overview img")).toHaveCount(VIEWPORTS.length * 2);
    await expect(page.locator("#sa-overview img").first()).toHaveAttribute(
      "alt",
      `${resultName(VIEWPORTS[0]!)}: ${PICTURE}`,
    );

    for (const viewport of VIEWPORTS) {
      await test.step(`the variations on ${viewport}`, async () => {
        const result = results.find((candidate) => candidate.name === resultName(viewport))!;
        const label = (name: string) => result.labels.find((candidate) => candidate.name === name)!.value;
        const attachment = pngAttachments(result)[0]!;
        const expected = pngSize(readFileSync(join(out, "allure-results", attachment.source)));

        await openResult(page, singleFile, resultName(viewport), [label("epic"), label("feature"), label("story")]);
        for (const variation of VARIATIONS) {
          await expect(
            page
              .getByTestId("test-result-step-title")
              .filter({ hasText: `Variation "${variation}" of "${EXPERIMENT}" on ${viewport} previews well` }),
          ).toHaveCount(1);
        }
        const picture = page.getByTestId("test-result-attachment").filter({ hasText: PICTURE });
        await picture.getByTestId("test-result-attachment-header").click();
        const image = picture.getByTestId("image-attachment-content").locator("img");
        await expect(image).toBeVisible();
        // The report shows the result's own attachment, from inside the file.
        await expect(image).toHaveAttribute("alt", attachment.source);
        await expect(image).toHaveAttribute("src", /^(data|blob):/);
        await expect
          .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
          .toBe(true);
        const shown = await image.evaluate((img: HTMLImageElement) => ({
          width: img.naturalWidth,
          height: img.naturalHeight,
        }));
        expect(shown).toEqual(expected);

        // Three columns of equal width with a gutter between each: the gutters are blank, every column is drawn on.
        const columnWidth = (shown.width - (COLUMNS - 1) * COLUMN_GUTTER) / COLUMNS;
        expect(
          Number.isInteger(columnWidth) && columnWidth >= 300,
          `${shown.width} px wide is not ${COLUMNS} columns of 300 px or more`,
        ).toBe(true);
        const columns = await image.evaluate(
          (img: HTMLImageElement, { columns, columnWidth, gutter }) => {
            const canvas = document.createElement("canvas");
            canvas.width = img.naturalWidth;
            canvas.height = img.naturalHeight;
            const context = canvas.getContext("2d")!;
            context.drawImage(img, 0, 0);
            const inked = (left: number, width: number) => {
              const pixels = context.getImageData(left, 0, width, canvas.height).data;
              let count = 0;
              for (let i = 0; i < pixels.length; i += 4)
                if (pixels[i]! < 250 || pixels[i + 1]! < 250 || pixels[i + 2]! < 250) count++;
              return count;
            };
            return {
              columns: Array.from({ length: columns }, (_, i) => inked(i * (columnWidth + gutter), columnWidth) > 0),
              gutters: Array.from({ length: columns - 1 }, (_, i) =>
                inked(i * (columnWidth + gutter) + columnWidth, gutter),
              ),
            };
          },
          { columns: COLUMNS, columnWidth, gutter: COLUMN_GUTTER },
        );
        expect(columns).toEqual({ columns: Array(COLUMNS).fill(true), gutters: Array(COLUMNS - 1).fill(0) });
        // The filmstrip beside it: its frames from inside the file too.
        const filmstripAttachment = pngAttachments(result).find((candidate) => candidate.name === FILMSTRIP)!;
        const filmstrip = page.getByTestId("test-result-attachment").filter({ hasText: FILMSTRIP });
        await filmstrip.getByTestId("test-result-attachment-header").click();
        const frames = filmstrip.getByTestId("image-attachment-content").locator("img");
        await expect(frames).toHaveAttribute("alt", filmstripAttachment.source);
        await expect(frames).toHaveAttribute("src", /^(data|blob):/);
        await expect
          .poll(() => frames.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
          .toBe(true);
        expect(
          await frames.evaluate((img: HTMLImageElement) => ({ width: img.naturalWidth, height: img.naturalHeight })),
        ).toEqual(pngSize(readFileSync(join(out, "allure-results", filmstripAttachment.source))));
        await page.screenshot({ path: testInfo.outputPath(`variations-${viewport}.png`), fullPage: true });
      });
    }

    expect(requests.some((url) => url.startsWith("file:"))).toBe(true);
    expect(outside).toEqual([]);
  } finally {
    await context.close();
  }
});
