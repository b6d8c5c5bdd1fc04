import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "@playwright/test";

/**
 * A new, empty folder inside the running test's own output folder, which the runner empties at
 * the start of every run: a test's files stay where its report points and never pile up in the
 * machine's temporary folder.
 */
export function scratchDir(name: string): string {
  const { outputDir } = test.info();
  mkdirSync(outputDir, { recursive: true });
  return mkdtempSync(join(outputDir, `${name}-`));
}

/**
 * The folder `name` in the suite's output folder, for the serial tests of one file that share it
 * from the time the file loads. Fixed by name (one worker runs a serial file), emptied with the
 * rest of the output at the start of every run.
 */
export function sharedScratchDir(name: string): string {
  const dir = fileURLToPath(new URL(`../../reports/test-output/shared-${name}`, import.meta.url));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}
