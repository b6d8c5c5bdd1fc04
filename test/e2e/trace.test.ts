import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { runCli } from "./cli.js";

test("--trace keeps a Playwright trace per page × viewport in OUT/traces", async ({}, testInfo) => {
  const out = join(testInfo.project.outputDir, "trace-run");
  const run = await runCli(["run", "audits/demo-shop.yaml", "--page", "signup", "--trace", "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const traces = readdirSync(join(out, "traces"), { recursive: true })
    .map(String)
    .filter((file) => file.endsWith("trace.zip"));
  expect(traces).toHaveLength(2);
});
