import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import type { BaselineFile } from "../../src/results/baseline-file.js";
import { findingOf, readSummary, runCli } from "./cli.js";

/** The demo spec copied into the test's output, so the baseline written beside it stays there too. */
function copiedDemoSpec(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const spec = join(dir, "demo-shop.yaml");
  copyFileSync("audits/demo-shop.yaml", spec);
  return spec;
}

test("a baseline of a good run passes the next run, and an event that stopped firing fails it", async ({}, testInfo) => {
  const spec = copiedDemoSpec(testInfo.outputPath("specs"));
  const good = testInfo.outputPath("good");
  const first = await runCli(["run", spec, "--page", "signup", "--save-artifacts", "--out", good]);
  expect(first.code, first.stdout + first.stderr).toBe(0);
  expect(readSummary(good).findings.filter((finding) => finding.check === "baseline.calls")).toEqual([]);

  const made = await runCli(["baseline", "--out", good]);
  expect(made.code, made.stdout + made.stderr).toBe(0);
  const besideSpec = testInfo.outputPath("specs", "demo-shop.staging.baseline.json");
  expect(made.stdout).toMatch(
    /: 2 page × viewport\(s\), events: identify, signup_success → \S*specs\/demo-shop\.staging\.baseline\.json\n/,
  );
  const baseline = JSON.parse(readFileSync(besideSpec, "utf8")) as BaselineFile;
  expect(baseline.baselines).toHaveLength(1);
  expect(baseline.baselines[0]).toMatchObject({ environment: "staging", project: "Demo shop" });
  expect(baseline.baselines[0]!.pages).toEqual({
    signup: {
      desktop: { identify: true, track: ["signup_success"] },
      mobile: { identify: true, track: ["signup_success"] },
    },
  });
  const oneFile = testInfo.outputPath("all.baseline.json");
  expect((await runCli(["baseline", "--out", good, "--file", oneFile])).code).toBe(0);
  expect(readFileSync(oneFile, "utf8")).toBe(readFileSync(besideSpec, "utf8"));

  // The next runs judge what the good run gathered (a baseline compares calls, not pages).
  // `--baseline` alone, before the spec: the file beside the spec.
  const same = testInfo.outputPath("same");
  const second = await runCli(["run", "--baseline", spec, "--from-artifacts", good, "--out", same]);
  expect(second.code, second.stdout + second.stderr).toBe(0);
  const compared = readSummary(same).findings.filter((finding) => finding.check === "baseline.calls");
  expect(compared.map((finding) => [finding.page, finding.viewport, finding.status])).toEqual([
    ["signup", "desktop", "pass"],
    ["signup", "mobile", "pass"],
  ]);

  baseline.baselines[0]!.pages.signup!.mobile!.track.push("checkout_done");
  writeFileSync(oneFile, JSON.stringify(baseline, null, 2));
  const regressed = testInfo.outputPath("regressed");
  const third = await runCli(["run", spec, "--from-artifacts", good, "--baseline", oneFile, "--out", regressed]);
  expect(third.code, third.stdout + third.stderr).toBe(1);
  const lost = "`checkout_done` fired on signup · mobile in the baseline but not in this run — a regression;";
  expect(third.stdout).toContain(`✗ FAIL baseline.calls [signup · mobile]: ${lost}`);
  const summary = readSummary(regressed);
  expect(findingOf(summary, "baseline.calls", { page: "signup", viewport: "mobile" })).toMatchObject({
    status: "fail",
    message: expect.stringContaining(lost),
  });
  expect(findingOf(summary, "baseline.calls", { page: "signup", viewport: "desktop" }).status).toBe("pass");

  // That run failed: no baseline is made of it, unless forced.
  const refused = await runCli(["baseline", "--out", regressed, "--file", testInfo.outputPath("refused.json")]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain(
    `setup-audit: ${join(regressed, "summary.json")} is the summary of a failed run; a baseline of a broken run would hide its regressions.`,
  );
  expect(refused.stderr).toContain("add --force");
  const forced = await runCli([
    "baseline",
    "--out",
    regressed,
    "--file",
    testInfo.outputPath("forced.json"),
    "--force",
  ]);
  expect(forced.code, forced.stderr).toBe(0);
  expect(forced.stdout).toContain("Storing the baseline of a failed run (--force)");
});

test("a missing or invalid baseline stops the run before any browser, naming the file and what to do", async ({}, testInfo) => {
  const spec = copiedDemoSpec(testInfo.outputPath("specs"));
  const missing = await runCli(["run", spec, "--baseline", "--out", testInfo.outputPath("out")]);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toMatch(/^setup-audit: No baseline at \S*specs\/demo-shop\.staging\.baseline\.json\.\n/);
  expect(missing.stderr).toContain("then `setup-audit baseline`");
  expect(missing.stdout).not.toContain("Auditing");

  const invalid = testInfo.outputPath("invalid.json");
  writeFileSync(
    invalid,
    JSON.stringify({
      version: 1,
      baselines: [
        {
          spec,
          environment: "staging",
          project: "Demo shop",
          pages: { signup: { mobile: { track: "signup_success", identify: true } } },
        },
      ],
    }),
  );
  const broken = await runCli(["run", spec, "--baseline", invalid, "--out", testInfo.outputPath("out")]);
  expect(broken.code).toBe(2);
  expect(broken.stderr).toContain(
    `setup-audit: ${invalid} is not a valid baseline: baselines[0].pages.signup.mobile.track must be a list, not text ("signup_success").`,
  );

  const otherEnv = testInfo.outputPath("other-env.json");
  writeFileSync(
    otherEnv,
    JSON.stringify({ version: 1, baselines: [{ spec, environment: "production", project: "Demo shop", pages: {} }] }),
  );
  const mismatched = await runCli(["run", spec, "--baseline", otherEnv, "--out", testInfo.outputPath("out")]);
  expect(mismatched.code).toBe(2);
  expect(mismatched.stderr).toMatch(
    /holds no baseline for \S+demo-shop\.yaml \(staging\), only for \S+demo-shop\.yaml \(production\)\./,
  );
});
