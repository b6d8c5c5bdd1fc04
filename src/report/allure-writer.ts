import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { LabelName, Stage, Status, type StatusDetails, type TestResult } from "allure-js-commons";
import { stripAnsi } from "allure-js-commons/sdk";
import {
  getEnvironmentLabels,
  getFallbackTestCaseIdLabel,
  getFrameworkLabel,
  getHostLabel,
  getLanguageLabel,
  getPackageLabel,
  getProjectName,
  getThreadLabel,
  md5,
  ReporterRuntime,
  stringifyEnvInfo,
  type Writer,
} from "allure-js-commons/sdk/reporter";
import { hideSecretsDeep } from "../privacy/redact.js";
import type { RunResult } from "../results/run-result.js";
import { toolVersion } from "../package/version.js";
import { allureEntries, RESULTS_MODULE, type AllureEntry, type Outcome } from "./allure-results.js";
import { environmentInfo } from "./environment-info.js";
import type { VariationPictures } from "./variation-pictures.js";

/**
 * Writes the run's Allure results with Allure's reporter runtime: each result is started where it
 * is filed, its content applied as runtime messages, then stopped (the runtime derives its history
 * id) and written. The results are the findings, already judged: no test runs for them. Rejects
 * when a file cannot be written.
 */
export async function writeAllureResults(
  run: RunResult,
  options: { resultsDir: string; secrets: readonly string[]; pictures: VariationPictures },
): Promise<void> {
  const runtime = new ReporterRuntime({
    writer: new ResultsWriter(options.resultsDir, options.secrets),
    environmentInfo: environmentInfo(
      run.targets.map(({ target }) => target),
      run.targets.flatMap(({ result }) => result.pages),
      toolVersion(),
    ),
  });
  const entries = allureEntries(run, options.secrets, options.pictures);
  const viewports = [...new Set(entries.map((entry) => entry.viewport))];
  for (const entry of entries) {
    const content = entry.content();
    const uuid = runtime.startTest({
      ...filedResult(entry, viewports.indexOf(entry.viewport)),
      ...ending(content.outcome),
    });
    runtime.applyRuntimeMessages(uuid, content.messages);
    runtime.stopTest(uuid);
    runtime.writeTest(uuid);
  }
  runtime.writeEnvironmentInfo();
}

/**
 * Where a result is filed and what Allure keys its history on, as allure-playwright filed a test
 * of the results module in the viewport's project, which earlier versions wrote the results with:
 * the history those runs keep carries on. The results module stands for the test file, relative
 * to src/ (dist/src/ when compiled): results are named `report/allure-results.js › <title>`. Each
 * viewport is a parent suite and a thread of the report's timeline.
 */
function filedResult(entry: AllureEntry, thread: number): Partial<TestResult> {
  const moduleDir = dirname(RESULTS_MODULE);
  const modulePath = relative(dirname(moduleDir), RESULTS_MODULE);
  const file = modulePath.split(sep).join("/");
  const project = getProjectName(moduleDir);
  const testCase = `${file}#${entry.title}`;
  return {
    name: entry.title,
    testCaseId: md5(project ? `${project}:${testCase}` : testCase),
    fullName: `${file} › ${entry.title}`,
    titlePath: [...(project ? [project] : []), ...modulePath.split(sep)],
    labels: [
      ...getEnvironmentLabels(),
      getLanguageLabel(),
      getFrameworkLabel("playwright"),
      getPackageLabel(modulePath, moduleDir),
      getFallbackTestCaseIdLabel(md5(testCase)),
      { name: "titlePath", value: ["", entry.viewport, file].join(" > ") },
      { name: LabelName.TAG, value: entry.viewport.replace(/[^\w-]+/g, "-") },
      getHostLabel(),
      getThreadLabel(`pid-${process.pid}-worker-${thread}`),
      { name: LabelName.PARENT_SUITE, value: entry.viewport },
    ],
    // Not excluded: each viewport keeps its own history.
    parameters: [{ name: "Project", value: entry.viewport }],
  };
}

const STATUS: Record<Outcome["status"], Status> = {
  passed: Status.PASSED,
  failed: Status.FAILED,
  skipped: Status.SKIPPED,
};

/** How a result ended: its status, and the message of a failed or skipped one. */
function ending(outcome: Outcome): Pick<TestResult, "status" | "statusDetails" | "stage"> {
  const details: StatusDetails =
    outcome.status === "failed"
      ? { message: stripAnsi(outcome.message) }
      : outcome.status === "skipped"
        ? { message: outcome.reason }
        : {};
  return { status: STATUS[outcome.status], statusDetails: details, stage: Stage.FINISHED };
}

/**
 * Allure's writer of a results folder, writing each file in one call. Allure's own writer syncs
 * every file to disk, a guard for test workers killed mid-write, where here one process writes the
 * results and the report is built from them right after: the syncs cost 1.6 s per 1,200 files
 * (400 pages × viewports). Every result, container and environment entry it writes is scrubbed
 * of the run's secrets (its parameters, names and messages); the attachments were, when made.
 */
class ResultsWriter implements Writer {
  constructor(
    private readonly dir: string,
    private readonly secrets: readonly string[],
  ) {
    mkdirSync(dir, { recursive: true });
  }

  writeResult(result: Parameters<Writer["writeResult"]>[0]): void {
    this.write(`${result.uuid}-result.json`, JSON.stringify(hideSecretsDeep(result, this.secrets)));
  }

  writeGroup(group: Parameters<Writer["writeGroup"]>[0]): void {
    this.write(`${group.uuid}-container.json`, JSON.stringify(hideSecretsDeep(group, this.secrets)));
  }

  writeAttachment(name: string, content: Buffer): void {
    this.write(name, content);
  }

  writeAttachmentFromPath(name: string, from: string): void {
    copyFileSync(from, join(this.dir, name));
  }

  writeEnvironmentInfo(info: Parameters<Writer["writeEnvironmentInfo"]>[0]): void {
    this.write("environment.properties", stringifyEnvInfo(hideSecretsDeep(info, this.secrets)));
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
