import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import type { RunSummary } from "../../src/results/summary.js";
import { textsUnder } from "../support/output-texts.js";
import { e2eSpec, readSummary, runCli } from "./cli.js";

/** The service API through the CLI, against the shared mock service: passing, failing, down, and never leaking the key. */

/** The one finding of `check` for a spec-wide check of `spec`. */
function specFinding(summary: RunSummary, spec: string, check: string) {
  const found = summary.findings.filter((finding) => finding.spec === spec && finding.check === check);
  expect(found, `${check} findings of ${spec}`).toHaveLength(1);
  return found[0]!;
}

const API_CHECK_IDS = ["api.auth", "api.project", "api.workspace", "api.goals"];

test("the demo shop passes every API check, with one request per endpoint and delivery confirmed by the service", async ({}, testInfo) => {
  const out = testInfo.outputPath("out");
  const run = await runCli(["run", "audits/demo-shop.yaml", "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toMatch(/^API demo-shop › staging {2}projects 200 · goals 200 {2}2 request\(s\)/m);
  expect(run.stdout).toMatch(/^API demo-shop › staging {2}recent events 200 {2}1 request\(s\)/m);
  expect(run.stdout.indexOf("API demo-shop › staging  projects")).toBeLessThan(run.stdout.indexOf("Auditing "));
  expect(run.stdout).toMatch(/✓ Correct workspace\s+pass/);
  expect(run.stdout).toMatch(/✓ Correct project key or domain\s+pass/);

  const summary = readSummary(out);
  const spec = "audits/demo-shop.yaml";
  expect(API_CHECK_IDS.map((check) => specFinding(summary, spec, check).status)).toEqual([
    "pass",
    "pass",
    "pass",
    "pass",
  ]);
  expect(specFinding(summary, spec, "api.goals").message).toBe(
    'Every goal exists in the service with the spec\'s event as its condition ("Signup completed" = `signup_success`).',
  );
  const delivered = summary.findings.filter(
    (finding) => finding.check === "events.delivered" && finding.page === "signup",
  );
  expect(delivered.map((finding) => [finding.viewport, finding.status, finding.message])).toEqual(
    expect.arrayContaining([
      ["desktop", "pass", "All 2 call(s) were delivered and accepted and listed by the service as ingested."],
      ["mobile", "pass", "All 2 call(s) were delivered and accepted and listed by the service as ingested."],
    ]),
  );
});

test("a wrong workspace, a goal condition that differs and a rejected key each fail with what to do", async ({}, testInfo) => {
  const out = testInfo.outputPath("out");
  const mismatch = e2eSpec("api-mismatch.yaml");
  const rejected = e2eSpec("api-rejected.yaml");
  const run = await runCli(["run", mismatch, rejected, "--out", out], { AUDIT_REJECTED_KEY: "not-the-key" });
  expect(run.code, run.stdout + run.stderr).toBe(1);
  const summary = readSummary(out);

  expect(specFinding(summary, mismatch, "api.workspace")).toMatchObject({
    status: "fail",
    message:
      'Project "Demo shop (staging)" belongs to workspace "Acme Marketing", id ws_1 in the service, not "Acme Sales". Fix the spec\'s workspace, or move the project to the right workspace.',
  });
  expect(specFinding(summary, mismatch, "api.goals")).toMatchObject({
    status: "fail",
    message:
      'goal "Signup completed" has the condition `signup_success` in the service, but the spec\'s event is `signup-success` (a near miss: did you mean `signup-success`?). ' +
      "Make each goal's condition in the service equal the event the page sends, exactly, or fix the spec's goals.",
  });
  expect(specFinding(summary, mismatch, "api.project").status).toBe("pass");
  expect(summary.runs.find((specRun) => specRun.spec === mismatch)?.checklist).toMatchObject({
    workspace: "fail",
    goalEventMatch: "fail",
  });

  expect(specFinding(summary, rejected, "api.auth")).toMatchObject({
    status: "fail",
    message:
      'The service rejected the key in AUDIT_REJECTED_KEY (GET http://127.0.0.1:47411/v1/projects: HTTP 401 with body {"error":"invalid api key"}). Set AUDIT_REJECTED_KEY to a valid API key of workspace "Acme Marketing".',
  });
  expect(
    ["api.project", "api.workspace", "api.goals"].map((check) => specFinding(summary, rejected, check).status),
  ).toEqual(["skip", "skip", "skip"]);
  expect(run.stdout).toContain("✗ FAIL api.auth: The service rejected the key in AUDIT_REJECTED_KEY");
});

test("with the API down, the pages are still audited and the run exits 1, not 3", async ({}, testInfo) => {
  const out = testInfo.outputPath("out");
  const spec = e2eSpec("api-down.yaml");
  const run = await runCli(["run", spec, "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stdout).toMatch(/^API api-down › staging {2}projects failed \(network\) {2}4 request\(s\)/m);
  const summary = readSummary(out);
  expect(specFinding(summary, spec, "api.project")).toMatchObject({
    status: "fail",
    message: expect.stringMatching(
      /^Could not read the project list \(GET http:\/\/127\.0\.0\.1:9\/v1\/projects\): .*ECONNREFUSED.*, after 4 attempts in [\d.]+ m?s\. Check api\.baseUrl and that the service is up, then run the audit again\.$/,
    ),
  });
  expect(["api.auth", "api.workspace", "api.goals"].map((check) => specFinding(summary, spec, check).status)).toEqual([
    "skip",
    "skip",
    "skip",
  ]);
  expect(summary.findings.find((finding) => finding.check === "page.load" && finding.page === "home")?.status).toBe(
    "pass",
  );
});

test("the API key appears in no file the run wrote, the single-file report's embedded files included, and in none of its output", async ({}, testInfo) => {
  const key = "sk_audit_canary_7F3C9E1B5A";
  const out = testInfo.outputPath("out");
  const accepted = e2eSpec("api-canary-key.yaml");
  const echoed = e2eSpec("api-canary-echo.yaml");
  const run = await runCli(["run", accepted, echoed, "--out", out, "--single-file"], { AUDIT_CANARY_KEY: key });
  expect(run.code, run.stdout + run.stderr).toBe(1);
  const summary = readSummary(out);
  // The key was used: accepted by one spec's API, refused (and echoed back) by the other's.
  expect(API_CHECK_IDS.map((check) => specFinding(summary, accepted, check).status)).toEqual([
    "pass",
    "pass",
    "pass",
    "pass",
  ]);
  expect(specFinding(summary, echoed, "api.auth").message).toContain(
    '{"error":"invalid api key","received":"[redacted]"}',
  );

  const files = readdirSync(out, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  expect(files.length).toBeGreaterThan(3);
  expect(files.some((file) => file.endsWith("audit-report.html"))).toBe(true);
  const leaks = [key, encodeURIComponent(key), Buffer.from(key).toString("base64")].flatMap((form) => [
    ...files.filter((file) => readFileSync(file).includes(form)),
    ...textsUnder(out)
      .filter(({ text }) => text.includes(form))
      .map(({ file }) => file),
    ...(run.stdout.includes(form) ? ["stdout"] : []),
    ...(run.stderr.includes(form) ? ["stderr"] : []),
  ]);
  expect(leaks).toEqual([]);
});
