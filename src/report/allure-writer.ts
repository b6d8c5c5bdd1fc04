import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { FullConfig, FullProject, Suite, TestCase, TestResult } from "@playwright/test/reporter";
import { ALLURE_RUNTIME_MESSAGE_CONTENT_TYPE, stringifyEnvInfo, type Writer } from "allure-js-commons/sdk/reporter";
import { AllureReporter } from "allure-playwright";
import type { RunResult } from "../run-result.js";
import { viewportTag } from "../titles.js";
import { toolVersion } from "../version.js";
import { allureEntries, RESULTS_MODULE, type AllureEntry, type AllureContent } from "./allure-results.js";
import { environmentInfo } from "./environment-info.js";
import type { VariationPictures } from "./variation-pictures.js";

/**
 * Writes the run's Allure results with allure-playwright. Each result is handed to its reporter
 * through Playwright's reporter interface, as a test run would hand it a test that ended (the way
 * `playwright merge-reports` replays a run into reporters), without running a test per result:
 * the results are the findings, already judged. Each viewport is a project, so Allure files the
 * results under it and keys their history on it.
 */
export async function writeAllureResults(run: RunResult, options: { resultsDir: string; secrets: readonly string[]; pictures: VariationPictures }): Promise<void> {
  const reporter = new ResultsReporter({
    resultsDir: options.resultsDir,
    detail: false,
    suiteTitle: false,
    environmentInfo: environmentInfo(
      run.targets.map(({ target }) => target),
      run.targets.flatMap(({ result }) => result.pages),
      toolVersion(),
    ),
  });
  // src/, as the test directory: results are named `report/allure-results.ts › <title>`.
  const rootDir = dirname(dirname(RESULTS_MODULE));
  const entries = allureEntries(run, options.secrets, options.pictures);
  const viewports = [...new Set(entries.map((entry) => entry.viewport))];
  const files = new Map(viewports.map((viewport) => [viewport, fileSuite(viewport, rootDir)]));
  reporter.onConfigure({ rootDir, projects: [...files.values()].map((suite) => suite.project()!) } as FullConfig);
  // Every result is begun and ended below: none is left for allure-playwright to add as skipped.
  reporter.onBegin({ allTests: () => [], suites: [] } as unknown as Suite);
  for (const entry of entries) {
    const startTime = new Date();
    const content = entry.content();
    const test = testCase(entry, files.get(entry.viewport)!, content);
    reporter.onTestBegin(test);
    await reporter.onTestEnd(test, testResult(content, startTime, viewports.indexOf(entry.viewport)));
  }
  await reporter.onEnd();
}

/**
 * allure-playwright, writing through a ResultsWriter. Its own writer, which it makes in onBegin,
 * syncs every file to disk: a guard for test workers killed mid-write, where here one process
 * writes the results and the report is built from them right after. The syncs cost 1.6 s per
 * 1,200 files (400 pages × viewports). The reporter has no option for its writer, so it is set
 * on the runtime that onBegin made.
 */
class ResultsReporter extends AllureReporter {
  private readonly resultsDir: string;

  constructor(config: ConstructorParameters<typeof AllureReporter>[0] & { resultsDir: string }) {
    super(config);
    this.resultsDir = config.resultsDir;
  }

  override onBegin(suite: Suite): void {
    super.onBegin(suite);
    (this as unknown as { allureRuntime: { writer: Writer } }).allureRuntime.writer = new ResultsWriter(this.resultsDir);
  }
}

/** Allure's writer of a results folder, writing each file in one call. */
class ResultsWriter implements Writer {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  writeResult(result: Parameters<Writer["writeResult"]>[0]): void {
    this.write(`${result.uuid}-result.json`, JSON.stringify(result));
  }

  writeGroup(group: Parameters<Writer["writeGroup"]>[0]): void {
    this.write(`${group.uuid}-container.json`, JSON.stringify(group));
  }

  writeAttachment(name: string, content: Buffer): void {
    this.write(name, content);
  }

  writeAttachmentFromPath(name: string, from: string): void {
    copyFileSync(from, join(this.dir, name));
  }

  writeEnvironmentInfo(info: Parameters<Writer["writeEnvironmentInfo"]>[0]): void {
    this.write("environment.properties", stringifyEnvInfo(info));
  }

  writeCategoriesDefinitions(categories: Parameters<Writer["writeCategoriesDefinitions"]>[0]): void {
    this.write("categories.json", JSON.stringify(categories));
  }

  writeGlobals(name: string, globals: Parameters<Writer["writeGlobals"]>[1]): void {
    this.write(name, JSON.stringify(globals));
  }

  private write(name: string, data: string | Buffer): void {
    writeFileSync(join(this.dir, name), data);
  }
}

/** A viewport's project and the results module as the suite of its results. */
function fileSuite(viewport: string, rootDir: string): Suite {
  const project = { name: viewport, testDir: rootDir, outputDir: rootDir, snapshotDir: rootDir, repeatEach: 1, dependencies: [] } as unknown as FullProject;
  const titlePath = ["", viewport, relative(rootDir, RESULTS_MODULE)];
  return { title: titlePath.at(-1)!, titlePath: () => titlePath, project: () => project } as unknown as Suite;
}

function testCase(entry: AllureEntry, parent: Suite, content: AllureContent): TestCase {
  const skip = content.outcome.status === "skipped" ? [{ type: "skip", description: content.outcome.reason }] : [];
  return {
    id: `${entry.viewport} ${entry.title}`,
    title: entry.title,
    titlePath: () => [...parent.titlePath(), entry.title],
    parent,
    location: { file: RESULTS_MODULE, line: 1, column: 1 },
    tags: [viewportTag(entry.viewport)],
    annotations: skip,
    repeatEachIndex: 0,
    expectedStatus: "passed",
  } as unknown as TestCase;
}

/** How the result ended, with its runtime messages as the attachments allure-playwright reads them from. */
function testResult(content: AllureContent, startTime: Date, parallelIndex: number): TestResult {
  const { outcome } = content;
  const error = outcome.status === "failed" ? { message: outcome.message } : undefined;
  return {
    status: outcome.status,
    error,
    errors: error ? [error] : [],
    attachments: content.messages.map((message) => ({ name: `Allure Metadata (${message.type})`, contentType: ALLURE_RUNTIME_MESSAGE_CONTENT_TYPE, body: Buffer.from(JSON.stringify(message)) })),
    duration: Date.now() - startTime.getTime(),
    startTime,
    retry: 0,
    parallelIndex,
    workerIndex: parallelIndex,
    stdout: [],
    stderr: [],
    steps: [],
    annotations: [],
  };
}
