import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { EXIT } from "../../src/runner/errors.js";
import { publishResults } from "../../src/cli/publish.js";
import type { AuditTarget } from "../../src/schedule/plan.js";
import { planTarget } from "../../src/schedule/target.js";
import type { TargetResult } from "../../src/results/run-result.js";
import { specWith, findingWith } from "../support/artifacts.js";
import { scratchDir } from "../support/scratch.js";

/** A spec × environment of one failed finding, as a run judged it. */
function failedRun(): { target: AuditTarget; result: TargetResult } {
  const target: AuditTarget = planTarget({
    specFile: "audits/shop.yaml",
    slug: "shop",
    spec: specWith(),
    specSha256: "0".repeat(64),
    environment: "staging",
    baseUrl: "http://127.0.0.1:47412",
    pages: [],
    viewports: ["desktop"],
  });
  const failed = findingWith({
    status: "fail",
    message: "Did not load.",
  });
  const result: TargetResult = {
    spec: "audits/shop.yaml",
    project: "Demo shop",
    environment: "staging",
    collect: "send",
    findings: [failed],
    pages: [],
    api: null,
  };
  return { target, result };
}

/** Publishes the failed run into `out` with `html` (--no-html: false); its exit code and what it printed. */
async function publishFailedRun(out: string, html: boolean): Promise<{ code: number; stdout: string; stderr: string }> {
  const { target, result } = failedRun();
  const printed = { stdout: "", stderr: "" };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = ((text: string) => ((printed.stdout += text), true)) as typeof process.stdout.write;
  process.stderr.write = ((text: string) => ((printed.stderr += text), true)) as typeof process.stderr.write;
  try {
    const code = await publishResults(
      { runId: "abc123", outDir: out, targets: [target], browserExecutable: null, browserEndpoint: null },
      [result],
      {
        startedAt: new Date(),
        strict: false,
        out,
        toGitHub: false,
        singleFile: false,
        open: false,
        html,
        secrets: [],
        changes: null,
      },
    );
    return { code, ...printed };
  } finally {
    Object.assign(process.stdout, { write: writes.stdout });
    Object.assign(process.stderr, { write: writes.stderr });
  }
}

test("a run whose Allure results cannot be written keeps its verdict and exit code, and says why", async () => {
  const out = scratchDir("publish");
  // A file where the results folder should be: the results cannot be written into it.
  writeFileSync(join(out, "allure-results"), "not a folder");

  const printed = await publishFailedRun(out, true);

  expect(printed.code).toBe(EXIT.failed);
  expect(existsSync(join(out, "summary.json"))).toBe(true);
  expect(printed.stderr).toMatch(
    new RegExp(`^setup-audit: could not write the Allure results in ${out}/allure-results: .+\\n$`),
  );
  expect(printed.stdout).toContain(`\nWrote ${join(out, "summary.json")} and ${join(out, "junit.xml")}.\n`);
  expect(printed.stdout).toContain("Next: fix the failed checks above, then run the audit again.\n");
});

test("--no-html writes summary.json, junit.xml and the Allure results, builds no HTML report, says how to build it, and keeps the exit code", async () => {
  const out = scratchDir("publish-no-html");

  const printed = await publishFailedRun(out, false);

  expect(printed.code, printed.stderr).toBe(EXIT.failed);
  for (const output of ["summary.json", "junit.xml", "allure-results"])
    expect(existsSync(join(out, output))).toBe(true);
  expect(readdirSync(join(out, "allure-results")).some((name) => name.endsWith("-result.json"))).toBe(true);
  expect(existsSync(join(out, "html"))).toBe(false);
  expect(existsSync(join(out, "history", "history.jsonl"))).toBe(false);
  expect(printed.stdout).toContain(
    `\nReport: not built (--no-html); \`setup-audit report --out ${out}\` builds it from the Allure results.\n`,
  );
  expect(printed.stdout).not.toContain("Shareable file");
});
