import { expect, test } from "@playwright/test";
import {
  appendedHistory,
  changeKind,
  changesLine,
  compareRuns,
  failuresOnNew,
  hasChanges,
  KEPT_RUNS,
  lastRecordedRuns,
  recordedChecklists,
  recordedRuns,
} from "../../src/results/changes.js";
import type { RunSummary, SpecRun } from "../../src/results/summary.js";
import type { Finding, Status } from "../../src/findings/finding.js";
import { findingWith } from "../support/artifacts.js";

const SPEC = "audits/shop.yaml";
/** The spec paths these tests write are their identity already. */
const asWritten = (spec: string) => spec;

const found = (status: Status, where: Partial<Finding> = {}): Finding =>
  findingWith({
    check: "events.expected",
    status,
    spec: SPEC,
    page: "home",
    viewport: "mobile",
    ...where,
  });

const specRun = (spec = SPEC, environment = "staging", verdict: SpecRun["verdict"] = "fail"): SpecRun => ({
  spec,
  project: "Shop",
  environment,
  verdict,
  collect: "send",
  checklist: {
    workspace: "pass",
    projectKeyOrDomain: "pass",
    goalEventMatch: "fail",
    mobileAndDesktop: "pass",
    noWarnings: "pass",
  },
});

const summaryOf = (
  findings: Finding[],
  startedAt = "2026-11-27T03:00:12.345Z",
  runs = [specRun()],
): Pick<RunSummary, "startedAt" | "runs" | "findings"> => ({ startedAt, runs, findings });

/** The keys a changes list names, as `check page viewport status`. */
const keys = (list: readonly { check: string; page: string | null; viewport: string | null; status: Status }[]) =>
  list.map((item) => `${item.check} ${item.page} ${item.viewport} ${item.status}`);

test("each definition: new from pass or absent, worse from warn to fail, resolved to pass, persisting when warn or fail in both and not worse", () => {
  expect(changeKind("pass", "fail")).toBe("new");
  expect(changeKind("pass", "warn")).toBe("new");
  expect(changeKind(null, "fail")).toBe("new");
  expect(changeKind("warn", "fail")).toBe("worse");
  expect(changeKind("fail", "pass")).toBe("resolved");
  expect(changeKind("warn", "pass")).toBe("resolved");
  expect(changeKind("fail", "fail")).toBe("persisting");
  expect(changeKind("warn", "warn")).toBe("persisting");
  expect(changeKind("fail", "warn")).toBe("persisting");
  expect(changeKind("pass", "pass")).toBeNull();
  expect(changeKind(null, "pass")).toBeNull();
});

test("a key skipped then and warn or fail now is new: a night the site was down hides no failure", () => {
  expect(changeKind("skip", "fail")).toBe("new");
  expect(changeKind("skip", "warn")).toBe("new");
  expect(changeKind("skip", "pass")).toBeNull();
});

test("a key skipped now counts in none, whatever it was then", () => {
  for (const before of ["pass", "warn", "fail", "skip", null] as const)
    expect(changeKind(before, "skip"), `${before} → skip`).toBeNull();
});

test("a run compared with its recorded predecessor lists each key once, with the spec, environment and status now", () => {
  const then = recordedRuns(
    summaryOf([
      found("pass", { page: "signup" }),
      found("fail", { page: "home" }),
      found("warn", { page: "cart" }),
      found("warn", { page: "checkout" }),
      found("skip", { page: "search" }),
      found("fail", { page: "removed" }),
      found("fail", { check: "goals.match", page: null, viewport: "desktop", goal: "Signup" }),
    ]),
    asWritten,
  );
  const now = summaryOf(
    [
      found("fail", { page: "signup" }),
      found("pass", { page: "home" }),
      found("fail", { page: "cart" }),
      found("warn", { page: "checkout" }),
      found("fail", { page: "search" }),
      found("warn", { page: "added" }),
      found("fail", { check: "goals.match", page: null, viewport: "desktop", goal: "Signup" }),
    ],
    "2026-11-28T03:00:00.000Z",
  );
  const { changes, uncompared } = compareRuns(now, then, asWritten);
  expect(uncompared).toEqual([]);
  expect(keys(changes!.new)).toEqual([
    "events.expected signup mobile fail",
    "events.expected search mobile fail",
    "events.expected added mobile warn",
  ]);
  expect(keys(changes!.worse)).toEqual(["events.expected cart mobile fail"]);
  expect(keys(changes!.resolved)).toEqual(["events.expected home mobile pass"]);
  // checkout (warn in both) and the goal (fail in both); search, skipped then, is new; removed is not audited now.
  expect(changes!.persisting).toBe(2);
  expect(changes!.comparedWith).toEqual({ startedAt: "2026-11-27T03:00:12.345Z", verdict: "fail" });
  expect(changes!.new[0]).toEqual({
    check: "events.expected",
    spec: SPEC,
    environment: "staging",
    page: "signup",
    viewport: "mobile",
    goal: null,
    experiment: null,
    variation: null,
    status: "fail",
  });
  expect(hasChanges(changes!)).toBe(true);
});

test("keys differ by every field: the same check on another viewport, experiment or variation is another finding", () => {
  const then = recordedRuns(summaryOf([found("fail", { experiment: "CTA", variation: "A" })]), asWritten);
  const now = summaryOf([
    found("fail", { experiment: "CTA", variation: "B" }),
    found("fail", { experiment: "CTA", variation: "A", viewport: "desktop" }),
  ]);
  const { changes } = compareRuns(now, then, asWritten);
  expect(changes!.new.map((item) => `${item.variation} ${item.viewport}`)).toEqual(["B mobile", "A desktop"]);
  expect(changes!.persisting).toBe(0);
});

test("nothing to compare with gives changes null; only the same spec × environment is compared", () => {
  const now = summaryOf([found("fail")]);
  expect(compareRuns(now, [], asWritten)).toEqual({ changes: null, uncompared: now.runs });
  const production = recordedRuns(
    summaryOf([found("pass")], "2026-11-27T03:00:00.000Z", [specRun(SPEC, "production")]),
    asWritten,
  );
  expect(compareRuns(now, production, asWritten).changes).toBeNull();
});

test("of two spec runs, the one with no predecessor is uncompared, and the comparison names the other's run", () => {
  const other = "audits/blog.yaml";
  const then = recordedRuns(summaryOf([found("fail")], "2026-11-27T03:00:00.000Z"), asWritten);
  const now = summaryOf([found("fail"), found("fail", { spec: other })], "2026-11-28T03:00:00.000Z", [
    specRun(),
    specRun(other),
  ]);
  const comparison = compareRuns(now, then, asWritten);
  expect(comparison.uncompared.map((run) => run.spec)).toEqual([other]);
  expect(comparison.changes).toEqual({
    comparedWith: { startedAt: "2026-11-27T03:00:00.000Z", verdict: "fail" },
    new: [],
    worse: [],
    resolved: [],
    persisting: 1,
    persistingWarnings: 0,
  });
  expect(hasChanges(comparison.changes!)).toBe(false);
  // --fail-on new: the uncompared spec's failure fails the run as with `any`; the persisting one does not.
  expect(failuresOnNew(now, comparison, false).map((finding) => finding.spec)).toEqual([other]);
});

test("--fail-on new fails on new or worse failures only, and on new warnings when strict", () => {
  const then = recordedRuns(
    summaryOf([found("fail", { page: "a" }), found("warn", { page: "b" }), found("pass", { page: "c" })]),
    asWritten,
  );
  const persisting = summaryOf([
    found("fail", { page: "a" }),
    found("warn", { page: "b" }),
    found("pass", { page: "c" }),
  ]);
  expect(failuresOnNew(persisting, compareRuns(persisting, then, asWritten), true)).toEqual([]);
  const newWarning = summaryOf([
    found("fail", { page: "a" }),
    found("warn", { page: "b" }),
    found("warn", { page: "c" }),
  ]);
  expect(failuresOnNew(newWarning, compareRuns(newWarning, then, asWritten), false)).toEqual([]);
  expect(keys(failuresOnNew(newWarning, compareRuns(newWarning, then, asWritten), true) as Finding[])).toEqual([
    "events.expected c mobile warn",
  ]);
  const worse = summaryOf([found("fail", { page: "a" }), found("fail", { page: "b" }), found("pass", { page: "c" })]);
  expect(keys(failuresOnNew(worse, compareRuns(worse, then, asWritten), false) as Finding[])).toEqual([
    "events.expected b mobile fail",
  ]);
});

test("the changes line names the compared run's time to the minute and each count, persisting warnings apart from failures", () => {
  const { changes } = compareRuns(
    summaryOf([
      found("fail", { page: "x" }),
      found("fail"),
      found("warn", { page: "cart" }),
      found("warn", { page: "checkout" }),
    ]),
    recordedRuns(
      summaryOf([found("fail"), found("warn", { page: "cart" }), found("fail", { page: "checkout" })]),
      asWritten,
    ),
    asWritten,
  );
  expect(changes!.persisting).toBe(3);
  expect(changes!.persistingWarnings).toBe(2);
  expect(changesLine(changes!)).toBe(
    "Since 2026-11-27 03:00 UTC: 1 new, 0 worse, 0 resolved, 1 still failing, 2 still warning",
  );
});

test("the history keeps the last runs of each spec × environment, and its last run of each is compared with", () => {
  const run = (day: number, environment = "staging") =>
    recordedRuns(
      summaryOf([found(day % 2 ? "fail" : "pass")], `2026-01-${String(day).padStart(2, "0")}T00:00:00.000Z`, [
        specRun(SPEC, environment),
      ]),
      asWritten,
    );
  let lines = ["not a run", '{"uuid": "an entry of another format"}'];
  for (let index = 1; index <= KEPT_RUNS + 5; index++)
    lines = appendedHistory(lines, [...run((index % 28) + 1), ...(index === 1 ? run(1, "production") : [])], asWritten);
  const runs = lines.map((line) => {
    try {
      return JSON.parse(line) as { environment?: string };
    } catch {
      return null;
    }
  });
  expect(runs.filter((entry) => entry?.environment === "staging")).toHaveLength(KEPT_RUNS);
  expect(runs.filter((entry) => entry?.environment === "production")).toHaveLength(1);
  // Lines it does not know stay as they were, in their place.
  expect(lines.slice(0, 2)).toEqual(["not a run", '{"uuid": "an entry of another format"}']);
  const last = lastRecordedRuns([...lines, "{ cut short"], asWritten);
  expect(last.map((entry) => [entry.environment, entry.startedAt])).toEqual([
    ["production", "2026-01-01T00:00:00.000Z"],
    ["staging", `2026-01-${String(((KEPT_RUNS + 5) % 28) + 1).padStart(2, "0")}T00:00:00.000Z`],
  ]);
});

test("a recorded run keeps each key by status, without trailing nulls, and no message or evidence", () => {
  const [recorded] = recordedRuns(
    summaryOf([
      found("fail", { message: "secret@example.test", evidence: { value: "x" } }),
      found("pass", { check: "sdk.order", page: null, viewport: null }),
    ]),
    asWritten,
  );
  expect(recorded).toEqual({
    startedAt: "2026-11-27T03:00:12.345Z",
    spec: SPEC,
    specId: SPEC,
    environment: "staging",
    verdict: "fail",
    checklist: specRun().checklist,
    findings: { fail: [["events.expected", "home", "mobile"]], pass: [["sdk.order"]] },
  });
});

test("the trend reads each recorded run's checklist, oldest first, past a spec named like a findings key and without a damaged line", () => {
  const odd = specRun('audits/a,"findings":.yaml', "production", "pass");
  const lines = appendedHistory(
    [],
    [
      ...recordedRuns(summaryOf([found("fail")], "2026-11-26T03:00:00.000Z"), asWritten),
      ...recordedRuns(summaryOf([found("pass", { spec: odd.spec })], "2026-11-27T03:00:00.000Z", [odd]), asWritten),
    ],
    asWritten,
  );
  const read = recordedChecklists([lines[0]!, '{"startedAt":"2026-11-2', lines[1]!]);
  expect(read).toEqual([
    {
      startedAt: "2026-11-26T03:00:00.000Z",
      spec: SPEC,
      specId: SPEC,
      environment: "staging",
      verdict: "fail",
      checklist: specRun().checklist,
    },
    {
      startedAt: "2026-11-27T03:00:00.000Z",
      spec: odd.spec,
      specId: odd.spec,
      environment: "production",
      verdict: "pass",
      checklist: odd.checklist,
    },
  ]);
});

test("a recorded run without a checklist of the five items, each with a status, is no run to draw", () => {
  const run = {
    startedAt: "2026-11-27T03:00:00.000Z",
    spec: SPEC,
    environment: "staging",
    verdict: "pass",
  };
  const checklist = specRun().checklist;
  // The findings last, as recordedRuns writes them.
  expect(
    recordedChecklists([
      JSON.stringify({ ...run, findings: {} }),
      JSON.stringify({ ...run, checklist: { ...checklist, noWarnings: "green" }, findings: {} }),
      JSON.stringify({ ...run, checklist, findings: {} }),
    ]),
  ).toEqual([{ startedAt: run.startedAt, spec: SPEC, environment: "staging", verdict: "pass", checklist }]);
});
