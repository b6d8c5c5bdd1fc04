import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { parse } from "yaml";
import { initOptions } from "../../src/init/init-command.js";
import {
  ACTION_REPOSITORY,
  gitignoreOffer,
  requireWorkflowWritable,
  WORKFLOW_FILE,
  workflowText,
  writeWorkflow,
} from "../../src/init/workflow.js";
import { scratchDir } from "../support/scratch.js";

const ROOT = join(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
type Workflow = {
  on: { schedule: { cron: string }[]; pull_request: unknown };
  jobs: Record<string, { "runs-on": string; steps: Step[] }>;
};

test("the workflow runs nightly and on pull requests, checks out, installs, restores the history, audits with the action and saves the history", () => {
  const workflow = parse(workflowText("audits/shop.example.yaml", "staging")) as Workflow;
  expect(workflow.on.schedule[0]!.cron).toMatch(/^\S+ \S+ \* \* \*$/);
  expect("pull_request" in workflow.on).toBe(true);
  const job = workflow.jobs.audit!;
  expect(job["runs-on"]).toBe("ubuntu-latest");
  expect(job.steps.map((step) => step.uses ?? step.run)).toEqual([
    "actions/checkout@v4",
    "actions/setup-node@v4",
    "npm ci",
    "actions/cache/restore@v4",
    `${ACTION_REPOSITORY}@v1`,
    "actions/cache/save@v4",
  ]);
  const audit = job.steps[4]!;
  expect(audit.with).toEqual({
    specs: "audits/shop.example.yaml",
    environment: "staging",
    "fail-on": "new",
    "notify-env": "SLACK_WEBHOOK_URL",
  });
  expect(Object.keys(audit.env!)).toEqual(["SERVICE_API_KEY", "SLACK_WEBHOOK_URL"]);
  // The history folder of the default output folder, restored before the audit and saved even after a failed one.
  for (const step of [job.steps[3]!, job.steps[5]!]) expect(step.with!.path).toBe("reports/history");
  expect(job.steps[5]!.if).toBe("always()");
  const action = parse(read("action.yml")) as { inputs: Record<string, unknown> };
  for (const input of Object.keys(audit.with!)) expect(Object.keys(action.inputs), input).toContain(input);
});

test("a key in another variable is named to the action and passed from the secret of that name", () => {
  const audit = (parse(workflowText("audits/a.yaml", "production", "SHOP_API_KEY")) as Workflow).jobs.audit!.steps[4]!;
  expect(audit.with!["key-env"]).toBe("SHOP_API_KEY");
  expect(audit.env!.SHOP_API_KEY).toBe("${{ secrets.SHOP_API_KEY }}");
});

test("docs/ci.md gives the workflow init writes, for the environment init writes by default, and the README's snippet uses that environment and the action's repository", () => {
  const environment = initOptions({ urls: ["https://shop.example"], crawl: undefined }).environment;
  expect(read("docs/ci.md")).toContain(`\`\`\`yaml\n${workflowText("audits/shop.example.yaml", environment)}\`\`\``);
  const readme = read("README.md");
  expect(readme).toContain(`- uses: ${ACTION_REPOSITORY}@v1\n  with: { environment: ${environment} }`);
  expect(readme).not.toContain("OWNER/");
  const manifest = JSON.parse(read("package.json")) as { repository: { url: string } };
  expect(manifest.repository.url).toBe(`git+https://github.com/${ACTION_REPOSITORY}.git`);
});

test("init --workflow writes the file, and keeps an existing one unless forced", () => {
  const root = scratchDir("init-workflow");
  expect(() => requireWorkflowWritable(root, false)).not.toThrow();
  expect(writeWorkflow(root, "audits\\shop.yaml", "production")).toBe(WORKFLOW_FILE);
  expect(readFileSync(join(root, ".github/workflows/setup-audit.yml"), "utf8")).toBe(
    workflowText("audits/shop.yaml", "production"),
  );
  expect(() => requireWorkflowWritable(root, false)).toThrow(/setup-audit\.yml exists already/);
  expect(() => requireWorkflowWritable(root, true)).not.toThrow();
});

test("init offers the .gitignore line for reports/ unless the project ignores it already", () => {
  const root = scratchDir("init-gitignore");
  expect(gitignoreOffer(root)).toContain("`echo reports/ >> .gitignore`");
  writeFileSync(join(root, ".gitignore"), "node_modules/\nreports-old/\n");
  expect(gitignoreOffer(root)).not.toBeNull();
  writeFileSync(join(root, ".gitignore"), "node_modules/\n/reports\n");
  expect(gitignoreOffer(root)).toBeNull();
  // This repository's own form.
  expect(gitignoreOffer(ROOT)).toBeNull();
});
