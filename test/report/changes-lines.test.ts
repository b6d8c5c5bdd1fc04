import { expect, test } from "@playwright/test";
import { formatConsoleReport, verdictLine } from "../../src/report/console.js";
import { jobSummaryMarkdown } from "../../src/report/github.js";
import { uncheckedItems } from "../../src/results/checklist.js";
import type { RunSummary } from "../../src/results/summary.js";
import type { Finding, Status } from "../../src/findings/finding.js";
import { findingWith } from "../support/artifacts.js";

const found = (check: Finding["check"], status: Status, message = "Judged."): Finding =>
  findingWith({
    check,
    status,
    message,
  });
const NO_API =
  "The spec has no api section, so the service API is not cross-checked. Add one (baseUrl, keyEnv) to check the workspace, project and goals.";

function summaryOf(findings: Finding[], changes: RunSummary["changes"] = null): RunSummary {
  return {
    version: 1,
    verdict: "pass",
    startedAt: "2026-11-28T03:00:00.000Z",
    durationMs: 2_000,
    calls: [],
    findings,
    changes,
    runs: [
      {
        spec: "audits/shop.yaml",
        project: "Shop",
        environment: "staging",
        verdict: "pass",
        collect: "send",
        checklist: {
          workspace: "skip",
          projectKeyOrDomain: "skip",
          goalEventMatch: "pass",
          mobileAndDesktop: "pass",
          noWarnings: "pass",
        },
      },
    ],
  };
}
const skippedApi = [
  found("api.auth", "skip", NO_API),
  found("api.project", "skip", NO_API),
  found("api.workspace", "skip", NO_API),
  found("viewports.coverage", "pass"),
];
const changes: RunSummary["changes"] = {
  comparedWith: { startedAt: "2026-11-27T03:00:00.000Z", verdict: "fail" },
  new: [],
  worse: [],
  resolved: [
    {
      check: "page.load",
      spec: "audits/shop.yaml",
      environment: "staging",
      page: "home",
      viewport: "mobile",
      goal: null,
      experiment: null,
      variation: null,
      status: "pass",
    },
  ],
  persisting: 0,
  persistingWarnings: 0,
};

test("a pass with checklist items skipped says in the verdict line how many and why, once per reason", () => {
  expect(uncheckedItems(summaryOf(skippedApi))).toEqual({
    unchecked: 2,
    of: 5,
    reasons: ["the spec has no api section, so the service API is not cross-checked"],
  });
  expect(verdictLine(summaryOf(skippedApi))).toBe(
    "PASS — 2 of 5 checklist items not checked: the spec has no api section, so the service API is not cross-checked — 1 passed, 0 warnings, 0 failed, 3 skipped (2.0 s)",
  );
});

test("an item no check fed is not checked either, and a full pass says nothing more", () => {
  expect(uncheckedItems(summaryOf([found("viewports.coverage", "pass")])).reasons).toEqual(["no check ran for it"]);
  const full = summaryOf([found("viewports.coverage", "pass")]);
  full.runs[0]!.checklist = {
    workspace: "pass",
    projectKeyOrDomain: "pass",
    goalEventMatch: "pass",
    mobileAndDesktop: "pass",
    noWarnings: "pass",
  };
  expect(verdictLine(full)).toBe("PASS — 1 passed, 0 warnings, 0 failed, 0 skipped (2.0 s)");
});

test("the console's verdict block starts with the changes line, and its verdict says what it did not check", () => {
  const text = formatConsoleReport(summaryOf(skippedApi, changes));
  const lines = text.split("\n");
  const changesAt = lines.indexOf(
    "Since 2026-11-27 03:00 UTC: 0 new, 0 worse, 1 resolved, 0 still failing, 0 still warning",
  );
  expect(changesAt).toBeGreaterThan(-1);
  expect(lines[changesAt + 1]).toBe("  Resolved: page.load [home · mobile]");
  expect(lines[changesAt + 3]).toMatch(/^Setup checklist — Shop/);
  expect(text).toContain("Verdict: PASS — 2 of 5 checklist items not checked:");
  expect(formatConsoleReport(summaryOf(skippedApi))).not.toContain("Since ");
});

test("the job summary starts with the changes line, then the verdict that says what it did not check", () => {
  const markdown = jobSummaryMarkdown(summaryOf(skippedApi, changes));
  expect(markdown.split("\n").slice(0, 7)).toEqual([
    "**Since 2026-11-27 03:00 UTC: 0 new, 0 worse, 1 resolved, 0 still failing, 0 still warning**",
    "",
    "- Resolved: `page.load` [home · mobile]",
    "",
    "## setup-audit: ✅ PASS",
    "",
    "PASS — 2 of 5 checklist items not checked: the spec has no api section, so the service API is not cross-checked — 1 passed, 0 warnings, 0 failed, 3 skipped (2.0 s).",
  ]);
  expect(jobSummaryMarkdown(summaryOf(skippedApi)).startsWith("## setup-audit: ✅ PASS")).toBe(true);
});

/** `count` changed findings of `check`, on pages p1, p2, … */
const changedOn = (count: number, status: Status, check: Finding["check"] = "events.expected") =>
  Array.from({ length: count }, (_, index) => ({
    check,
    spec: "audits/shop.yaml",
    environment: "staging",
    page: `p${index + 1}`,
    viewport: "desktop",
    goal: null,
    experiment: null,
    variation: null,
    status,
  }));
const manyChanges: NonNullable<RunSummary["changes"]> = {
  comparedWith: { startedAt: "2026-11-27T03:00:00.000Z", verdict: "fail" },
  new: [...changedOn(11, "fail"), ...changedOn(1, "warn", "page.errors")],
  worse: changedOn(1, "fail", "consent.before"),
  resolved: [{ ...changedOn(1, "pass", "sdk.key")[0]!, page: null, viewport: null }],
  persisting: 3,
  persistingWarnings: 1,
};
const NEW_NAMED = `New: ${Array.from({ length: 10 }, (_, index) => `events.expected [p${index + 1} · desktop] (fail)`).join(", ")}, and 2 more`;

test("the console names what is new, worse and resolved after the changes line, the first ten of each, and counts persisting warnings as warnings", () => {
  const lines = formatConsoleReport(summaryOf(skippedApi, manyChanges)).split("\n");
  const changesAt = lines.indexOf(
    "Since 2026-11-27 03:00 UTC: 12 new, 1 worse, 1 resolved, 2 still failing, 1 still warning",
  );
  expect(changesAt).toBeGreaterThan(-1);
  expect(lines.slice(changesAt + 1, changesAt + 4)).toEqual([
    `  ${NEW_NAMED}`,
    "  Worse: consent.before [p1 · desktop]",
    "  Resolved: sdk.key",
  ]);
});

test("the job summary names them too, under its changes line", () => {
  const lines = jobSummaryMarkdown(summaryOf(skippedApi, manyChanges)).split("\n");
  expect(lines.slice(0, 6)).toEqual([
    "**Since 2026-11-27 03:00 UTC: 12 new, 1 worse, 1 resolved, 2 still failing, 1 still warning**",
    "",
    `- ${NEW_NAMED.replace(/events\.expected/g, "`events.expected`")}`,
    "- Worse: `consent.before` [p1 · desktop]",
    "- Resolved: `sdk.key`",
    "",
  ]);
});

test("a summary written before persisting warnings were told apart counts them with the failures, and says so", () => {
  const { persistingWarnings: _warnings, ...older } = manyChanges;
  expect(formatConsoleReport(summaryOf(skippedApi, older))).toContain(
    "Since 2026-11-27 03:00 UTC: 12 new, 1 worse, 1 resolved, 3 still failing or warning\n",
  );
});
