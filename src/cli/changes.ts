import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  appendedHistory,
  compareRuns,
  FINDINGS_HISTORY,
  failuresOnNew,
  lastRecordedRuns,
  recordedRuns,
  type Comparison,
  type RecordedRun,
} from "../results/changes.js";
import type { RunSummary } from "../results/summary.js";
import { firstLine } from "../text/wording.js";
import { usageError } from "../runner/errors.js";
import { specIdentity } from "./spec-identity.js";

/**
 * A run's memory (docs/ci.md, Changes): each whole run (or merge) is compared with the last run of
 * each spec × environment recorded in OUT/history/findings.jsonl, or with the run whose output
 * `--compare DIR` holds, then recorded there for the next one.
 */

/** How a whole run compares itself with an earlier one (`--compare`, `--fail-on`, `--notify-env`). */
export interface ChangeOptions {
  /** The runs `--compare DIR` holds; null: the last ones in the output folder's history. */
  compareWith: RecordedRun[] | null;
  /** `new`: only new or worse failures fail the run; `any`: every failure does. */
  failOn: "new" | "any";
  /** The variable that holds the webhook URL to post the changes to (`--notify-env`). */
  notifyEnv: string | null;
}

/** Without --compare, --fail-on or --notify-env: compared with the history, every failure fails, no message. */
export const COMPARE_WITH_HISTORY: ChangeOptions = { compareWith: null, failOn: "any", notifyEnv: null };

/**
 * The change options of the command line. `--compare DIR` is read now, before the run empties
 * an output folder that may be DIR itself.
 */
export function changeOptionsOf(values: {
  compare?: string;
  "fail-on"?: string;
  "notify-env"?: string;
}): ChangeOptions {
  const failOn = values["fail-on"] ?? "any";
  if (failOn !== "new" && failOn !== "any") throw usageError(`--fail-on must be new or any, not "${failOn}"`);
  const notifyEnv = values["notify-env"] ?? null;
  if (notifyEnv !== null && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(notifyEnv)) {
    throw usageError(
      `--notify-env takes the NAME of the variable that holds the webhook URL, not "${notifyEnv}"`,
      "Put the URL in a secret variable, e.g. SLACK_WEBHOOK_URL, and pass --notify-env SLACK_WEBHOOK_URL.",
    );
  }
  return { compareWith: values.compare === undefined ? null : comparedRunsIn(values.compare), failOn, notifyEnv };
}

/** The spec runs recorded in the summary.json of the output folder `dir`. */
function comparedRunsIn(dir: string): RecordedRun[] {
  const file = join(dir, "summary.json");
  if (!existsSync(file))
    throw usageError(
      `--compare ${dir}: there is no summary.json in it`,
      "Point --compare at the output folder (--out) of an earlier run.",
    );
  try {
    return recordedRuns(JSON.parse(readFileSync(file, "utf8")) as RunSummary, specIdentity());
  } catch (error) {
    throw usageError(
      `--compare ${dir}: ${file} is not a summary.json setup-audit wrote (${firstLine(error)})`,
      "Point --compare at the output folder (--out) of an earlier run.",
    );
  }
}

/**
 * Compares the run with the earlier one and records it in OUT's history for the next run. The
 * history is an extra: one that cannot be written is named on stderr and the run goes on.
 */
export function compareAndRecord(outDir: string, summary: RunSummary, options: ChangeOptions): Comparison {
  const historyFile = join(outDir, FINDINGS_HISTORY);
  const lines = existsSync(historyFile) ? readFileSync(historyFile, "utf8").split("\n") : [];
  const specId = specIdentity();
  const comparison = compareRuns(summary, options.compareWith ?? lastRecordedRuns(lines, specId), specId);
  try {
    mkdirSync(dirname(historyFile), { recursive: true });
    writeFileSync(
      historyFile,
      appendedHistory(lines, recordedRuns(summary, specId), specId)
        .map((line) => `${line}\n`)
        .join(""),
    );
  } catch (error) {
    process.stderr.write(`setup-audit: could not record this run in ${historyFile}: ${firstLine(error)}\n`);
  }
  return comparison;
}

/**
 * What `--fail-on new` makes of a failed run: whether it still fails, and the line that says why.
 * Spec runs with nothing to compare with fail as with `--fail-on any`, and the line says so.
 */
export function failOnNewOutcome(
  summary: RunSummary,
  comparison: Comparison,
  strict: boolean,
): { fails: boolean; line: string } {
  const failing = failuresOnNew(summary, comparison, strict).length;
  const changed = failuresOnNew(summary, { ...comparison, uncompared: [] }, strict).length;
  const uncompared = comparison.uncompared.map((run) => `${run.spec} (${run.environment})`).join(", ");
  const reasons = [
    ...(uncompared === ""
      ? []
      : [
          `nothing to compare ${uncompared} with yet, so ${failing - changed} failed finding(s) there fail the run, as with --fail-on any`,
        ]),
    ...(changed === 0 ? [] : [`${changed} failed finding(s) new or worse than in the run compared with`]),
  ];
  if (failing > 0) return { fails: true, line: `--fail-on new: ${reasons.join("; ")}.` };
  return {
    fails: false,
    line: "--fail-on new: no failure is new or worse than in the run compared with; the failures above are older, so the run passes (exit 0).",
  };
}
