import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";

/**
 * The report's history: Allure appends one line per generated report to a JSONL file. A run is
 * one entry, however often its report is rebuilt: the report id is derived from the run's results,
 * and building again first takes out the entry an earlier build of the same results left.
 */

/** A UUID-shaped id of a results folder: the same results always give the same id. */
export function resultsReportId(resultsDir: string): string {
  const results = readdirSync(resultsDir)
    .filter((name) => name.endsWith("-result.json"))
    .sort();
  const hex = createHash("sha256").update(results.join("\n")).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Removes the entries of `reportId` from the history file; returns how many there were. */
export function forgetHistoryEntry(historyFile: string, reportId: string): number {
  if (!existsSync(historyFile)) return 0;
  const lines = readFileSync(historyFile, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  const kept = lines.filter((line) => entryId(line) !== reportId);
  if (kept.length !== lines.length) writeFileSync(historyFile, kept.map((line) => `${line}\n`).join(""));
  return lines.length - kept.length;
}

/** The report ids in the history file, oldest first. */
export function historyReportIds(historyFile: string): string[] {
  if (!existsSync(historyFile)) return [];
  return readFileSync(historyFile, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(entryId)
    .filter((id): id is string => id !== null);
}

function entryId(line: string): string | null {
  try {
    const entry = JSON.parse(line) as { uuid?: unknown };
    return typeof entry.uuid === "string" ? entry.uuid : null;
  } catch {
    // A damaged line is kept as it is: the history belongs to the user, not to this build.
    return null;
  }
}
