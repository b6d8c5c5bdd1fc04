import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFixturesUnlessRunning } from "../fixtures/server.js";
import { GOLDEN_DIR, GOLDEN_SPEC, writeExpectedGolden } from "../test/support/golden.js";

/**
 * `npm run golden`: audits the broken shop with --save-artifacts (starting the fixtures unless
 * they run), keeps its artifacts in test/golden/broken-shop/ without the screenshots, and writes
 * the summary.json they give beside them. `npm run golden -- --judge` only judges the committed
 * artifacts again and rewrites the summary: for a change of a check that is meant to change it.
 */
async function main(): Promise<void> {
  if (!process.argv.includes("--judge")) await gatherAgain();
  const summary = await writeExpectedGolden();
  const count = (status: string) => summary.findings.filter((finding) => finding.status === status).length;
  process.stdout.write(`Wrote ${join(GOLDEN_DIR, "summary.json")}: ${summary.findings.length} findings (${count("fail")} fail, ${count("warn")} warn), ${summary.calls.length} calls.\n`);
}

async function gatherAgain(): Promise<void> {
  const fixtures = await startFixturesUnlessRunning();
  const out = mkdtempSync(join(tmpdir(), "golden-"));
  try {
    const run = spawnSync(process.execPath, ["bin/setup-audit.js", "run", GOLDEN_SPEC, "--save-artifacts", "--out", out], { stdio: "inherit" });
    // The broken shop fails (exit 1); anything else means the run itself went wrong.
    if (run.status !== 1) throw new Error(`the audit of the broken shop ended with exit code ${run.status}, not 1`);
    rmSync(join(GOLDEN_DIR, "artifacts"), { recursive: true, force: true });
    // The screenshots are most of the artifacts' size, and no check reads them.
    cpSync(join(out, "artifacts"), join(GOLDEN_DIR, "artifacts"), { recursive: true, filter: (source) => !source.endsWith(".png") });
    rmSync(join(GOLDEN_DIR, "artifacts", "screenshots"), { recursive: true, force: true });
  } finally {
    rmSync(out, { recursive: true, force: true });
    await fixtures?.close();
  }
}

await main();
