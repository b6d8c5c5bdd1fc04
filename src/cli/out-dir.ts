import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";

/** What `run --shard` writes beside the usual output, for `merge` to read. */
export const SHARD_FILE = "shard-results.json";

/** Empties what a run writes: old results would show up as retries in Allure, old screenshots as current ones. */
export function prepareOutDir(outDir: string): void {
  mkdirSync(outDir, { recursive: true });
  for (const stale of ["allure-results", "screenshots", "traces", "summary.json", "junit.xml", SHARD_FILE]) rmSync(join(outDir, stale), { recursive: true, force: true });
  mkdirSync(join(outDir, "allure-results"));
}
