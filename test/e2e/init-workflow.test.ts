import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { FIXTURE_PORTS } from "../../fixtures/server.js";
import { workflowText } from "../../src/init/workflow.js";
import { runCommand } from "./cli.js";
import { scratchDir } from "../support/scratch.js";

/**
 * `setup-audit init URL --workflow` in a project of its own (the workflow goes into the folder it
 * runs from): the workflow of docs/ci.md for the spec and environment init wrote, the offer to keep
 * reports/ out of git, and an existing workflow kept before the site is looked at.
 */
const BIN = join(import.meta.dirname, "../../bin/setup-audit.js");

test("init --workflow writes .github/workflows/setup-audit.yml for the spec and environment it wrote, and offers the .gitignore line", async () => {
  const project = scratchDir("init-workflow-project");
  const env = { ...process.env, GITHUB_ACTIONS: "", GITHUB_STEP_SUMMARY: "" };
  const init = await runCommand(
    process.execPath,
    [BIN, "init", `http://127.0.0.1:${FIXTURE_PORTS.demoShop}/`, "--env", "staging", "--workflow"],
    { cwd: project, env },
  );
  expect(init.code, init.stdout + init.stderr).toBe(0);
  expect(readFileSync(join(project, ".github/workflows/setup-audit.yml"), "utf8")).toBe(
    workflowText("audits/127.0.0.1.yaml", "staging"),
  );
  expect(init.stdout).toContain(
    "Wrote .github/workflows/setup-audit.yml: the audit nightly and on each pull request, environment staging;",
  );
  expect(init.stdout).toContain("`echo reports/ >> .gitignore`");

  const again = await runCommand(
    process.execPath,
    [BIN, "init", `http://127.0.0.1:${FIXTURE_PORTS.demoShop}/`, "--out", "audits/other.yaml", "--workflow"],
    { cwd: project, env },
  );
  expect(again.code).toBe(2);
  expect(again.stderr).toContain(".github/workflows/setup-audit.yml exists already, and init keeps it");
});
