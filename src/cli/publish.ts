import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AuditPlan } from "../schedule/plan.js";
import { firstLine } from "../text/wording.js";
import { formatConsoleReport } from "../report/console.js";
import { toJUnitXml } from "../report/junit.js";
import { writeAllureResults } from "../report/allure-writer.js";
import { buildSummary, reportTarget, type TargetResult } from "../results/run-result.js";
import { compareAndRecord, failOnNewOutcome, type ChangeOptions } from "./changes.js";
import { EXIT, type CliError } from "../runner/errors.js";
import { publishToGitHub } from "./github.js";
import { makeVariationPictures } from "./pictures.js";
import { publishReport, type ReportOptions } from "./report.js";

/** What publishing a run's results needs to know. */
export interface PublishOptions extends Pick<ReportOptions, "singleFile" | "open"> {
  /** Build the HTML report; false with `--no-html`, for `setup-audit report` to build later from the Allure results. */
  html: boolean;
  startedAt: Date;
  strict: boolean;
  out: string;
  /** Write the GitHub job summary and annotate the findings (`GITHUB_STEP_SUMMARY`, `GITHUB_ACTIONS`): a whole run or a merge does, a shard leaves it to the merge. */
  toGitHub: boolean;
  /** The run's secrets (run-secrets.ts): no output shows them. */
  secrets: readonly string[];
  /** How a whole run or a merge compares itself with an earlier run; null for a shard, which the merge compares. */
  changes: ChangeOptions | null;
}

/**
 * Everything after the checks, for a run and for a merge of shards alike: summary.json, the
 * Allure results, the console report and the HTML report (unless `--no-html`). Returns the exit code.
 */
export async function publishResults(
  plan: Pick<AuditPlan, "runId" | "outDir" | "targets" | "browserExecutable" | "browserEndpoint">,
  results: TargetResult[],
  options: PublishOptions,
): Promise<number> {
  const { secrets } = options;
  const summary = buildSummary(results, {
    startedAt: options.startedAt,
    durationMs: Date.now() - options.startedAt.getTime(),
    strict: options.strict,
    secrets,
  });
  const comparison = options.changes && compareAndRecord(plan.outDir, summary, options.changes);
  if (comparison) summary.changes = comparison.changes;
  writeFileSync(join(plan.outDir, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(join(plan.outDir, "junit.xml"), toJUnitXml(summary));
  const targets = plan.targets.map((target, index) => ({ target: reportTarget(target), result: results[index]! }));
  const pictures = await makeVariationPictures({ outDir: plan.outDir, targets }, plan);
  // Like the HTML report built from them, the Allure results are an output: failing to write them never changes the verdict.
  const allureWritten = await writeAllureResults(
    { runId: plan.runId, outDir: plan.outDir, targets, checks: summary.checks ?? {} },
    { resultsDir: join(plan.outDir, "allure-results"), secrets, pictures },
  ).then(
    () => true,
    (error: unknown) => {
      process.stderr.write(
        `setup-audit: could not write the Allure results in ${join(options.out, "allure-results")}: ${firstLine(error)}\n`,
      );
      return false;
    },
  );

  process.stdout.write(formatConsoleReport(summary));
  // Like the HTML report, GitHub's outputs are extras: failing to write them never changes the verdict.
  if (options.toGitHub) {
    try {
      publishToGitHub(summary);
    } catch (error) {
      process.stderr.write(`setup-audit: could not write GitHub's job summary: ${firstLine(error)}\n`);
    }
  }
  const [summaryFile, junitFile, allureDir] = ["summary.json", "junit.xml", "allure-results"].map((name) =>
    join(options.out, name),
  );
  process.stdout.write(
    `\nWrote ${allureWritten ? `${summaryFile}, ${junitFile} and Allure results in ${allureDir}` : `${summaryFile} and ${junitFile}`}.\n`,
  );
  if (allureWritten && !options.html)
    process.stdout.write(
      `\nReport: not built (--no-html); \`setup-audit report --out ${options.out}\` builds it from the Allure results.\n`,
    );
  // The audit's verdict stands even when its report cannot be built.
  if (allureWritten && options.html)
    await publishReport(options).catch((error: CliError) =>
      process.stderr.write(`setup-audit: ${error.message}\n${error.hint}\n`),
    );
  if (options.changes?.notifyEnv)
    await import("./notify.js").then(({ notifyWebhook }) =>
      notifyWebhook(summary, options.changes!.notifyEnv!, secrets),
    );
  const onlyNew =
    comparison && options.changes?.failOn === "new" && summary.verdict === "fail"
      ? failOnNewOutcome(summary, comparison, options.strict)
      : null;
  if (onlyNew) process.stdout.write(`${onlyNew.line}\n`);
  if (summary.verdict === "fail" && onlyNew?.fails !== false) {
    process.stdout.write(
      `Next: fix the failed checks above${options.strict ? " and the warnings (--strict)" : ""}, then run the audit again.\n`,
    );
    return EXIT.failed;
  }
  return EXIT.ok;
}
