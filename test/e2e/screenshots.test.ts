import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { e2eSpec, readSummary, runCli } from "./cli.js";

test("screenshots: on-failure keeps only the pages whose checks failed or warned", async ({}, testInfo) => {
  const out = join(testInfo.project.outputDir, "screenshots-run");
  const run = await runCli(["run", e2eSpec("screenshots-on-failure.yaml"), "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(readSummary(out).findings.some((finding) => finding.page === "early-call" && finding.status === "fail")).toBe(
    true,
  );
  const shot = (page: string, viewport: string) =>
    existsSync(join(out, "screenshots/screenshots-on-failure/staging", `${page}.${viewport}.png`));
  expect([shot("early-call", "desktop"), shot("early-call", "mobile")]).toEqual([true, true]);
  expect([shot("home", "desktop"), shot("home", "mobile")]).toEqual([false, false]);
  // No experiment has variations: no folder for their first screens.
  expect(existsSync(join(out, "screenshots/screenshots-on-failure/staging/views"))).toBe(false);
});
