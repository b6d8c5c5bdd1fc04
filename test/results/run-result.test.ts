import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { reconcileDeliveries } from "../../src/artifacts/delivery.js";
import { writeShardResults } from "../../src/cli/shards.js";
import type { AuditTarget } from "../../src/schedule/plan.js";
import { callWith, collectOf, pageWith, specWith, findingWith, plannedTarget } from "../support/artifacts.js";
import { formatConsoleReport } from "../../src/report/console.js";
import { findingCommands, jobSummaryMarkdown } from "../../src/report/github.js";
import { toJUnitXml } from "../../src/report/junit.js";
import type { Finding } from "../../src/findings/finding.js";
import { buildSummary, reportTarget, type TargetResult } from "../../src/results/run-result.js";
import { runSecretLists } from "../../src/cli/run-secrets.js";
import { scratchDir } from "../support/scratch.js";

const leaky: Finding = findingWith({
  check: "page.errors",
  status: "warn",
  page: "signup",
  viewport: "mobile",
  message: 'TypeError for jane@example.org typed "s3cret-value"; identify("u_42") lost',
  evidence: { errors: [{ kind: "console", message: "token s3cret-value, czNjcmV0LXZhbHVl" }] },
});
const result: TargetResult = {
  spec: "audits/shop.yaml",
  project: "Demo shop",
  environment: "staging",
  collect: "send",
  findings: [leaky],
  pages: [],
  api: null,
};

test("summary.json's messages are scrubbed once, as the shareable report does, and every output built from it shows them so", () => {
  const summary = buildSummary([result], {
    startedAt: new Date("2026-11-23T10:00:00Z"),
    durationMs: 1000,
    strict: false,
    secrets: ["s3cret-value"],
  });
  const scrubbed = 'TypeError for «email» typed "«redacted»"; identify(«user id») lost';
  // The evidence keeps what it says, but no secret, plain or in base64.
  expect(summary.findings[0]).toEqual({
    ...leaky,
    message: scrubbed,
    evidence: { errors: [{ kind: "console", message: "token «redacted», «redacted»" }] },
  });
  expect(summary.runs[0]!.verdict).toBe("pass");
  expect(findingCommands(summary, (finding) => ({ file: finding.spec }))).toEqual([
    `::warning file=audits/shop.yaml,title=page.errors [signup · mobile]::${scrubbed}`,
  ]);
  for (const output of [
    JSON.stringify(summary),
    formatConsoleReport(summary),
    toJUnitXml(summary),
    jobSummaryMarkdown(summary),
  ]) {
    expect(output).not.toMatch(/jane@|s3cret|u_42/);
  }
});

test("a shard file keeps the findings' messages scrubbed as summary.json's, secrets included, and its pages hold no secret, nor a --base-url's credentials", () => {
  const spec = specWith({
    pages: [{ id: "signup", path: "/signup", steps: [{ fill: { selector: "#code", value: "s3cret-value" } }] }],
  });
  const target: AuditTarget = plannedTarget(spec, {
    baseUrl: "http://qa:url-Pass-9931@127.0.0.1:47412",
    pages: ["signup"],
    viewports: ["mobile"],
  });
  const out = scratchDir("shard");
  // A page's own errors may carry a secret too (a closed site's page that logs its token).
  const page = pageWith({
    page: "signup",
    viewport: "mobile",
    errors: [{ kind: "console", message: "token s3cret-value" }],
  });
  writeShardResults(
    out,
    "1/2",
    new Date(),
    [target],
    [{ ...result, pages: reconcileDeliveries([page], null) }],
    runSecretLists([target], process.env, null).secrets,
  );
  const text = readFileSync(join(out, "shard-results.json"), "utf8");
  expect(text).toContain('TypeError for «email» typed \\"«redacted»\\"; identify(«user id») lost');
  expect(text).not.toMatch(/jane@|s3cret|u_42|url-Pass-9931/);
  expect(text).toContain("token «redacted»");
});

test("a shard file masks a reload's calls and keeps none of its payloads, as the page's own, and each keeps the delivery judged before", () => {
  const spec = specWith({ pages: [{ id: "signup", path: "/signup" }] });
  const target: AuditTarget = plannedTarget(spec, { pages: ["signup"], viewports: ["mobile"] });
  const identify = callWith({
    kind: "identify",
    method: "identify",
    name: "u_42",
    properties: { email: "jane@example.org" },
    atMs: 2100,
  });
  const page = pageWith({
    page: "signup",
    viewport: "mobile",
    reload: { atMs: 2000, loadError: null, calls: [identify], collect: [collectOf([identify])] },
  });
  const out = scratchDir("shard");
  writeShardResults(
    out,
    "1/2",
    new Date(),
    [target],
    [{ ...result, findings: [], pages: reconcileDeliveries([page], null) }],
    runSecretLists([target], process.env, null).secrets,
  );
  const text = readFileSync(join(out, "shard-results.json"), "utf8");
  expect(text).not.toMatch(/jane@|u_42/);
  const shard = JSON.parse(text) as { results: TargetResult[] };
  expect(shard.results[0]!.pages[0]!.reload!.calls.map((call) => [call.kind, call.name, call.delivery])).toEqual([
    ["identify", null, "accepted"],
  ]);
});

test("the report previews each experiment with variations on an audited page once, in spec order, and no other", () => {
  const variations = [
    { name: "Long copy", css: "#cta { font-weight: 600; }" },
    { name: "Preview link", query: { exp_preview: "cta-long" } },
  ];
  const spec = specWith({
    experiments: [
      { name: "Signup CTA copy", page: "signup", selector: "#cta", variations },
      { name: "Signup headline", page: "signup", selector: "h1" },
      { name: "Home hero copy", page: "home", selector: "h1", variations },
      { name: "Home banner colour", page: "home", selector: ".banner", variations: [variations[0]] },
    ],
  });
  const targetOf = (pages: string[]): AuditTarget => plannedTarget(spec, { pages: pages, viewports: ["mobile"] });
  expect(reportTarget(targetOf(["home"])).previewed).toEqual([
    { name: "Home hero copy", page: "home" },
    { name: "Home banner colour", page: "home" },
  ]);
  expect(reportTarget(targetOf(["signup", "home"])).previewed.map((experiment) => experiment.name)).toEqual([
    "Signup CTA copy",
    "Home hero copy",
    "Home banner colour",
  ]);
});
