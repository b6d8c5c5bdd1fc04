import { expect, test } from "@playwright/test";
import type { RunSummary } from "../../src/results/summary.js";
import type { Finding } from "../../src/findings/finding.js";
import { findingCommands, jobSummaryMarkdown, maskCommands, workflowCommand } from "../../src/report/github.js";
import { findingWith } from "../support/artifacts.js";

const found = (status: Finding["status"], where: Partial<Finding> = {}): Finding =>
  findingWith({
    check: "events.expected",
    status,
    ...where,
  });

const summaryOf = (findings: Finding[], verdict: RunSummary["verdict"] = "fail"): RunSummary => ({
  version: 1,
  verdict,
  startedAt: "2026-11-23T10:00:00.000Z",
  durationMs: 12_300,
  runs: [
    {
      spec: "audits/shop.yaml",
      project: "Demo shop",
      environment: "staging",
      verdict,
      collect: "send",
      checklist: {
        workspace: "pass",
        projectKeyOrDomain: "pass",
        goalEventMatch: "fail",
        mobileAndDesktop: "pass",
        noWarnings: "warn",
      },
    },
  ],
  findings,
  calls: [],
  changes: null,
});

test("a workflow command escapes its message and properties as GitHub requires", () => {
  expect(
    workflowCommand("error", "100% lost\nsee below", {
      file: "audits/a,b.yaml",
      line: 3,
      title: "page.load [home: x]",
    }),
  ).toBe("::error file=audits/a%2Cb.yaml,line=3,title=page.load [home%3A x]::100%25 lost%0Asee below");
});

test("failed findings become errors and warnings become warnings, on the spec at the place given; passes are not annotated", () => {
  const findings = [
    found("pass", { page: "home", viewport: "desktop", message: "fine" }),
    found("warn", { check: "events.delivered", page: "signup", viewport: "mobile", message: "a call was dropped" }),
    found("fail", { page: "signup", viewport: "desktop", message: "`signup_success` never fired" }),
  ];
  const commands = findingCommands(summaryOf(findings), (finding) =>
    finding.page === "signup" ? { file: finding.spec, line: 40, col: 5 } : { file: finding.spec },
  );
  expect(commands).toEqual([
    "::error file=audits/shop.yaml,line=40,col=5,title=events.expected [signup · desktop]::`signup_success` never fired",
    "::warning file=audits/shop.yaml,line=40,col=5,title=events.delivered [signup · mobile]::a call was dropped",
  ]);
});

test("the job summary gives the verdict, each run's checklist and every finding to act on", () => {
  const markdown = jobSummaryMarkdown(
    summaryOf([
      found("pass", { page: "home", message: "fine" }),
      found("fail", { page: "signup", viewport: "desktop", message: "`signup_success` never fired | see the spec" }),
      found("warn", { check: "report.warnings", experiment: "CTA", message: "bots" }),
    ]),
  );
  expect(markdown).toContain("## setup-audit: ❌ FAIL");
  expect(markdown).toContain("1 passed, 1 warnings, 1 failed, 0 skipped (12.3 s).");
  expect(markdown).toContain("### Demo shop (staging, `audits/shop.yaml`): fail");
  expect(markdown).toContain("| Goals and events match | ❌ fail |");
  expect(markdown).toContain("| No bot/SRM or dropped-event warning | ⚠️ warn |");
  // Failures first, then warnings; a pipe in a message does not break the table.
  expect(markdown).toMatch(
    /\| ❌ fail \| `events.expected` \| audits\/shop.yaml · signup · desktop \| `signup_success` never fired \\\| see the spec \|\n\| ⚠️ warn \| `report.warnings` \| audits\/shop.yaml · CTA \| bots \|/,
  );
  expect(markdown).not.toContain("fine");
});

test("a passing run's summary has no findings table", () => {
  const markdown = jobSummaryMarkdown(summaryOf([found("pass", { message: "fine" })], "pass"));
  expect(markdown).toContain("## setup-audit: ✅ PASS");
  expect(markdown).not.toContain("Findings to act on");
});

test("each secret is masked as it is and in base64, a line at a time, each form once", () => {
  expect(maskCommands(["s3cret-token", "qa-user:hunter2-pass", "s3cret-token"])).toEqual([
    "::add-mask::s3cret-token",
    `::add-mask::${Buffer.from("s3cret-token").toString("base64")}`,
    "::add-mask::qa-user:hunter2-pass",
    `::add-mask::${Buffer.from("qa-user:hunter2-pass").toString("base64")}`,
  ]);
  const pem = "-----BEGIN KEY-----\nAbCdEf123\n-----END KEY-----";
  expect(maskCommands([pem]).slice(0, 3)).toEqual([
    "::add-mask::-----BEGIN KEY-----",
    "::add-mask::AbCdEf123",
    "::add-mask::-----END KEY-----",
  ]);
  expect(maskCommands([])).toEqual([]);
});
