import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { FIXTURE_PORTS } from "../../fixtures/server.js";
import { workflowText } from "../../src/init/workflow.js";
import { runCommand } from "./cli.js";
import { scratchDir } from "../support/scratch.js";
import { minimalWith } from "../support/spec-text.js";

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

test("init URL --workflow beside an existing spec keeps it byte for byte and writes the workflow for it, without looking at the site; --force replaces the workflow, never the spec", async () => {
  const project = scratchDir("init-workflow-kept");
  const env = { ...process.env, GITHUB_ACTIONS: "", GITHUB_STEP_SUMMARY: "" };
  // An edited spec, its API key in a variable of its own; the URL answers nothing: init must not look at it.
  const edited = `${minimalWith({}, "api: { baseUrl: http://127.0.0.1:9, keyEnv: SHOP_API_KEY }")}# edited by hand\n`;
  mkdirSync(join(project, "audits"));
  writeFileSync(join(project, "audits", "127.0.0.1.yaml"), edited);
  const init = (...flags: string[]) =>
    runCommand(process.execPath, [BIN, "init", "http://127.0.0.1:9/", "--workflow", ...flags], { cwd: project, env });
  const workflow = join(project, ".github/workflows/setup-audit.yml");

  const first = await init();
  expect(first.code, first.stdout + first.stderr).toBe(0);
  expect(readFileSync(join(project, "audits", "127.0.0.1.yaml"), "utf8")).toBe(edited);
  expect(readFileSync(workflow, "utf8")).toBe(workflowText("audits/127.0.0.1.yaml", null, "SHOP_API_KEY"));
  expect(first.stdout).toContain("Kept audits/127.0.0.1.yaml as it is");

  writeFileSync(workflow, "# edited workflow\n");
  const kept = await init("--env", "staging");
  expect(kept.code).toBe(2);
  expect(kept.stderr).toContain(".github/workflows/setup-audit.yml exists already, and init keeps it");
  expect(readFileSync(workflow, "utf8")).toBe("# edited workflow\n");

  const forced = await init("--env", "staging", "--force");
  expect(forced.code, forced.stdout + forced.stderr).toBe(0);
  expect(readFileSync(workflow, "utf8")).toBe(workflowText("audits/127.0.0.1.yaml", "staging", "SHOP_API_KEY"));
  expect(readFileSync(join(project, "audits", "127.0.0.1.yaml"), "utf8")).toBe(edited);
});
