import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { PageArtifacts } from "../artifacts/types.js";
import { findBrowser, BROWSER_ENV, INSTALL_CHROMIUM } from "../browser/launch.js";
import type { AuditPlan, AuditTarget } from "../schedule/plan.js";
import { credentialsOf } from "../privacy/redact.js";
import { runSecretLists, shortSecretWarnings } from "./run-secrets.js";
import { preloadReportBuilder } from "../report/html.js";
import { unopenedPage } from "../gather/unopened-page.js";
import { gatherFailureFileOf } from "../artifacts/gather-failure.js";
import { loadBaselines, type BaselineChoice } from "./baseline.js";
import { gatherApiAfterBrowsers, gatherApiBeforeBrowsers } from "./api-phase.js";
import { deleteInBackground, prepareOutDir } from "./out-dir.js";
import { CliError, EXIT } from "../runner/errors.js";
import { maskSecretsInLog } from "./github.js";
import { judgeGathered } from "./judge.js";
import { runGathering } from "../runner/playwright.js";
import type { PublishOptions } from "./publish.js";
import type { ChangeOptions } from "./changes.js";
import { unreachableReason } from "../runner/reachability.js";
import { loadValidSpecs } from "./specs.js";
import { saveArtifacts, type GatheredPage } from "./saved-artifacts.js";
import { keepFailureScreenshots } from "./screens.js";
import { requireSiteAccess } from "./site-access.js";
import { buildTarget, type TargetFilters } from "./targets.js";

/** Options of `setup-audit run`. */
export interface RunOptions extends TargetFilters, Pick<PublishOptions, "singleFile" | "open" | "html"> {
  specs: string[];
  workers: number | undefined;
  shard: string | undefined;
  strict: boolean;
  out: string;
  trace: boolean;
  /** Keep the gathered artifacts in OUT/artifacts/, for `--from-artifacts` (`--save-artifacts`). */
  saveArtifacts: boolean;
  /** A Playwright browser server to run the browsers on, instead of this machine. */
  browserEndpoint: string | undefined;
  /** Compare with a baseline (`--baseline [FILE]`). */
  baseline: BaselineChoice;
  /** How the run compares itself with an earlier one (--compare, --fail-on, --notify-env); a shard does not. */
  changes: ChangeOptions;
}

/** `setup-audit run`: audits every spec and returns the exit code. */
export async function runAudit(options: RunOptions): Promise<number> {
  const startedAt = new Date();
  const specs = await loadValidSpecs(options.specs);
  const targets = specs.map((loaded) => buildTarget(loaded, options));
  requireSiteAccess(targets, process.env);
  maskSecretsInLog(targets.flatMap((target) => credentialsOf(target.spec, process.env)));
  for (const warning of shortSecretWarnings(targets, process.env)) process.stderr.write(`${warning}\n`);
  // Read before any browser starts, so a missing or broken baseline costs no audit.
  const baselines = options.baseline ? loadBaselines(targets, options.baseline.file) : [];
  const browser = options.browserEndpoint ? ({ found: true, executablePath: null } as const) : findBrowser();
  if (!browser.found) {
    throw new CliError(
      EXIT.couldNotRun,
      `No browser to audit with: ${browser.problem}.`,
      `Run \`${INSTALL_CHROMIUM}\`, or set ${BROWSER_ENV} to a Chromium or Chrome executable.`,
    );
  }
  const outDir = resolve(options.out);
  const workDir = mkdtempSync(join(tmpdir(), "setup-audit-"));
  // Stale outputs and the work folder are deleted beside the rest of the run, and awaited before it ends.
  let staleOutputsDeleted: Promise<void> = Promise.resolve();
  let workDirDeleted: Promise<void> | null = null;
  try {
    await requireReachable(targets);
    staleOutputsDeleted = prepareOutDir(outDir);
    mkdirSync(join(workDir, "artifacts"));
    // Once per spec × environment, before any browser: pages and workers never call the API.
    const apiBefore = await gatherApiBeforeBrowsers(targets, (line) => process.stdout.write(line));
    const plan: AuditPlan = {
      runId: workDir.slice(-6),
      outDir,
      workDir,
      browserExecutable: browser.executablePath,
      browserEndpoint: options.browserEndpoint ?? null,
      trace: options.trace,
      targets,
    };
    const planFile = join(workDir, "plan.json");
    writeFileSync(planFile, JSON.stringify(plan));

    const gatherArgs = [
      ...(options.workers ? ["--workers", String(options.workers)] : []),
      ...(options.shard ? ["--shard", options.shard] : []),
    ];
    // What writes the outputs loads while the browsers work: nothing before them needs it.
    if (options.html) preloadReportBuilder();
    const outputWriters = Promise.all([import("./publish.js"), import("./shards.js")]);
    const gathered = await runGathering(planFile, gatherArgs);
    if (gathered === EXIT.interrupted)
      throw new CliError(EXIT.interrupted, "Interrupted.", "Run the audit again when ready.");
    // Playwright writes a trace.zip per page × viewport into the work folder, which is deleted.
    if (options.trace) keepTraces(workDir, outDir);

    const apis = await gatherApiAfterBrowsers(targets, apiBefore, (line) => process.stdout.write(line));
    // What the logins yielded is known now, and goes with the work folder: the run's secrets are read before it.
    const { secrets, credentials } = runSecretLists(targets, process.env, workDir);
    const gatheredTargets = targets.map((target, index) => ({
      target,
      pages: readArtifacts(workDir, target, Boolean(options.shard)),
      api: apis[index] ?? null,
    }));
    if (options.saveArtifacts) {
      // Before the checks: with screenshots on-failure, judging decides which screenshots the output keeps.
      saveArtifacts(
        outDir,
        { startedAt, selection: { pages: options.pages, viewports: options.viewports }, targets: gatheredTargets },
        [outDir, workDir],
        credentials,
      );
    }
    const results = gatheredTargets.map(({ target, pages, api }, index) =>
      judgeGathered(
        target,
        pages.map(({ page }) => page),
        api,
        baselines[index],
      ),
    );
    keepFailureScreenshots(targets, results, workDir, outDir);
    const [{ publishResults }, { writeShardResults }] = await outputWriters;
    if (options.shard) writeShardResults(outDir, options.shard, startedAt, targets, results, secrets);
    // Everything the outputs need from the work folder is read or copied by now.
    workDirDeleted = deleteInBackground(workDir);
    return await publishResults(plan, results, {
      ...options,
      startedAt,
      toGitHub: !options.shard,
      secrets,
      changes: options.shard ? null : options.changes,
    });
  } finally {
    await Promise.all([staleOutputsDeleted, workDirDeleted ?? deleteInBackground(workDir)]);
  }
}

function keepTraces(workDir: string, outDir: string): void {
  const traces = join(workDir, "playwright-gather");
  if (existsSync(traces)) cpSync(traces, join(outDir, "traces"), { recursive: true });
}

async function requireReachable(targets: readonly AuditTarget[]): Promise<void> {
  for (const baseUrl of new Set(targets.map((target) => target.baseUrl))) {
    const reason = await unreachableReason(baseUrl);
    if (reason !== null) {
      throw new CliError(
        EXIT.couldNotRun,
        `Could not reach ${baseUrl} (${reason}).`,
        "Start the site, or point the spec (or --base-url) at one that is up.",
      );
    }
  }
}

/** What the gather phase noted about the artifacts file that never came, on one line; null when nothing. */
function gatherFailureNote(artifactsFile: string): string | null {
  const file = gatherFailureFileOf(artifactsFile);
  return existsSync(file) ? readFileSync(file, "utf8").replace(/\s+/g, " ").trim() : null;
}

/**
 * The artifacts of every planned page × viewport. One that is missing (its test crashed or timed
 * out) becomes a page that did not load, so it shows as a failure instead of vanishing; with
 * --shard, the other shards' pages are simply not here.
 */
function readArtifacts(workDir: string, target: AuditTarget, sharded: boolean): GatheredPage[] {
  return target.units.flatMap((unit) =>
    target.viewports.flatMap((viewport) => {
      const file = unit.artifactFiles[viewport]!;
      const path = join(workDir, "artifacts", file);
      if (existsSync(path)) return [{ file, page: JSON.parse(readFileSync(path, "utf8")) as PageArtifacts }];
      if (sharded) return [];
      const noted = gatherFailureNote(path);
      const loadError = `the page's audit crashed or timed out (${noted ?? "see the output above"})`;
      const why = { loadError, login: null };
      return [{ file, page: unopenedPage(unit.inputs[viewport]!, why) }];
    }),
  );
}
