import { expect, test } from "@playwright/test";
import { deservesMessage, webhookMessage } from "../../src/report/webhook.js";
import type { ChangedFinding, Changes, RunSummary } from "../../src/results/summary.js";
import type { Finding, Status } from "../../src/findings/finding.js";
import { findingWith } from "../support/artifacts.js";

const found = (status: Status, page: string, message = `${page} is broken`): Finding =>
  findingWith({
    check: "events.expected",
    status,
    page,
    viewport: "mobile",
    message,
  });
const changed = (finding: Finding): ChangedFinding => {
  const { message: _message, evidence: _evidence, ...key } = finding;
  return { ...key, environment: "staging" };
};
const checklist = {
  workspace: "pass",
  projectKeyOrDomain: "pass",
  goalEventMatch: "fail",
  mobileAndDesktop: "pass",
  noWarnings: "pass",
} as const;

function summaryOf(findings: Finding[], changes: Changes | null): RunSummary {
  const verdict = findings.some((finding) => finding.status === "fail") ? "fail" : "pass";
  return {
    version: 1,
    verdict,
    startedAt: "2026-11-28T03:00:00.000Z",
    durationMs: 4_000,
    runs: [{ spec: "audits/shop.yaml", project: "Shop", environment: "staging", verdict, collect: "send", checklist }],
    findings,
    calls: [],
    changes,
  };
}
const changesOf = (parts: Partial<Changes>): Changes => ({
  comparedWith: { startedAt: "2026-11-27T03:00:00.000Z", verdict: "fail" },
  new: [],
  worse: [],
  resolved: [],
  persisting: 0,
  persistingWarnings: 0,
  ...parts,
});

test("a message is due when something changed, or, with nothing to compare with, when the run failed", () => {
  const old = found("fail", "old");
  expect(deservesMessage(summaryOf([old], changesOf({ persisting: 1 })))).toBe(false);
  expect(deservesMessage(summaryOf([old], changesOf({ new: [changed(old)] })))).toBe(true);
  expect(deservesMessage(summaryOf([old], changesOf({ worse: [changed(old)] })))).toBe(true);
  expect(
    deservesMessage(summaryOf([found("pass", "old")], changesOf({ resolved: [changed(found("pass", "old"))] }))),
  ).toBe(true);
  expect(deservesMessage(summaryOf([old], null))).toBe(true);
  expect(deservesMessage(summaryOf([found("pass", "old")], null))).toBe(false);
});

test("the message starts with the changes line and what changed, then the verdict, the new findings first, five at most, and the report's link", () => {
  const findings = [
    ...["a", "b", "c", "d", "e"].map((page) => found("fail", page)),
    found("warn", "w"),
    found("fail", "fresh"),
  ];
  const message = webhookMessage(
    summaryOf(findings, changesOf({ new: [changed(findings[6]!)], persisting: 6, persistingWarnings: 1 })),
    {
      reportUrl: "https://github.com/acme/shop/actions/runs/42",
      secrets: [],
    },
  );
  const lines = message.text.split("\n");
  expect(lines[0]).toBe("Since 2026-11-27 03:00 UTC: 1 new, 0 worse, 0 resolved, 5 still failing, 1 still warning");
  expect(lines[1]).toBe("New: `events.expected` [fresh · mobile] (fail)");
  expect(lines[2]).toMatch(/^setup-audit FAIL — 0 passed, 1 warnings, 6 failed, 0 skipped/);
  expect(lines.slice(3, 5)).toEqual([
    "• FAIL `events.expected` [fresh · mobile]: fresh is broken",
    "• FAIL `events.expected` [a · mobile]: a is broken",
  ]);
  expect(lines[8]).toBe("…and 2 more in the report.");
  expect(lines[9]).toBe("https://github.com/acme/shop/actions/runs/42");
  expect(message.blocks.map((block) => block.type)).toEqual(["section", "section", "context"]);
  expect(message.blocks[0]!.text!.text.split("\n").slice(0, 2)).toEqual(lines.slice(0, 2));
  expect(message.blocks[2]!.elements![0]!.text).toBe("<https://github.com/acme/shop/actions/runs/42|The report>");
});

test("without a link from CI the message has no link, and mrkdwn's control characters are escaped in the text and the blocks", () => {
  const finding = found("fail", "cart", "Expected <button> & got nothing");
  const message = webhookMessage(summaryOf([finding], null), { reportUrl: null, secrets: [] });
  expect(message.blocks.map((block) => block.type)).toEqual(["section", "section"]);
  expect(message.blocks[1]!.text!.text).toContain("Expected &lt;\u2060button&gt; &amp; got nothing");
  expect(message.text).toContain("Expected &lt;\u2060button&gt; &amp; got nothing");
  expect(message.text.split("\n")[0]).toMatch(/^setup-audit FAIL/);
});

test("every line is scrubbed of the run's secrets and of e-mail addresses", () => {
  const secret = "hook-token-123456";
  const finding = found("fail", "login", `The page sent ${secret} and qa@example.test to a third party`);
  const message = webhookMessage(summaryOf([finding], null), {
    reportUrl: `https://ci.example.test/runs/1?t=${secret}`,
    secrets: [secret],
  });
  const all = JSON.stringify(message);
  expect(all).not.toContain(secret);
  expect(all).not.toContain("qa@example.test");
  expect(all).toContain("«redacted»");
});
