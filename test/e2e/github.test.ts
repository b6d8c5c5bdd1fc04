import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { CLOSED_SITE_SECRETS } from "../../fixtures/sites/closed-sites.js";
import { GOLDEN_DIR, GOLDEN_SPEC } from "../support/golden.js";
import { e2eSpec, runCli } from "./cli.js";

const brokenShop = e2eSpec("broken-shop.yaml");
// A call made before the SDK exists: sdk.order fails there on both viewports.
const onePage = ["--page", "early-call"];
/** The broken shop's golden artifacts judged again, no page opened: what a run publishes is the same either way. */
const replayedPage = ["run", GOLDEN_SPEC, "--from-artifacts", GOLDEN_DIR, ...onePage];

test("in GitHub Actions a run writes the job summary and annotates each failed check on its spec", async ({}, testInfo) => {
  const summaryFile = testInfo.outputPath("step-summary.md");
  const run = await runCli([...replayedPage, "--out", testInfo.outputPath("out")], {
    GITHUB_ACTIONS: "true",
    GITHUB_STEP_SUMMARY: summaryFile,
  });
  expect(run.code, run.stderr).toBe(1);

  const markdown = readFileSync(summaryFile, "utf8");
  expect(markdown).toContain("## setup-audit: ❌ FAIL");
  expect(markdown).toMatch(/### Broken shop \(staging, `test\/e2e\/specs\/broken-shop\.yaml`\): fail/);
  expect(markdown).toContain("| Goals and events match |");
  expect(markdown).toMatch(
    /\| ❌ fail \| `sdk\.order` \| test\/e2e\/specs\/broken-shop\.yaml · early-call · desktop \| .+ \|/,
  );

  // Annotated at the page's entry in the spec: the line of `- id: early-call`.
  const line =
    readFileSync(brokenShop, "utf8")
      .split("\n")
      .findIndex((text) => text.includes("id: early-call")) + 1;
  expect(run.stdout).toMatch(
    new RegExp(
      `^::error file=test/e2e/specs/broken-shop\\.yaml,line=${line},col=\\d+,title=sdk\\.order \\[early-call · desktop\\]::.+$`,
      "m",
    ),
  );
  expect(run.stdout).toMatch(
    new RegExp(
      `^::error file=test/e2e/specs/broken-shop\\.yaml,line=${line},col=\\d+,title=sdk\\.order \\[early-call · mobile\\]::.+$`,
      "m",
    ),
  );
});

test("a job summary that cannot be written is said on stderr and leaves the verdict and the report as they are", async ({}, testInfo) => {
  const folder = testInfo.outputPath("a-folder");
  mkdirSync(folder, { recursive: true });
  const run = await runCli(
    [...replayedPage, "--out", testInfo.outputPath("out")],
    { GITHUB_STEP_SUMMARY: folder },
    { htmlReport: true },
  );
  expect(run.code, run.stderr).toBe(1);
  expect(run.stderr).toMatch(/^setup-audit: could not write GitHub's job summary: .*EISDIR/m);
  expect(run.stdout).toContain("Verdict: FAIL");
  expect(existsSync(testInfo.outputPath("out", "html", "index.html"))).toBe(true);
});

test("a shard leaves the summary and the check annotations to the merge", async ({}, testInfo) => {
  const summaryFile = testInfo.outputPath("step-summary.md");
  const env = { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summaryFile };
  const shard = await runCli(
    ["run", brokenShop, ...onePage, "--shard", "1/1", "--out", testInfo.outputPath("shard")],
    env,
  );
  expect(shard.code, shard.stderr).toBe(1);
  expect(existsSync(summaryFile)).toBe(false);
  expect(shard.stdout).not.toMatch(/^::error /m);

  const merged = await runCli(["merge", testInfo.outputPath("shard"), "--out", testInfo.outputPath("merged")], env);
  expect(merged.code, merged.stderr).toBe(1);
  expect(readFileSync(summaryFile, "utf8")).toContain("## setup-audit: ❌ FAIL");
  expect(merged.stdout).toMatch(
    /^::error file=test\/e2e\/specs\/broken-shop\.yaml,line=\d+,col=\d+,title=sdk\.order \[early-call · desktop\]::/m,
  );
});

test("in GitHub Actions an invalid spec is annotated at its file, line and column", async () => {
  const run = await runCli(["validate", "test/audit-spec/specs/misspelled-key.yaml"], { GITHUB_ACTIONS: "true" });
  expect(run.code).toBe(2);
  const [, line, col] = run.stderr.match(/test\/audit-spec\/specs\/misspelled-key\.yaml:(\d+):(\d+) /)!;
  expect(run.stdout).toMatch(
    new RegExp(
      `^::error file=test/audit-spec/specs/misspelled-key\\.yaml,line=${line},col=${col},title=setup-audit%3A invalid spec::.*did you mean`,
      "m",
    ),
  );
  // Outside GitHub Actions, no workflow command.
  expect((await runCli(["validate", "test/audit-spec/specs/misspelled-key.yaml"])).stdout).not.toContain("::error");
});

test("in GitHub Actions a closed site's credentials are masked in the job's log before anything else is printed", async ({}, testInfo) => {
  const { user, password } = CLOSED_SITE_SECRETS;
  const env = { GITHUB_ACTIONS: "true", CLOSED_USER: user, CLOSED_PASSWORD: password };
  const run = await runCli(["run", e2eSpec("closed-basic.yaml"), "--out", testInfo.outputPath("out")], env);
  expect(run.code, run.stderr).toBe(0);
  const lines = run.stdout.split("\n");
  const masks = lines.filter((line) => line.startsWith("::add-mask::"));
  const pair = `${user}:${password}`;
  expect(masks).toEqual(
    expect.arrayContaining(
      [user, password, pair, Buffer.from(pair).toString("base64")].map((form) => `::add-mask::${form}`),
    ),
  );
  // Masks come first: GitHub hides a value only in what is printed after its mask.
  expect(lines.slice(0, masks.length)).toEqual(masks);
  expect(lines.slice(masks.length).filter((line) => line.includes(password))).toEqual([]);
});
