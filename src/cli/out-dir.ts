import { mkdirSync, mkdtempSync, readdirSync, renameSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";

/** What `run --shard` writes beside the usual output, for `merge` to read. */
export const SHARD_FILE = "shard-results.json";

/** What a run writes, and an earlier run's leaves: old results would show up as retries in Allure, old screenshots as current ones. */
const RUN_OUTPUTS = [
  "allure-results",
  "html",
  "audit-report.html",
  "screenshots",
  "traces",
  "artifacts",
  "summary.json",
  "junit.xml",
  SHARD_FILE,
];
const STALE_PREFIX = ".stale-";

/**
 * Empties what a run writes. Stale outputs are moved aside at once, into one folder in OUT that
 * the returned promise deletes while the run goes on: an earlier report holds thousands of
 * files. Await it before the run ends; a folder left by a run that was killed goes with the next.
 * What `keep` names stays: the saved artifacts a replay judges in the folder it writes to.
 */
export function prepareOutDir(outDir: string, keep: readonly string[] = []): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const stale = readdirSync(outDir).filter(
    (name) => (RUN_OUTPUTS.includes(name) && !keep.includes(name)) || name.startsWith(STALE_PREFIX),
  );
  const aside = mkdtempSync(join(outDir, STALE_PREFIX));
  for (const name of stale) renameSync(join(outDir, name), join(aside, name));
  mkdirSync(join(outDir, "allure-results"));
  return deleteInBackground(aside);
}

/** Deletes a file or folder; a failure is named on stderr, never thrown, since nothing depends on it. */
export function deleteInBackground(path: string): Promise<void> {
  return rm(path, { recursive: true, force: true }).catch((error: Error) => {
    process.stderr.write(`setup-audit: could not delete ${path}: ${error.message}\n`);
  });
}
