import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { knownViewports } from "../browser/viewports.js";
import { usageError } from "../runner/errors.js";
import { parseSpec } from "../audit-spec/load.js";

/**
 * `init --workflow`: the GitHub Actions workflow that docs/ci.md gives to copy, for the spec and
 * environment init wrote: nightly and on each pull request, the history kept between runs so that
 * each run says what changed, `--fail-on new`, and a message to a webhook when something changed.
 */

/** Where `init --workflow` writes the workflow, from the project's root. */
export const WORKFLOW_FILE = join(".github", "workflows", "setup-audit.yml");

/** The GitHub owner/name of setup-audit's repository, as `uses:` names its action. */
export const ACTION_REPOSITORY = "setup-audit/setup-audit";

/** The variable the action reads the API key from unless told another (its `key-env` input's default). */
const DEFAULT_KEY_ENV = "SERVICE_API_KEY";

/**
 * The workflow's text for one spec file (null: every spec in audits/, the action's default) and
 * environment (null: each spec's defaultEnvironment), with the API key in `keyEnv`.
 */
export function workflowText(specFile: string | null, environment: string | null, keyEnv = DEFAULT_KEY_ENV): string {
  const inputs = [
    ...(specFile === null ? [] : [`specs: ${specFile}`]),
    ...(environment === null ? [] : [`environment: ${environment}`]),
    ...(keyEnv === DEFAULT_KEY_ENV ? [] : [`key-env: ${keyEnv}`]),
    "fail-on: new",
    "notify-env: SLACK_WEBHOOK_URL",
  ];
  return `# Audits the site's setup every night and on each pull request (docs/ci.md in setup-audit).
name: setup-audit

on:
  schedule:
    - cron: "17 3 * * *"
  pull_request:
  workflow_dispatch:

permissions:
  contents: read

jobs:
  audit:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      # The setup-audit the project installed (npm i -D setup-audit); without a package.json, leave
      # this step out and the action installs its own.
      - run: npm ci
      # The earlier runs' history: what each run compares itself with, and the report's trends.
      - uses: actions/cache/restore@v4
        with:
          path: reports/history
          key: setup-audit-history-\${{ github.run_id }}
          restore-keys: setup-audit-history-
      - uses: ${ACTION_REPOSITORY}@v1
        with:
${inputs.map((input) => `          ${input}`).join("\n")}
        env:
          ${keyEnv}: \${{ secrets.${keyEnv} }}
          SLACK_WEBHOOK_URL: \${{ secrets.SLACK_WEBHOOK_URL }}
      - uses: actions/cache/save@v4
        if: always()
        with:
          path: reports/history
          key: setup-audit-history-\${{ github.run_id }}
`;
}

/** Refuses (exit 2) to replace an existing workflow without `force`: asked before init looks at the site. */
export function requireWorkflowWritable(root: string, force: boolean): void {
  if (existsSync(join(root, WORKFLOW_FILE)) && !force)
    throw usageError(
      `${WORKFLOW_FILE} exists already, and init keeps it`,
      "Pass --force to replace it, or leave --workflow out.",
    );
}

/** Writes the workflow into `root`; returns the path written, from the root. */
export function writeWorkflow(
  root: string,
  specFile: string | null,
  environment: string | null,
  keyEnv: string = DEFAULT_KEY_ENV,
): string {
  const file = join(root, WORKFLOW_FILE);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, workflowText(specFile?.split("\\").join("/") ?? null, environment, keyEnv));
  return WORKFLOW_FILE;
}

/** The line that says what the workflow written does and which secrets it needs. */
export function workflowWrittenLine(environment: string | null, keyEnv: string = DEFAULT_KEY_ENV): string {
  const which = environment === null ? "each spec's defaultEnvironment" : `environment ${environment}`;
  return `Wrote ${WORKFLOW_FILE}: the audit nightly and on each pull request, ${which}; set the ${keyEnv} and SLACK_WEBHOOK_URL secrets (docs/ci.md).`;
}

/** What `init --workflow` writes the workflow for when it drafts no spec. */
export interface KeptSpecs {
  /** The spec URL names, which exists; null without URL: every spec in audits/. */
  specFile: string | null;
  /** `--env`; null: each spec's defaultEnvironment. */
  environment: string | null;
  /** `--key-env`; null: the variable the specs' `api.keyEnv` names, when they agree on one. */
  keyEnv: string | null;
}

/**
 * `init [URL] --workflow` with no spec to draft: the spec URL names exists already, and is kept as
 * it is, byte for byte (with `--workflow`, `--force` names the workflow alone), or no URL was given
 * (every spec in audits/). Writes the workflow for it, without looking at the site; returns what
 * to print.
 */
export function writeWorkflowForKeptSpecs(root: string, kept: KeptSpecs): string {
  const audits = join(root, "audits");
  const files =
    kept.specFile !== null
      ? [kept.specFile]
      : existsSync(audits)
        ? readdirSync(audits, { withFileTypes: true })
            .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
            .map((entry) => join("audits", entry.name))
        : [];
  const specs = files.flatMap((file) => {
    const path = resolve(root, file);
    const parsed = parseSpec(readFileSync(path, "utf8"), path, knownViewports());
    return parsed.ok ? [parsed.spec] : [];
  });
  if (kept.specFile === null && specs.length === 0)
    throw usageError(
      "audits/ holds no valid spec to write the workflow for",
      "Give init the site's URL to draft one (setup-audit init URL --workflow), or fix the specs there (setup-audit validate).",
    );
  const keyEnvs = [...new Set(specs.flatMap((spec) => (spec.api === undefined ? [] : [spec.api.keyEnv])))];
  const keyEnv = kept.keyEnv ?? (keyEnvs.length === 1 ? keyEnvs[0] : undefined);
  writeWorkflow(root, kept.specFile, kept.environment, keyEnv);
  const said =
    kept.specFile === null
      ? `The workflow audits every spec in audits/ (${specs.length} now).`
      : `Kept ${kept.specFile} as it is: init drafts no spec over one that exists (with --workflow, --force replaces the workflow alone).`;
  return `${said}\n${workflowWrittenLine(kept.environment, keyEnv)}`;
}

/** The line that offers to keep `reports/` out of git, unless the project's .gitignore has it already. */
export function gitignoreOffer(root: string): string | null {
  const gitignore = join(root, ".gitignore");
  const lines = existsSync(gitignore)
    ? readFileSync(gitignore, "utf8")
        .split(/\r?\n/)
        .map((line) => line.trim())
    : [];
  if (lines.some((line) => /^\/?reports(?:\/\**)?$/.test(line))) return null;
  return "reports/ holds screenshots and page traffic: keep it out of git with `echo reports/ >> .gitignore`.";
}
