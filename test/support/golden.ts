import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readReplay } from "../../src/cli/replay.js";
import { runSecrets } from "../../src/privacy/redact.js";
import { buildSummary } from "../../src/results/run-result.js";
import type { RunSummary } from "../../src/results/summary.js";

/**
 * The golden run: the broken shop's artifacts, saved by `run --save-artifacts` and committed in
 * test/golden/broken-shop/ (its screenshots left out, to keep them small), give the committed
 * summary.json beside them. `npm run golden` gathers them again and rewrites both; `npm run golden
 * -- --judge` judges the committed artifacts again and rewrites the summary alone.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The folder that holds the golden artifacts (its artifacts/, as `--out` holds them) and the expected summary. */
export const GOLDEN_DIR = join(ROOT, "test/golden/broken-shop");
/** The spec the golden artifacts were gathered with, as the command line named it from the repository's root. */
export const GOLDEN_SPEC = "test/e2e/specs/broken-shop.yaml";
const EXPECTED_FILE = join(GOLDEN_DIR, "summary.json");

/** The golden artifacts judged by the current spec and checks, as summary.json gives them, without what changes from run to run. */
export async function judgedGolden(): Promise<RunSummary> {
  const { targets, judge } = await readReplay(GOLDEN_DIR, {
    specs: [GOLDEN_SPEC],
    env: undefined,
    pages: [],
    viewports: [],
  });
  const summary = buildSummary(judge([]), {
    startedAt: new Date(0),
    durationMs: 0,
    strict: false,
    secrets: runSecrets(targets, {}),
  });
  // Nothing else depends on the clock or the machine: the artifacts are the same every time.
  return JSON.parse(JSON.stringify(summary).replaceAll(ROOT, "<root>/")) as RunSummary;
}

/** The committed expected summary. */
export function expectedGolden(): RunSummary {
  return JSON.parse(readFileSync(EXPECTED_FILE, "utf8")) as RunSummary;
}

/** Rewrites the expected summary with what the current checks give. */
export async function writeExpectedGolden(): Promise<RunSummary> {
  const summary = await judgedGolden();
  writeFileSync(EXPECTED_FILE, `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
