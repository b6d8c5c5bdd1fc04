import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { chromium } from "playwright";
import { LAUNCH_ARGS } from "../../src/browser/launch.js";
import { SHARD_FILE_VERSION } from "../../src/cli/shards.js";
import type { RunSummary } from "../../src/results/summary.js";
import { testBrowserPath } from "../support/browser.js";
import { e2eSpec, readEnvironmentInfo, readSummary, runCli } from "./cli.js";

const sha256Of = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** What a finding says, without the wording that carries timings. */
const verdicts = (summary: RunSummary) =>
  summary.findings
    .map((finding) =>
      [
        finding.spec,
        finding.check,
        finding.status,
        finding.page,
        finding.viewport,
        finding.goal,
        finding.experiment,
        finding.variation,
      ].join(" | "),
    )
    .sort();

/** Where each call was made and what became of it, without its timing. */
const deliveries = (summary: RunSummary) =>
  summary.calls
    .map((call) =>
      [call.spec, call.page, call.viewport, call.variation, call.kind, call.name, call.delivery].join(" | "),
    )
    .sort();

test("two shards merged give the same findings and exit code as one run", async ({}, testInfo) => {
  // Three audits of two specs, one after another: on a machine that runs other tests beside it they outlast the e2e limit.
  test.slow();
  // The pages that bring each kind of finding a merge joins, of both shops: a goal's event and an
  // identify (the demo's signup), a near miss, a rejected call, a page audited on one viewport, an
  // experiment's variations with their pictures (every --page names a page of one spec or the other).
  const specs = ["audits/demo-shop.yaml", e2eSpec("broken-shop.yaml")];
  const pages = ["signup", "near-miss", "rejected-call", "desktop-only", "cta-variations"];
  const run = [...specs, ...pages.flatMap((page) => ["--page", page])];
  const dir = (name: string) => join(testInfo.project.outputDir, "scale-run", name);
  // The whole run and both shards side by side, as CI's parallel jobs run them.
  const [whole, first, second] = await Promise.all([
    runCli(["run", ...run, "--out", dir("whole")]),
    runCli(["run", ...run, "--shard", "1/2", "--out", dir("shard-1")]),
    runCli(["run", ...run, "--shard", "2/2", "--out", dir("shard-2")]),
  ]);
  expect([first.code, second.code]).toEqual([1, 1]);
  const merged = await runCli(["merge", dir("shard-1"), dir("shard-2"), "--out", dir("merged")]);
  expect(merged.code, merged.stdout + merged.stderr).toBe(whole.code);
  expect(merged.stdout).toContain("Merged 2 shard(s): 1/2, 2/2.");

  const wholeSummary = readSummary(dir("whole"));
  const mergedSummary = readSummary(dir("merged"));
  expect(verdicts(mergedSummary)).toEqual(verdicts(wholeSummary));
  expect(mergedSummary.runs.map((run) => run.checklist)).toEqual(wholeSummary.runs.map((run) => run.checklist));
  // Each shard's calls keep the deliveries that shard judged against the events the service listed to it.
  expect(deliveries(mergedSummary)).toEqual(deliveries(wholeSummary));
  // The shops identify visitors as u_<hex>: no shard file keeps such a user id (calls, payloads, listed events).
  expect(wholeSummary.calls.filter((call) => call.kind === "identify").length).toBeGreaterThan(0);
  for (const shard of ["shard-1", "shard-2"])
    expect(readFileSync(join(dir(shard), "shard-results.json"), "utf8")).not.toMatch(/"u_[0-9a-f]{8,}"/);
  // Each shard audited only part of the pages: its own goal and viewport findings were partial.
  expect(readSummary(dir("shard-1")).findings.length).toBeLessThan(wholeSummary.findings.length);
  expect(readFileSync(join(dir("merged"), "junit.xml"), "utf8")).toContain('<testsuite name="Broken shop (staging');
  expect(existsSync(join(dir("merged"), "screenshots/broken-shop/staging/near-miss.mobile.png"))).toBe(true);
  // The report names what the shards ran: the spec files' digests as they read them and their browser.
  const info = readEnvironmentInfo(dir("merged"));
  expect(info["demo-shop: Spec sha256"]).toBe(sha256Of("audits/demo-shop.yaml"));
  expect(info["broken-shop: Spec sha256"]).toBe(sha256Of(e2eSpec("broken-shop.yaml")));
  expect(info.Browser).toBe(readEnvironmentInfo(dir("whole")).Browser);
  expect(info.Browser).toMatch(/^Chromium \d+\.\d+/);
});

test("merge refuses a shard file another version of setup-audit wrote", async ({}, testInfo) => {
  const out = testInfo.outputPath("old-shard");
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, "shard-results.json"),
    JSON.stringify({
      version: SHARD_FILE_VERSION - 1,
      shard: "1/1",
      startedAt: new Date().toISOString(),
      targets: [],
      results: [],
    }),
  );
  const run = await runCli(["merge", out, "--out", testInfo.outputPath("merged")]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("shard-results.json was written by another version of setup-audit");
});

test("merge refuses shards whose spec file has changed since they ran", async ({}, testInfo) => {
  const shardDirs = ["1/2", "2/2"].map((shard, index) => {
    const out = testInfo.outputPath(`shard-${index + 1}`);
    mkdirSync(out, { recursive: true });
    const target = {
      specFile: "audits/demo-shop.yaml",
      slug: "demo-shop",
      specSha256: "0".repeat(64),
      environment: "staging",
      baseUrl: "http://127.0.0.1:47412",
      pages: ["home"],
      viewports: ["desktop"],
    };
    writeFileSync(
      join(out, "shard-results.json"),
      JSON.stringify({
        version: SHARD_FILE_VERSION,
        shard,
        startedAt: new Date().toISOString(),
        targets: [target],
        results: [],
      }),
    );
    return out;
  });
  const run = await runCli(["merge", ...shardDirs, "--out", testInfo.outputPath("merged")]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("audits/demo-shop.yaml changed since the shards audited it");
});

test("merge refuses folders that hold no shard results", async ({}, testInfo) => {
  const run = await runCli(["merge", testInfo.outputDir, "--out", testInfo.outputPath("merged")]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("holds no shard-results.json");
});

test("an audit runs its browsers on a Playwright browser server", async ({}, testInfo) => {
  const server = await chromium.launchServer({
    executablePath: testBrowserPath(),
    args: LAUNCH_ARGS,
    host: "127.0.0.1",
  });
  try {
    const out = join(testInfo.project.outputDir, "remote-run");
    const run = await runCli(
      ["run", "audits/demo-shop.yaml", "--page", "signup", "--browser-endpoint", server.wsEndpoint(), "--out", out],
      {
        SETUP_AUDIT_BROWSER: "/nonexistent/no-local-browser-needed",
      },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const summary = readSummary(out);
    expect(
      summary.calls
        .filter((call) => call.name === "signup_success")
        .map((call) => call.viewport)
        .sort(),
    ).toEqual(["desktop", "mobile"]);
    // The browser the report names is the server's, which no local executable could have told.
    const remote = await chromium.connect(server.wsEndpoint());
    const version = remote.version();
    await remote.close();
    expect(readEnvironmentInfo(out).Browser).toBe(`Chromium ${version}`);
  } finally {
    await server.close();
  }
});

test("--browser-endpoint must be a ws:// URL", async () => {
  const run = await runCli(["run", "audits/demo-shop.yaml", "--browser-endpoint", "http://127.0.0.1:9"]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("--browser-endpoint must be a ws:// or wss:// URL");
});
