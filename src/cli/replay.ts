import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { credentialsOf } from "../privacy/redact.js";
import { runSecretLists, shortSecretWarnings } from "./run-secrets.js";
import { loadBaselines, type BaselineChoice } from "./baseline.js";
import { maskSecretsInLog } from "./github.js";
import { judgeGathered } from "./judge.js";
import { prepareOutDir } from "./out-dir.js";
import { publishResults, type PublishOptions } from "./publish.js";
import type { AuditTarget } from "../schedule/plan.js";
import type { CallBaseline } from "../artifacts/baseline.js";
import type { Check } from "../checks/check.js";
import type { TargetResult } from "../results/run-result.js";
import {
  readSavedRun,
  replayedSpecFiles,
  replayedTargets,
  savedDirOf,
  SAVED_DIR,
  type SavedRun,
} from "./saved-artifacts.js";
import { localPictureBrowser } from "./pictures.js";
import { restoreScreens } from "./screens.js";
import { loadValidSpecs } from "./specs.js";
import type { TargetFilters } from "./targets.js";

/** Options of `setup-audit run --from-artifacts DIR`. */
export interface ReplayOptions
  extends Omit<PublishOptions, "startedAt" | "toGitHub" | "secrets">,
    Pick<TargetFilters, "env" | "pages" | "viewports"> {
  specs: string[];
  baseline: BaselineChoice;
}

/**
 * `setup-audit run [SPEC…] --from-artifacts DIR`: judges the artifacts an earlier `run
 * --save-artifacts --out DIR` kept, with the current specs and checks, and writes the outputs a
 * run writes. No browser gathers anything; the variations' pictures are rendered as `merge`
 * renders them, in the browser a run on this machine would use (without one, the report has
 * none, and says why on stderr).
 */
export async function replayAudit(dir: string, options: ReplayOptions): Promise<number> {
  const startedAt = new Date();
  const { saved, targets, judge } = await readReplay(dir, options);
  maskSecretsInLog(targets.flatMap((target) => credentialsOf(target.spec, process.env)));
  for (const warning of shortSecretWarnings(targets, process.env)) process.stderr.write(`${warning}\n`);
  const baselines = options.baseline ? loadBaselines(targets, options.baseline.file) : [];
  process.stdout.write(
    `Judging the artifacts saved in ${dir} (gathered ${saved.startedAt} by setup-audit ${saved.tool}) with the current specs and checks; no page is opened.\n`,
  );
  for (const target of targets) {
    const savedTarget = saved.targets.find(
      (candidate) =>
        resolve(candidate.specFile) === resolve(target.specFile) && candidate.environment === target.environment,
    )!;
    if (savedTarget.specSha256 !== target.specSha256)
      process.stdout.write(
        `${target.specFile} changed since its artifacts were gathered: it is judged as it is now, on what was gathered (a change to what the pages record, such as the sdk section, a journey or consent, needs a new gathering).\n`,
      );
  }

  const outDir = resolve(options.out);
  // Replayed into the folder that holds them, the saved artifacts stay: they can be judged again.
  const staleOutputsDeleted = prepareOutDir(outDir, outDir === resolve(dir) ? [SAVED_DIR] : []);
  try {
    const results = judge(baselines);
    restoreScreens(targets, results, savedDirOf(dir), outDir);
    const plan = { runId: randomBytes(3).toString("hex"), outDir, targets, ...localPictureBrowser() };
    // The saved artifacts are scrubbed of what the logins yielded already.
    const { secrets } = runSecretLists(targets, process.env, null);
    return await publishResults(plan, results, { ...options, startedAt, toGitHub: true, secrets });
  } finally {
    await staleOutputsDeleted;
  }
}

/**
 * The saved run in DIR, the specs it is judged with (those named, else those saved) planned
 * again, and what judges them: the checks on each target's saved pages and API answers.
 */
export async function readReplay(
  dir: string,
  options: Pick<ReplayOptions, "specs" | "env" | "pages" | "viewports">,
): Promise<{
  saved: SavedRun;
  targets: AuditTarget[];
  /** Judges each target with `checks` (default: all). */
  judge: (baselines: readonly (CallBaseline | undefined)[], checks?: readonly Check[]) => TargetResult[];
}> {
  const saved = readSavedRun(dir);
  const specs = await loadValidSpecs(replayedSpecFiles(saved, options.specs, dir));
  const replayed = replayedTargets(saved, specs, options, dir);
  return {
    saved,
    targets: replayed.map((entry) => entry.target),
    judge: (baselines, checks) =>
      replayed.map((entry, index) => judgeGathered(entry.target, entry.pages, entry.api, baselines[index], checks)),
  };
}
