import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { sharedScratchDir } from "../support/scratch.js";
import { expect, test } from "@playwright/test";
import { GOLDEN_DIR, GOLDEN_SPEC } from "../support/golden.js";
import type { ChangedFinding } from "../../src/results/summary.js";
import { e2eSpec, readSummary, runCli } from "./cli.js";
import { problemsOf } from "../../src/findings/finding.js";

/**
 * A nightly audit that says what changed: the broken shop's committed golden artifacts are
 * judged twice into one --out (no browser needed), with a spec that breaks queued-call the first
 * time (its expected event renamed) and rejected-call the second, queued-call fixed. The second
 * run lists exactly those keys as resolved and new; --fail-on new passes on old failures alone
 * and fails on a new one; the webhook gets a message when something changed and none otherwise.
 */
test.describe.configure({ mode: "serial" });

const dir = sharedScratchDir("changes");
const spec = join(dir, "broken-shop.yaml");
const saved = join(dir, "saved");
const out = join(dir, "reports");
const original = readFileSync(GOLDEN_SPEC, "utf8");
const HOOK_TOKEN = "T0001/B0002/hook-token-that-must-not-leak";
const posts: string[] = [];
const hook = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => (body += chunk.toString()));
  request.on("end", () => {
    posts.push(body);
    response.end("ok");
  });
});
// Without a browser the replay renders no pictures of the variations: nothing here needs them.
const nowhere = join(dir, "no-browser");
let hookUrl = "";

/** The spec with `page`'s expected event renamed to one that never fires. */
function breaking(page: string, event: string): string {
  const line = `  - id: ${page}\n    path: /${page}\n    expect: { track: [${event}] }\n`;
  expect(original).toContain(line);
  return original.replace(line, line.replace(`[${event}]`, `[${event}_renamed]`));
}

/** Judges the saved artifacts with `specText` into the one output folder. */
async function audit(specText: string, flags: string[] = []) {
  writeFileSync(spec, specText);
  const env = {
    SETUP_AUDIT_BROWSER: nowhere,
    PLAYWRIGHT_BROWSERS_PATH: nowhere,
    HOOK_URL: hookUrl,
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_REPOSITORY: "acme/shop",
    GITHUB_RUN_ID: "42",
  };
  const postsBefore = posts.length;
  const run = await runCli(
    ["run", spec, "--from-artifacts", saved, "--out", out, "--notify-env", "HOOK_URL", ...flags],
    env,
  );
  return { ...run, summary: readSummary(out), posted: posts.slice(postsBefore) };
}

const keys = (list: readonly ChangedFinding[]) =>
  list.map((finding) => `${finding.check} ${finding.page} ${finding.viewport} ${finding.status}`).sort();

test.beforeAll(async () => {
  cpSync(join(GOLDEN_DIR, "artifacts"), join(saved, "artifacts"), { recursive: true });
  const runFile = join(saved, "artifacts", "run.json");
  const run = JSON.parse(readFileSync(runFile, "utf8")) as { targets: { specFile: string }[] };
  for (const target of run.targets) target.specFile = spec;
  writeFileSync(runFile, JSON.stringify(run));
  await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/services/${HOOK_TOKEN}`;
});

test.afterAll(() => hook.close());

test("run 2 lists exactly the page fixed and the page broken since run 1; --fail-on new fails on the new failure, then passes on old ones alone; the webhook hears of each change only", async () => {
  const first = await audit(breaking("queued-call", "hero_seen"));
  expect(first.code, first.stdout + first.stderr).toBe(1);
  expect(first.summary.changes).toBeNull();
  // Nothing to compare with and a failed run: one message, and --fail-on new would act as any.
  expect(first.posted).toHaveLength(1);
  expect(first.stdout).not.toContain("Since ");

  const second = await audit(breaking("rejected-call", "coupon_applied"), ["--fail-on", "new"]);
  expect(second.code, second.stdout + second.stderr).toBe(1);
  const changes = second.summary.changes!;
  expect(changes.comparedWith).toEqual({ startedAt: first.summary.startedAt, verdict: "fail" });
  expect(keys(changes.new)).toEqual([
    "events.expected rejected-call desktop fail",
    "events.expected rejected-call mobile fail",
  ]);
  expect(keys(changes.resolved)).toEqual([
    "events.expected queued-call desktop pass",
    "events.expected queued-call mobile pass",
  ]);
  expect(changes.worse).toEqual([]);
  const problems = (summary: typeof first.summary) => problemsOf(summary.findings).length;
  expect(changes.persisting).toBe(problems(first.summary) - 2);
  expect(changes.new.every((finding) => finding.spec === spec && finding.environment === "staging")).toBe(true);
  expect(second.stdout).toMatch(
    new RegExp(
      `^Since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC: 2 new, 0 worse, 2 resolved, ${changes.persisting - changes.persistingWarnings!} still failing, ${changes.persistingWarnings} still warning$`,
      "m",
    ),
  );
  expect(second.stdout).toMatch(
    /^ {2}New: events\.expected \[rejected-call · \w+\] \(fail\), events\.expected \[rejected-call · \w+\] \(fail\)$/m,
  );
  expect(second.stdout).toMatch(
    /^ {2}Resolved: events\.expected \[queued-call · \w+\], events\.expected \[queued-call · \w+\]$/m,
  );
  expect(second.stdout).toContain("--fail-on new: 2 failed finding(s) new or worse than in the run compared with.");
  expect(second.posted).toHaveLength(1);
  const message = JSON.parse(second.posted[0]!) as { text: string; blocks: { type: string }[] };
  expect(message.text.split("\n")[0]).toMatch(/^Since .*: 2 new, 0 worse, 2 resolved/);
  expect(message.text.split("\n").slice(1, 3)).toEqual([
    expect.stringMatching(/^New: `events\.expected` \[rejected-call · \w+\] \(fail\), /),
    expect.stringMatching(/^Resolved: `events\.expected` \[queued-call · \w+\], /),
  ]);
  expect(message.text).toContain("`events.expected` [rejected-call · desktop]");
  expect(message.text).toContain("https://github.com/acme/shop/actions/runs/42");
  expect(message.blocks.length).toBeGreaterThan(1);

  const third = await audit(breaking("rejected-call", "coupon_applied"), ["--fail-on", "new"]);
  expect(third.code, third.stdout + third.stderr).toBe(0);
  expect(third.summary.verdict).toBe("fail");
  expect(third.summary.changes).toMatchObject({
    new: [],
    worse: [],
    resolved: [],
    persisting: problems(third.summary),
  });
  expect(third.stdout).toContain(
    "--fail-on new: no failure is new or worse than in the run compared with; the failures above are older, so the run passes (exit 0).",
  );
  expect(third.posted).toEqual([]);
  expect(third.stderr).not.toContain("warning");

  for (const body of posts) expect(body).not.toContain("hook-token");
  for (const run of [first, second, third]) expect(run.stdout + run.stderr).not.toContain("hook-token");
  expect(
    readFileSync(join(out, "history", "findings.jsonl"), "utf8")
      .trim()
      .split("\n"),
  ).toHaveLength(3);
});

test("a shard is not compared (the merge is: it compares the merged result with the last merge), and refuses the flags that compare", async ({}, testInfo) => {
  const shardOut = testInfo.outputPath("shard");
  const refused = await runCli([
    "run",
    e2eSpec("broken-shop.yaml"),
    "--page",
    "early-call",
    "--shard",
    "1/1",
    "--fail-on",
    "new",
    "--out",
    shardOut,
  ]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain("--fail-on is for a whole run, not a shard: the merge compares the merged result");
  const shard = await runCli([
    "run",
    e2eSpec("broken-shop.yaml"),
    "--page",
    "early-call",
    "--shard",
    "1/1",
    "--out",
    shardOut,
  ]);
  expect(shard.code, shard.stdout + shard.stderr).toBe(1);
  expect(existsSync(join(shardOut, "history", "findings.jsonl"))).toBe(false);

  const merged = testInfo.outputPath("merged");
  const first = await runCli(["merge", shardOut, "--out", merged, "--fail-on", "new"]);
  expect(first.code, first.stdout + first.stderr).toBe(1);
  expect(readSummary(merged).changes).toBeNull();
  expect(first.stdout).toContain("--fail-on new: nothing to compare");
  const again = await runCli(["merge", shardOut, "--out", merged, "--fail-on", "new"]);
  expect(again.code, again.stdout + again.stderr).toBe(0);
  const changes = readSummary(merged).changes!;
  expect(changes).toMatchObject({ new: [], worse: [], resolved: [] });
  expect(changes.persisting).toBe(problemsOf(readSummary(merged).findings).length);
  expect(changes.persisting).toBeGreaterThan(0);
});
