import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { FIXTURE_API_KEY } from "../../fixtures/service/api.js";
import { parseSpec } from "../../src/audit-spec/load.js";
import { buildTarget } from "../../src/cli/targets.js";
import { knownViewports } from "../../src/browser/viewports.js";
import type { RunSummary } from "../../src/results/summary.js";
import type { TestInfo } from "@playwright/test";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** What one CLI run printed and returned. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `setup-audit ARGS…` as a child process from the repository root, as a user would, with
 * the mock service's key in SERVICE_API_KEY (as `npm run audit` sets it) unless `env` overrides it.
 * GitHub Actions' own variables are cleared unless `env` sets them: a suite run in Actions must
 * not annotate its job with the findings of its fixtures. A run that opens pages gathers with one
 * browser unless its test names `--workers` (see oneBrowserUnlessNamed), and a run or merge builds
 * no HTML report unless its test asks for one (see noHtmlUnlessAsked).
 */
export function runCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  options: { htmlReport?: boolean } = {},
): Promise<CliRun> {
  const cli = noHtmlUnlessAsked(oneBrowserUnlessNamed(args), options.htmlReport ?? false);
  return runCommand(process.execPath, [join(ROOT, "bin/setup-audit.js"), ...cli], {
    cwd: ROOT,
    env: { ...process.env, SERVICE_API_KEY: FIXTURE_API_KEY, GITHUB_ACTIONS: "", GITHUB_STEP_SUMMARY: "", ...env },
  });
}

/**
 * The suite runs four end-to-end tests at once on two cores (test/playwright.config.ts), each
 * with whole audits: a second browser per audit would only contend for the same cores, and cost
 * its own worker and browser start. So a `run` that gathers takes one worker unless its test
 * names `--workers`. The tests of several workers name them (instance calls, every vendor bundle,
 * the single-page apps, the tracking plans); the packed install's run and `demo` keep the default.
 */
function oneBrowserUnlessNamed(args: readonly string[]): readonly string[] {
  const gathers = args[0] === "run" && !args.includes("--from-artifacts");
  return gathers && !args.includes("--workers") ? [...args, "--workers", "1"] : args;
}

/**
 * Building the HTML report is a large part of a short run's CPU, and most tests read only
 * summary.json and the console: a `run` or `merge` gets `--no-html` unless its test names
 * `--single-file`, `--open` or `--no-html`, or reads the folder report or its history (`htmlReport`).
 */
function noHtmlUnlessAsked(args: readonly string[], htmlReport: boolean): readonly string[] {
  const publishes = args[0] === "run" || args[0] === "merge";
  const asked = htmlReport || ["--single-file", "--open", "--no-html"].some((flag) => args.includes(flag));
  return publishes && !asked ? [...args, "--no-html"] : args;
}

/** Runs a command as a child process in `cwd` with exactly the environment `env`; resolves when it ends. */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The summary.json a run wrote into `outDir`. */
export function readSummary(outDir: string): RunSummary {
  return JSON.parse(readFileSync(join(outDir, "summary.json"), "utf8")) as RunSummary;
}

/** The environment info of the Allure results a run wrote into `outDir` (`environment.properties`, unescaped). */
export function readEnvironmentInfo(outDir: string): Record<string, string> {
  const lines = readFileSync(join(outDir, "allure-results", "environment.properties"), "utf8")
    .split("\n")
    .filter((line) => line !== "");
  const unescape = (text: string) => text.replace(/\\(.)/g, "$1");
  return Object.fromEntries(
    lines.map((line) => {
      const separator = line.search(/(?<!\\)=/);
      return [unescape(line.slice(0, separator)), unescape(line.slice(separator + 1))];
    }),
  );
}

/** The one finding of `check` on a page × viewport (or goal × viewport). */
export function findingOf(
  summary: RunSummary,
  check: string,
  where: { page?: string; goal?: string; viewport?: string | null; variation?: string | null },
) {
  const found = summary.findings.filter(
    (finding) =>
      finding.check === check &&
      (where.page === undefined || finding.page === where.page) &&
      (where.goal === undefined || finding.goal === where.goal) &&
      (where.viewport === undefined || finding.viewport === where.viewport) &&
      (where.variation === undefined || finding.variation === where.variation),
  );
  if (found.length !== 1)
    throw new Error(`expected one ${check} finding for ${JSON.stringify(where)}, found ${found.length}`);
  return found[0]!;
}

/** A spec file under test/e2e/specs, relative to the repository root. */
export function e2eSpec(name: string): string {
  return join("test/e2e/specs", name);
}

/**
 * Gives the running hook or test a limit from the run of `specs` (absolute, or relative to the
 * repository root) it waits for, with one browser, and never less than its project's: 30 s for
 * each unit the run's plan gathers (a page, a variation, a consent answer, the forced control) on
 * each viewport. The optimizely spec's run took 14 s a unit beside a second suite and a CPU-bound
 * loop (load 30 on two cores), and the fixed ten minutes failed the runs of the most units first.
 */
export function allowRunOf(testInfo: TestInfo, specs: readonly string[]): void {
  const units = specs.map((file) => {
    const parsed = parseSpec(readFileSync(resolve(ROOT, file), "utf8"), resolve(ROOT, file), knownViewports());
    if (!parsed.ok) throw new Error(`${file} is not a valid spec: ${JSON.stringify(parsed.errors)}`);
    const target = buildTarget(
      { file, spec: parsed.spec, sha256: "" },
      { env: undefined, viewports: [], pages: [], baseUrl: undefined },
    );
    return target.units.length * target.viewports.length;
  });
  const sum = units.reduce((total, count) => total + count, 0);
  testInfo.setTimeout(Math.max(testInfo.project.timeout, sum * 30_000));
}
