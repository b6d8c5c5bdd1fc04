import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import {
  baselinesFromSummary,
  defaultBaselinePath,
  formatBaselineFile,
  parseBaselineFile,
  parseSummaryForBaseline,
} from "../results/baseline-file.js";
import { type CallBaseline } from "../artifacts/baseline.js";
import type { AuditTarget } from "../schedule/plan.js";
import { CliError, EXIT } from "../runner/errors.js";

/** `--baseline [FILE]` of `run` and `merge`: compare with `file`, or with the file beside each spec when it is null; null to compare with none. */
export type BaselineChoice = { file: string | null } | null;

/** Options of `setup-audit baseline`. */
export interface BaselineOptions {
  /** The good run's output folder, holding its summary.json. */
  out: string;
  /** One file for every spec × environment of the run; null to write each beside its spec. */
  file: string | null;
  /** Store the baseline even though the run failed. */
  force: boolean;
}

/** `setup-audit baseline`: stores which calls fired in the run in `--out` as the baseline of its specs. */
export async function baselineCommand(options: BaselineOptions): Promise<number> {
  const summaryFile = join(options.out, "summary.json");
  const again = `Run \`setup-audit run --out ${options.out}\` on a good build first, or point --out at the folder such a run wrote.`;
  if (!existsSync(summaryFile)) throw new CliError(EXIT.invalid, `No ${summaryFile} to make a baseline from.`, again);
  const summary = parseSummaryForBaseline(readFileSync(summaryFile, "utf8"));
  if (!summary.ok)
    throw new CliError(
      EXIT.invalid,
      `${summaryFile} is not a summary setup-audit can read: ${summary.problem}.`,
      again,
    );
  if (summary.value.verdict === "fail" && !options.force) {
    throw new CliError(
      EXIT.invalid,
      `${summaryFile} is the summary of a failed run; a baseline of a broken run would hide its regressions.`,
      "Fix the failed checks and run the audit again, then make the baseline — or add --force to store this run anyway.",
    );
  }
  const built = baselinesFromSummary(summary.value);
  if (built.length === 0) throw new CliError(EXIT.invalid, `${summaryFile} holds no audited spec.`, again);

  const baselines = built.map((baseline) => ({ ...baseline, spec: specKey(baseline.spec) }));
  const files: [string, CallBaseline[]][] =
    options.file !== null
      ? [[options.file, baselines]]
      : baselines.map((baseline) => [defaultBaselinePath(baseline.spec, baseline.environment), [baseline]]);
  if (summary.value.verdict === "fail")
    process.stdout.write("Storing the baseline of a failed run (--force): what it lost is now the norm.\n");
  for (const [file, group] of files) {
    mkdirSync(dirname(resolve(file)), { recursive: true });
    writeFileSync(file, formatBaselineFile(group));
    for (const baseline of group)
      process.stdout.write(
        `Baseline of ${baseline.spec} (${baseline.environment}): ${describeBaseline(baseline)} → ${file}\n`,
      );
  }
  const flag = options.file !== null ? `--baseline ${options.file}` : "--baseline";
  process.stdout.write(
    `Commit ${files.length === 1 ? "it" : "them"}; \`setup-audit run ${flag}\` fails when one of these events stops firing.\n`,
  );
  return EXIT.ok;
}

/**
 * The baseline of every target, read before any browser starts: from `file`, or (null) from the
 * file beside each spec. A missing or invalid file, or one without the target, exits 2.
 */
export function loadBaselines(targets: readonly AuditTarget[], file: string | null): CallBaseline[] {
  const read = new Map<string, CallBaseline[]>();
  return targets.map((target) => {
    const spec = specKey(target.specFile);
    const path = file ?? defaultBaselinePath(spec, target.environment);
    const remake = `\`setup-audit run ${target.specFile} --env ${target.environment}\` on a good build, then \`setup-audit baseline${file !== null ? ` --file ${file}` : ""}\`.`;
    if (!read.has(path)) read.set(path, readBaselines(path, remake));
    const baselines = read.get(path)!;
    // The file beside a spec is that spec's by its place: it still fits when run from another folder.
    const found = baselines.find(
      (baseline) => baseline.environment === target.environment && (file === null || specKey(baseline.spec) === spec),
    );
    if (!found) {
      const held = baselines.map((baseline) => `${baseline.spec} (${baseline.environment})`).join(", ");
      throw new CliError(
        EXIT.invalid,
        `${path} holds no baseline for ${spec} (${target.environment}), only for ${held}.`,
        `Make one: ${remake}`,
      );
    }
    return found;
  });
}

function readBaselines(path: string, remake: string): CallBaseline[] {
  if (!existsSync(path)) throw new CliError(EXIT.invalid, `No baseline at ${path}.`, `Make one: ${remake}`);
  const parsed = parseBaselineFile(readFileSync(path, "utf8"));
  if (!parsed.ok)
    throw new CliError(
      EXIT.invalid,
      `${path} is not a valid baseline: ${parsed.problem}.`,
      `Fix what is named, or make the file again: ${remake}`,
    );
  return parsed.value.baselines;
}

/** A spec file as baselines name it: relative to the folder setup-audit runs in, with `/` separators, so a committed file reads the same on every OS. */
function specKey(file: string): string {
  return relative(process.cwd(), resolve(file)).split(sep).join("/");
}

function describeBaseline(baseline: CallBaseline): string {
  const pairs = Object.values(baseline.pages).flatMap((viewports) => Object.values(viewports));
  const events = new Set(pairs.flatMap((fired) => [...fired.track, ...(fired.identify ? ["identify"] : [])]));
  return `${pairs.length} page × viewport(s), events: ${[...events].sort().join(", ") || "none"}`;
}
