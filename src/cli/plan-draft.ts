import { existsSync, writeFileSync } from "node:fs";
import { draftTrackingPlan, type DraftCall } from "../tracking-plan/draft.js";
import { EXIT, usageError } from "../runner/errors.js";
import { readSavedRun, savedPagesAsTheyAre } from "./saved-artifacts.js";

/** Options of `setup-audit plan draft`. */
export interface PlanDraftOptions {
  /** The run's output folder, whose saved artifacts hold the calls (`--from`). */
  from: string;
  /** The plan file to write (`--out`). */
  out: string;
  /** Replace the file when it exists. */
  force: boolean;
}

/**
 * `setup-audit plan draft`: writes a tracking plan in setup-audit's format from the calls of the
 * last run saved with `--save-artifacts` (the calls' properties are in the saved artifacts, not in
 * summary.json): the pages as they are, every viewport, calls lost before the SDK existed and page views left out.
 */
export function planDraftCommand(options: PlanDraftOptions): number {
  if (existsSync(options.out) && !options.force)
    throw usageError(
      `${options.out} exists already, and plan draft keeps it`,
      "Pass --force to replace it, or --out to write another file.",
    );
  const saved = readSavedRun(options.from);
  const calls: DraftCall[] = saved.targets.flatMap((target) =>
    savedPagesAsTheyAre(options.from, target).flatMap((page) =>
      page.calls.flatMap(({ kind, name, properties, state }) =>
        state === "lost" || kind === "page" ? [] : [{ kind, name, properties }],
      ),
    ),
  );
  const specs = [...new Set(saved.targets.map((target) => target.specFile))].join(", ");
  writeFileSync(
    options.out,
    draftTrackingPlan(calls, `the run of ${specs} saved in ${options.from} (${saved.startedAt})`),
  );
  process.stdout.write(
    `Wrote ${options.out} from ${calls.length} call(s). Confirm the values marked "# check:", then name it in the spec's trackingPlan.file.\n`,
  );
  return EXIT.ok;
}
