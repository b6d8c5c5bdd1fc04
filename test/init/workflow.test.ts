import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { parse } from "yaml";
import { DEFAULT_ENVIRONMENT, initOptions } from "../../src/init/init-command.js";
import {
  ACTION_REPOSITORY,
  gitignoreOffer,
  requireWorkflowWritable,
  WORKFLOW_FILE,
  workflowText,
  writeWorkflow,
  writeWorkflowForKeptSpecs,
} from "../../src/init/workflow.js";
import { minimalWith } from "../support/spec-text.js";
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
  expect(initOptions({ urls: ["https://shop.example"], crawl: undefined }).environment).toBeNull();
  const environment = DEFAULT_ENVIRONMENT;
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

test("a workflow for every spec in audits/ names none and leaves the environment to each spec; without them the action's defaults hold", () => {
  const audit = (parse(workflowText(null, null)) as Workflow).jobs.audit!.steps[4]!;
  expect(audit.with).toEqual({ "fail-on": "new", "notify-env": "SLACK_WEBHOOK_URL" });
  const action = parse(read("action.yml")) as { inputs: Record<string, { default: string }> };
  expect([action.inputs.specs!.default, action.inputs.environment!.default]).toEqual(["", ""]);
});

test("beside a spec that exists, init --workflow keeps it byte for byte and writes the workflow with the spec's key variable", () => {
  const root = scratchDir("init-workflow-kept");
  mkdirSync(join(root, "audits"));
  const spec = `${minimalWith({}, "api: { baseUrl: http://127.0.0.1:9, keyEnv: SHOP_API_KEY }")}# edited by hand\n`;
  writeFileSync(join(root, "audits/shop.yaml"), spec);
  const said = writeWorkflowForKeptSpecs(root, { specFile: "audits/shop.yaml", environment: null, keyEnv: null });
  expect(readFileSync(join(root, "audits/shop.yaml"), "utf8")).toBe(spec);
  expect(readFileSync(join(root, WORKFLOW_FILE), "utf8")).toBe(workflowText("audits/shop.yaml", null, "SHOP_API_KEY"));
  expect(said.split("\n")).toEqual([
    "Kept audits/shop.yaml as it is: init drafts no spec over one that exists (with --workflow, --force replaces the workflow alone).",
    "Wrote .github/workflows/setup-audit.yml: the audit nightly and on each pull request, each spec's defaultEnvironment; set the SHOP_API_KEY and SLACK_WEBHOOK_URL secrets (docs/ci.md).",
  ]);
  // --env and --key-env, when given, win over the spec's.
  writeWorkflowForKeptSpecs(root, { specFile: "audits/shop.yaml", environment: "staging", keyEnv: "OTHER_KEY" });
  expect(readFileSync(join(root, WORKFLOW_FILE), "utf8")).toBe(
    workflowText("audits/shop.yaml", "staging", "OTHER_KEY"),
  );
});

test("init --workflow without URL writes the workflow for every spec in audits/, and refuses when there is none", () => {
  expect(initOptions({ urls: [], crawl: undefined, workflow: true })).toMatchObject({ url: null, environment: null });
  expect(() => initOptions({ urls: [], crawl: undefined })).toThrow(/init takes one URL/);
  expect(() => initOptions({ urls: [], crawl: undefined, workflow: true, out: "a.yaml" })).toThrow(
    /--out goes with a URL/,
  );
  const root = scratchDir("init-workflow-alone");
  expect(() => writeWorkflowForKeptSpecs(root, { specFile: null, environment: null, keyEnv: null })).toThrow(
    /audits\/ holds no valid spec/,
  );
  mkdirSync(join(root, "audits"));
  writeFileSync(join(root, "audits/a.yaml"), minimalWith({}));
  writeFileSync(join(root, "audits/b.yaml"), minimalWith({ 2: "project: Other" }));
  writeFileSync(join(root, "audits/tracking-plan.yaml"), "events: {}\n");
  const said = writeWorkflowForKeptSpecs(root, { specFile: null, environment: null, keyEnv: null });
  expect(said).toContain("The workflow audits every spec in audits/ (2 now).");
  expect(readFileSync(join(root, WORKFLOW_FILE), "utf8")).toBe(workflowText(null, null));
});
