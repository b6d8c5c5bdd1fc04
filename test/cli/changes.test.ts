import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { changeOptionsOf, compareAndRecord, COMPARE_WITH_HISTORY, failOnNewOutcome } from "../../src/cli/changes.js";
import { FINDINGS_HISTORY } from "../../src/results/changes.js";
import { CliError, EXIT } from "../../src/runner/errors.js";
import type { RunSummary } from "../../src/results/summary.js";
import type { Finding, Status } from "../../src/findings/finding.js";
import { scratchDir } from "../support/scratch.js";
import { findingWith } from "../support/artifacts.js";

const found = (status: Status, page: string, spec = "audits/shop.yaml"): Finding =>
  findingWith({
    status,
    spec,
    page,
    viewport: "mobile",
  });
const summaryOf = (findings: Finding[], startedAt: string, spec = "audits/shop.yaml"): RunSummary => ({
  version: 1,
  verdict: findings.some((finding) => finding.status === "fail") ? "fail" : "pass",
  startedAt,
  durationMs: 0,
  calls: [],
  findings,
  changes: null,
  runs: [
    {
      spec,
      project: "Shop",
      environment: "staging",
      verdict: "fail",
      collect: "send",
      checklist: {
        workspace: "pass",
        projectKeyOrDomain: "pass",
        goalEventMatch: "pass",
        mobileAndDesktop: "fail",
        noWarnings: "pass",
      },
    },
  ],
});

function usageErrorOf(run: () => unknown): CliError {
  try {
    run();
  } catch (error) {
    return error as CliError;
  }
  throw new Error("no error");
}

test("each run is compared with the last one in OUT's history, then recorded for the next", () => {
  const out = scratchDir("changes");
  const first = compareAndRecord(
    out,
    summaryOf([found("fail", "home"), found("pass", "cart")], "2026-11-26T03:00:00.000Z"),
    COMPARE_WITH_HISTORY,
  );
  expect(first.changes).toBeNull();
  const second = compareAndRecord(
    out,
    summaryOf([found("pass", "home"), found("fail", "cart")], "2026-11-27T03:00:00.000Z"),
    COMPARE_WITH_HISTORY,
  );
  expect(second.changes!.comparedWith.startedAt).toBe("2026-11-26T03:00:00.000Z");
  expect(second.changes!.new.map((finding) => finding.page)).toEqual(["cart"]);
  expect(second.changes!.resolved.map((finding) => finding.page)).toEqual(["home"]);
  expect(readFileSync(join(out, FINDINGS_HISTORY), "utf8").trim().split("\n")).toHaveLength(2);
});

test("--compare DIR compares with the summary.json DIR holds, read when the options are", () => {
  const earlier = scratchDir("compare");
  writeFileSync(
    join(earlier, "summary.json"),
    JSON.stringify(summaryOf([found("fail", "cart")], "2026-11-20T03:00:00.000Z")),
  );
  const options = changeOptionsOf({ compare: earlier, "fail-on": "new" });
  writeFileSync(join(earlier, "summary.json"), "overwritten later, as when DIR is also --out");
  const out = scratchDir("changes");
  compareAndRecord(out, summaryOf([found("pass", "cart")], "2026-11-26T03:00:00.000Z"), COMPARE_WITH_HISTORY);
  const compared = compareAndRecord(out, summaryOf([found("fail", "cart")], "2026-11-27T03:00:00.000Z"), options);
  expect(compared.changes).toEqual({
    comparedWith: { startedAt: "2026-11-20T03:00:00.000Z", verdict: "fail" },
    new: [],
    worse: [],
    resolved: [],
    persisting: 1,
    persistingWarnings: 0,
  });
});

test("a bad --compare, --fail-on or --notify-env is a usage error (exit 2) that says what to give", () => {
  const empty = scratchDir("compare");
  const broken = scratchDir("compare");
  writeFileSync(join(broken, "summary.json"), "{ cut short");
  for (const [values, message] of [
    [{ compare: empty }, `--compare ${empty}: there is no summary.json in it`],
    [
      { compare: broken },
      `--compare ${broken}: ${join(broken, "summary.json")} is not a summary.json setup-audit wrote`,
    ],
    [{ "fail-on": "old" }, '--fail-on must be new or any, not "old"'],
    [{ "notify-env": "https://hooks.slack.com/services/x" }, "--notify-env takes the NAME of the variable"],
  ] as const) {
    const error = usageErrorOf(() => changeOptionsOf(values));
    expect(error.exitCode).toBe(EXIT.invalid);
    expect(error.message).toContain(message);
  }
  expect(changeOptionsOf({})).toEqual(COMPARE_WITH_HISTORY);
});

test("--fail-on new: old failures alone pass, a new one fails, and nothing to compare with fails as any and says so", () => {
  const out = scratchDir("changes");
  const firstRun = summaryOf([found("fail", "home")], "2026-11-26T03:00:00.000Z");
  const nothing = failOnNewOutcome(firstRun, compareAndRecord(out, firstRun, COMPARE_WITH_HISTORY), false);
  expect(nothing).toEqual({
    fails: true,
    line: "--fail-on new: nothing to compare audits/shop.yaml (staging) with yet, so 1 failed finding(s) there fail the run, as with --fail-on any.",
  });
  const old = summaryOf([found("fail", "home")], "2026-11-27T03:00:00.000Z");
  expect(failOnNewOutcome(old, compareAndRecord(out, old, COMPARE_WITH_HISTORY), false)).toEqual({
    fails: false,
    line: "--fail-on new: no failure is new or worse than in the run compared with; the failures above are older, so the run passes (exit 0).",
  });
  const fresh = summaryOf([found("fail", "home"), found("fail", "cart")], "2026-11-28T03:00:00.000Z");
  expect(failOnNewOutcome(fresh, compareAndRecord(out, fresh, COMPARE_WITH_HISTORY), false)).toEqual({
    fails: true,
    line: "--fail-on new: 1 failed finding(s) new or worse than in the run compared with.",
  });
});

test("a run is the same spec × environment whatever path spelled the spec, in the history and in --compare DIR", () => {
  const out = scratchDir("changes");
  const spellings = ["./audits/shop.yaml", resolve("audits/shop.yaml"), "audits/shop.yaml"];
  const runs = spellings.map((spec, day) =>
    compareAndRecord(
      out,
      summaryOf([found(day % 2 ? "pass" : "fail", "home", spec)], `2026-11-2${day}T03:00:00.000Z`, spec),
      COMPARE_WITH_HISTORY,
    ),
  );
  expect(runs[0]!.changes).toBeNull();
  expect(runs[1]!.changes!.resolved.map((finding) => finding.spec)).toEqual([spellings[1]]);
  expect(runs[2]!.changes!.new.map((finding) => finding.spec)).toEqual([spellings[2]]);
  // The spec field stays as each run spelled it; the history records its identity beside it.
  const recorded = readFileSync(join(out, FINDINGS_HISTORY), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { spec: string; specId: string });
  expect(recorded.map((run) => [run.spec, run.specId])).toEqual(spellings.map((spec) => [spec, "audits/shop.yaml"]));

  // A line recorded before the identity was, and a summary.json written then, matched by their spec's path.
  const { specId: _id, ...older } = recorded[0]!;
  const oldOut = scratchDir("changes");
  mkdirSync(join(oldOut, "history"));
  writeFileSync(join(oldOut, FINDINGS_HISTORY), `${JSON.stringify(older)}\n`);
  const afterOldLine = compareAndRecord(
    oldOut,
    summaryOf([found("pass", "home")], "2026-11-23T03:00:00.000Z"),
    COMPARE_WITH_HISTORY,
  );
  expect(afterOldLine.changes!.resolved.map((finding) => finding.page)).toEqual(["home"]);
  const earlier = scratchDir("compare");
  writeFileSync(
    join(earlier, "summary.json"),
    JSON.stringify(
      summaryOf([found("fail", "home", "./audits/shop.yaml")], "2026-11-20T03:00:00.000Z", "./audits/shop.yaml"),
    ),
  );
  const compared = compareAndRecord(
    scratchDir("changes"),
    summaryOf(
      [found("pass", "home", resolve("audits/shop.yaml"))],
      "2026-11-24T03:00:00.000Z",
      resolve("audits/shop.yaml"),
    ),
    changeOptionsOf({ compare: earlier }),
  );
  expect(compared.changes!.comparedWith.startedAt).toBe("2026-11-20T03:00:00.000Z");
  expect(compared.changes!.resolved.map((finding) => finding.page)).toEqual(["home"]);
});
