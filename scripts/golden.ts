import { spawn } from "node:child_process";
import { once } from "node:events";
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
  process.stdout.write(
    `Wrote ${join(GOLDEN_DIR, "summary.json")}: ${summary.findings.length} findings (${count("fail")} fail, ${count("warn")} warn), ${summary.calls.length} calls.\n`,
  );
}

async function gatherAgain(): Promise<void> {
  const fixtures = await startFixturesUnlessRunning();
  const out = mkdtempSync(join(tmpdir(), "golden-"));
  try {
    // Spawned, not run synchronously: the fixtures this process started must go on answering.
    const run = spawn(process.execPath, ["bin/setup-audit.js", "run", GOLDEN_SPEC, "--save-artifacts", "--out", out], {
      stdio: "inherit",
    });
    const [status] = (await once(run, "exit")) as [number | null];
    // The broken shop fails (exit 1); anything else means the run itself went wrong.
    if (status !== 1) throw new Error(`the audit of the broken shop ended with exit code ${status}, not 1`);
    rmSync(join(GOLDEN_DIR, "artifacts"), { recursive: true, force: true });
    // The screenshots are most of the artifacts' size, and no check reads them.
    cpSync(join(out, "artifacts"), join(GOLDEN_DIR, "artifacts"), {
      recursive: true,
      filter: (source) => !source.endsWith(".png"),
    });
    rmSync(join(GOLDEN_DIR, "artifacts", "screenshots"), { recursive: true, force: true });
  } finally {
    rmSync(out, { recursive: true, force: true });
    await fixtures?.close();
  }
}

await main();
