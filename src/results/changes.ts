import { join } from "node:path";
import { type ChangedFinding, type Changes, type RunSummary, type SpecRun } from "./summary.js";
import { isChecklist, worstStatus, type Checklist, type Finding, type Status, isProblem } from "../findings/finding.js";

/**
 * What changed since an earlier run (docs/ci.md, Changes): each finding is matched with the earlier
 * run's by its key (check, spec, environment, page, viewport, goal, experiment, variation).
 * **new**: warn or fail now, and pass, skip or absent then (a night the site was down must not hide
 * the next night's failure); **worse**: warn then, fail now; **resolved**: warn or fail then, pass
 * now; **persisting**: warn or fail in both and not worse. A key skipped now, or not audited now,
 * counts in none.
 */

/** A key without its spec and environment, trailing nulls left out: `["sdk.order", "home", "mobile"]`. */
type CompactKey = [string, ...(string | null)[]];

/**
 * One spec run as the history keeps it for later comparisons: its verdict, checklist, and every
 * finding's key grouped by status. No message, no evidence: nothing a page captured.
 */
export interface RecordedRun {
  startedAt: string;
  /** The spec's path as the run named it. */
  spec: string;
  /** The spec's identity across runs (SpecIdentity); absent in runs recorded before it was, which are matched by `spec`. */
  specId?: string;
  environment: string;
  verdict: "pass" | "fail";
  checklist: Checklist;
  findings: Partial<Record<Status, CompactKey[]>>;
}

/**
 * A spec's identity across runs, whatever path spelled it (cli/spec-identity.ts): a run is the same
 * spec × environment as an earlier one when their identities and environments are the same.
 */
export type SpecIdentity = (spec: string) => string;

/** Where the history of findings is kept in the output folder, beside the report's history. */
export const FINDINGS_HISTORY = join("history", "findings.jsonl");

/** How many runs of each spec × environment the history keeps. */
export const KEPT_RUNS = 60;

/** The spec runs of a summary as the history records them. */
export function recordedRuns(
  summary: Pick<RunSummary, "startedAt" | "runs" | "findings">,
  specId: SpecIdentity,
): RecordedRun[] {
  return summary.runs.map((run) => {
    const findings: RecordedRun["findings"] = {};
    for (const finding of summary.findings.filter((candidate) => candidate.spec === run.spec)) {
      (findings[finding.status] ??= []).push(compactKey(finding));
    }
    return {
      startedAt: summary.startedAt,
      spec: run.spec,
      specId: specId(run.spec),
      environment: run.environment,
      verdict: run.verdict,
      checklist: run.checklist,
      findings,
    };
  });
}

/** What a run compared with `previous` (the last recorded run of each spec × environment) gives. */
export interface Comparison {
  /** Null when no spec run of this one has an earlier run to compare with. */
  changes: Changes | null;
  /** This run's spec runs that had nothing to compare with. */
  uncompared: SpecRun[];
}

/** Compares a run with the recorded runs of the same spec × environment (the last one of each wins). */
export function compareRuns(
  summary: Pick<RunSummary, "runs" | "findings">,
  previous: readonly RecordedRun[],
  specId: SpecIdentity,
): Comparison {
  const lastOf = new Map(previous.map((run) => [targetKey(run, specId), run]));
  const changes: Changes & { persistingWarnings: number } = {
    comparedWith: { startedAt: "", verdict: "pass" },
    new: [],
    worse: [],
    resolved: [],
    persisting: 0,
    persistingWarnings: 0,
  };
  const uncompared: SpecRun[] = [];
  for (const run of summary.runs) {
    const then = lastOf.get(targetKey(run, specId));
    if (then === undefined) {
      uncompared.push(run);
      continue;
    }
    if (then.startedAt > changes.comparedWith.startedAt) changes.comparedWith.startedAt = then.startedAt;
    if (then.verdict === "fail") changes.comparedWith.verdict = "fail";
    const statusThen = statusesOf(then);
    for (const [key, finding] of currentFindings(summary.findings, run)) {
      const before = statusThen.get(key) ?? null;
      const changed: ChangedFinding = { ...keyFields(finding, run.environment), status: finding.status };
      const kind = changeKind(before, finding.status);
      if (kind === "persisting") {
        changes.persisting++;
        if (finding.status === "warn") changes.persistingWarnings++;
      } else if (kind !== null) changes[kind].push(changed);
    }
  }
  return { changes: uncompared.length === summary.runs.length ? null : changes, uncompared };
}

/** How one key changed from `before` (null: absent then) to `now`; null when it counts in none. */
export function changeKind(before: Status | null, now: Status): "new" | "worse" | "resolved" | "persisting" | null {
  if (now === "skip") return null;
  if (isProblem(now) && !isProblem(before)) return "new";
  if (before === "warn" && now === "fail") return "worse";
  if (isProblem(before) && now === "pass") return "resolved";
  if (isProblem(before) && isProblem(now)) return "persisting";
  return null;
}

/** Whether a comparison has anything to tell: a new, worse or resolved finding. */
export function hasChanges(changes: Changes): boolean {
  return changes.new.length + changes.worse.length + changes.resolved.length > 0;
}

/**
 * The changes line: `Since 2026-11-27 03:00 UTC: 1 new, 0 worse, 2 resolved, 3 still failing, 1 still
 * warning`. A summary written before persisting warnings were told apart from failures counts them
 * together, and says so.
 */
export function changesLine(changes: Changes): string {
  const { persisting, persistingWarnings: warnings } = changes;
  const still =
    warnings === undefined
      ? `${persisting} still failing or warning`
      : `${persisting - warnings} still failing, ${warnings} still warning`;
  return `Since ${utcMinute(changes.comparedWith.startedAt)}: ${changes.new.length} new, ${changes.worse.length} worse, ${changes.resolved.length} resolved, ${still}`;
}

/** A run's start to the minute: `2026-11-27 03:00 UTC`. */
export function utcMinute(iso: string): string {
  return iso.replace("T", " ").replace(/:\d\d(\.\d+)?Z$/, " UTC");
}

/**
 * The findings that fail a run under `--fail-on new`: new or worse ones whose status fails the run
 * (`fail`, or `warn` when strict), and every failing finding of a spec run with nothing to compare with.
 */
export function failuresOnNew(
  summary: Pick<RunSummary, "findings">,
  comparison: Comparison,
  strict: boolean,
): (Finding | ChangedFinding)[] {
  const fails = (status: Status) => status === "fail" || (strict && status === "warn");
  const uncompared = new Set(comparison.uncompared.map((run) => run.spec));
  const changed = comparison.changes === null ? [] : [...comparison.changes.new, ...comparison.changes.worse];
  return [
    ...changed.filter((finding) => fails(finding.status)),
    ...summary.findings.filter((finding) => uncompared.has(finding.spec) && fails(finding.status)),
  ];
}

/**
 * The history's lines once `added` are appended: each spec × environment keeps its last
 * KEPT_RUNS runs, so the file stays bounded however long CI runs. Lines that are not a recorded
 * run are kept as they are.
 */
export function appendedHistory(
  lines: readonly string[],
  added: readonly RecordedRun[],
  specId: SpecIdentity,
): string[] {
  const all = [...lines.filter((line) => line.trim() !== ""), ...added.map((run) => JSON.stringify(run))];
  const seen = new Map<string, number>();
  const kept: string[] = [];
  for (const line of [...all].reverse()) {
    const run = parseRecordedRun(line);
    const key = run === null ? null : targetKey(run, specId);
    const count = key === null ? 0 : (seen.get(key) ?? 0) + 1;
    if (key !== null) seen.set(key, count);
    if (count <= KEPT_RUNS) kept.push(line);
  }
  return kept.reverse();
}

/** A recorded run without its findings' keys: what the checklist's trend draws. */
export type RecordedChecklist = Omit<RecordedRun, "findings">;

/**
 * Every recorded run's checklist in the history's lines, oldest first; a damaged line is skipped.
 * A line is read up to its findings' keys, which `recordedRuns` writes last: a run of 400 page ×
 * viewports records thousands of them, and parsing 60 such runs whole takes a loaded machine
 * seconds. (`,"findings":` cannot occur inside a JSON string, whose quotes are escaped.)
 */
export function recordedChecklists(lines: readonly string[]): RecordedChecklist[] {
  return lines.flatMap((line) => {
    const cut = line.indexOf(',"findings":');
    const run = parseRecordedRun(cut < 0 ? line : `${line.slice(0, cut)},"findings":{}}`);
    if (run === null) return [];
    const { findings: _keys, ...checklist } = run;
    return [checklist];
  });
}

/** The last recorded run of each spec × environment in the history's lines. */
export function lastRecordedRuns(lines: readonly string[], specId: SpecIdentity): RecordedRun[] {
  const last = new Map<string, RecordedRun>();
  for (const run of lines.map(parseRecordedRun)) if (run !== null) last.set(targetKey(run, specId), run);
  return [...last.values()];
}

function parseRecordedRun(line: string): RecordedRun | null {
  try {
    const run = JSON.parse(line) as Partial<RecordedRun> | null;
    return run &&
      typeof run.spec === "string" &&
      typeof run.environment === "string" &&
      typeof run.startedAt === "string" &&
      isChecklist(run.checklist) &&
      typeof run.findings === "object"
      ? (run as RecordedRun)
      : null;
  } catch {
    // A damaged line (a write cut short) is no run to compare with.
    return null;
  }
}

/** A spec run's spec × environment; a run recorded without its spec's identity gets it from its spec's path. */
function targetKey(run: Pick<RecordedRun, "spec" | "specId" | "environment">, specId: SpecIdentity): string {
  return JSON.stringify([run.specId ?? specId(run.spec), run.environment]);
}

function compactKey(finding: Finding): CompactKey {
  const key: CompactKey = [
    finding.check,
    finding.page,
    finding.viewport,
    finding.goal,
    finding.experiment,
    finding.variation,
  ];
  while (key.length > 1 && key[key.length - 1] === null) key.pop();
  return key;
}

/** A compact key as one string, trailing nulls and all, to match findings by. */
function keyText(key: readonly (string | null)[]): string {
  const full = [...key];
  while (full.length < 6) full.push(null);
  return JSON.stringify(full);
}

function statusesOf(run: RecordedRun): Map<string, Status> {
  const statuses = new Map<string, Status>();
  for (const [status, keys] of Object.entries(run.findings) as [Status, CompactKey[]][]) {
    for (const key of keys) {
      const text = keyText(key);
      statuses.set(text, worstStatus([statuses.get(text) ?? "skip", status]));
    }
  }
  return statuses;
}

/** The run's findings of one spec run by key; a key judged twice counts with its worst status. */
function currentFindings(findings: readonly Finding[], run: SpecRun): Map<string, Finding> {
  const byKey = new Map<string, Finding>();
  for (const finding of findings.filter((candidate) => candidate.spec === run.spec)) {
    const key = keyText(compactKey(finding));
    const known = byKey.get(key);
    if (known === undefined || worstStatus([known.status, finding.status]) !== known.status) byKey.set(key, finding);
  }
  return byKey;
}

function keyFields(finding: Finding, environment: string): Omit<ChangedFinding, "status"> {
  return {
    check: finding.check,
    spec: finding.spec,
    environment,
    page: finding.page,
    viewport: finding.viewport,
    goal: finding.goal,
    experiment: finding.experiment,
    variation: finding.variation,
  };
}
