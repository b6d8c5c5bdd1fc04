import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { usageError } from "../runner/errors.js";

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

/** The workflow's text for one spec file and environment, with the API key in `keyEnv`. */
export function workflowText(specFile: string, environment: string, keyEnv = DEFAULT_KEY_ENV): string {
  const keyInput = keyEnv === DEFAULT_KEY_ENV ? "" : `\n          key-env: ${keyEnv}`;
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
          specs: ${specFile}
          environment: ${environment}${keyInput}
          fail-on: new
          notify-env: SLACK_WEBHOOK_URL
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
export function writeWorkflow(root: string, specFile: string, environment: string, keyEnv?: string): string {
  const file = join(root, WORKFLOW_FILE);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, workflowText(specFile.split("\\").join("/"), environment, keyEnv));
  return WORKFLOW_FILE;
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
