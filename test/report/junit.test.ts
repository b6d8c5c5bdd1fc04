import { expect, test } from "@playwright/test";
import { toJUnitXml } from "../../src/report/junit.js";
import type { RunSummary } from "../../src/results/summary.js";
import type { Finding } from "../../src/findings/finding.js";
import { findingWith } from "../support/artifacts.js";

const found = (
  check: Finding["check"],
  status: Finding["status"],
  message: string,
  page: string | null = "signup",
): Finding =>
  findingWith({
    check,
    status,
    page,
    viewport: page ? "mobile" : null,
    message,
  });

const summary: RunSummary = {
  version: 1,
  verdict: "fail",
  startedAt: "2026-11-22T20:00:00.000Z",
  durationMs: 12_345,
  runs: [
    {
      spec: "audits/shop.yaml",
      project: "Shop",
      environment: "staging",
      verdict: "fail",
      collect: "send",
      checklist: {
        workspace: "pass",
        projectKeyOrDomain: "pass",
        goalEventMatch: "fail",
        mobileAndDesktop: "pass",
        noWarnings: "pass",
      },
    },
  ],
  findings: [
    found("sdk.order", "pass", "All calls ran after the SDK loaded."),
    found("goals.match", "fail", 'Goal "Signup" expects `signup_success` <not> "Signup Success" & more', null),
    found("page.errors", "warn", "1 error(s)"),
    found("events.expected", "skip", "Nothing expected."),
  ],
  calls: [],
  changes: null,
};

test("one suite per run, one case per finding, with failures and skips counted", () => {
  const xml = toJUnitXml(summary);
  expect(
    xml.startsWith(
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="setup-audit" tests="4" failures="1" errors="0" skipped="1" time="12.345">',
    ),
  ).toBe(true);
  expect(xml).toContain(
    '<testsuite name="Shop (staging, audits/shop.yaml)" tests="4" failures="1" errors="0" skipped="1"',
  );
  expect(xml.match(/<testcase /g)).toHaveLength(4);
  expect(xml).toContain('<testcase classname="Shop.staging" name="sdk.order signup · mobile" time="0"></testcase>');
  expect(xml).toContain('<skipped message="Nothing expected."/>');
  expect(xml).toContain("<system-out>warning: 1 error(s)</system-out>");
});

test("messages are escaped", () => {
  expect(toJUnitXml(summary)).toContain(
    '<failure message="Goal &quot;Signup&quot; expects `signup_success` &lt;not&gt; &quot;Signup Success&quot; &amp; more" type="goals.match"/>',
  );
});

test("a variation's finding names its experiment and variation, so the cases of one page × viewport stay apart", () => {
  const judged = (variation: string): Finding => ({
    ...found("experiment.variation", "pass", "Previews well."),
    experiment: "CTA wording",
    variation,
  });
  const xml = toJUnitXml({ ...summary, findings: [judged("Long copy"), judged("Preview link")] });
  expect(xml).toContain('name="experiment.variation signup · CTA wording · Long copy · mobile"');
  expect(xml).toContain('name="experiment.variation signup · CTA wording · Preview link · mobile"');
});
