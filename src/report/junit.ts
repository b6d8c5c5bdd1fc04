import type { RunSummary } from "../results/summary.js";
import type { Finding } from "../findings/finding.js";
import { findingPlace } from "./console.js";

/**
 * JUnit XML for CI dashboards: one test suite per spec × environment, one test case per finding.
 * A failed finding is a failure, a skipped one is skipped, and a warning passes with the warning
 * in its output, as linters report warnings to JUnit.
 */
export function toJUnitXml(summary: RunSummary): string {
  const suites = summary.runs.map((run) => {
    const findings = summary.findings.filter((finding) => finding.spec === run.spec);
    const count = (status: Finding["status"]) => findings.filter((finding) => finding.status === status).length;
    const cases = findings.map((finding) => {
      const name = escape(`${finding.check} ${findingPlace(finding)}`.trim());
      const body =
        finding.status === "fail"
          ? `<failure message="${escape(finding.message)}" type="${finding.check}"/>`
          : finding.status === "skip"
            ? `<skipped message="${escape(finding.message)}"/>`
            : finding.status === "warn"
              ? `<system-out>${escape(`warning: ${finding.message}`)}</system-out>`
              : "";
      return `    <testcase classname="${escape(`${run.project}.${run.environment}`)}" name="${name}" time="0">${body}</testcase>`;
    });
    return [
      `  <testsuite name="${escape(`${run.project} (${run.environment}, ${run.spec})`)}" tests="${findings.length}" failures="${count("fail")}" errors="0" skipped="${count("skip")}" timestamp="${summary.startedAt}">`,
      ...cases,
      "  </testsuite>",
    ].join("\n");
  });
  const failures = summary.findings.filter((finding) => finding.status === "fail").length;
  const skipped = summary.findings.filter((finding) => finding.status === "skip").length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="setup-audit" tests="${summary.findings.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${(summary.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}

function escape(text: string): string {
  return (
    text
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      // Characters XML 1.0 cannot hold at all.
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "")
  );
}
