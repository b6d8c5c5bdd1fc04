import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sharedScratchDir } from "../support/scratch.js";
import { expect, test } from "@playwright/test";
import type { RunSummary } from "../../src/results/summary.js";
import { allowRunOf, e2eSpec, readSummary, runCli } from "./cli.js";

/**
 * `run --save-artifacts` of the broken shop, then `run --from-artifacts` of its output folder:
 * the replay opens no page and reproduces every finding and every call, with its delivery. The
 * spec is a copy of the broken shop's, so that the later tests can change it.
 */
test.describe.configure({ mode: "serial" });

const dir = sharedScratchDir("replay");
const spec = join(dir, "broken-shop.yaml");
const saved = join(dir, "saved");
let gathered: RunSummary;

test.beforeAll(async ({}, testInfo) => {
  allowRunOf(testInfo, [e2eSpec("broken-shop.yaml")]);
  writeFileSync(spec, readFileSync(e2eSpec("broken-shop.yaml"), "utf8"));
  const run = await runCli(["run", spec, "--save-artifacts", "--out", saved]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  gathered = readSummary(saved);
});

test("the saved artifacts hold the plan, every page × viewport and the screens the report shows", () => {
  const pages = readdirSync(join(saved, "artifacts", "pages"));
  // 12 pages and 4 variations' previews, on 2 viewports.
  expect(pages).toHaveLength(32);
  const run = JSON.parse(readFileSync(join(saved, "artifacts", "run.json"), "utf8")) as {
    targets: { specFile: string; environment: string }[];
  };
  expect(run.targets.map((target) => [target.specFile, target.environment])).toEqual([[spec, "staging"]]);
  expect(existsSync(join(saved, "artifacts", "screenshots", "broken-shop", "staging", "home.desktop.png"))).toBe(true);
});

test("--from-artifacts, with no browser to be found, opens no page and reproduces every finding and every call, with its delivery", async () => {
  const out = join(dir, "replayed");
  const nowhere = join(dir, "no-browser");
  const run = await runCli(["run", "--from-artifacts", saved, "--out", out], {
    SETUP_AUDIT_BROWSER: nowhere,
    PLAYWRIGHT_BROWSERS_PATH: nowhere,
  });
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stdout).toContain(`Judging the artifacts saved in ${saved}`);
  expect(run.stdout).not.toContain(" gathered, ");
  const replayed = readSummary(out);
  expect(replayed.findings.length).toBeGreaterThan(250);
  expect(replayed.findings).toEqual(gathered.findings);
  expect(replayed.calls.length).toBeGreaterThan(20);
  expect(replayed.calls).toEqual(gathered.calls);
  expect(replayed.runs).toEqual(gathered.runs);
  expect(replayed.verdict).toBe(gathered.verdict);
  // Only the variations' pictures need a browser: without one, the report says it has none.
  expect(run.stderr).toContain("could not make the pictures of the variations");
});

test("replayed into the folder that holds them, the artifacts stay, judge the same again and give the report the same screens and pictures", async () => {
  const pictures = (folder: string) =>
    readdirSync(join(folder, "allure-results")).filter((name) => name.endsWith(".png")).length;
  const gatheredPictures = pictures(saved);
  const again = await runCli(["run", "--from-artifacts", saved, "--out", saved]);
  expect(again.code, again.stdout + again.stderr).toBe(1);
  expect(readdirSync(join(saved, "artifacts", "pages"))).toHaveLength(32);
  expect(readSummary(saved).findings).toEqual(gathered.findings);
  expect(gatheredPictures).toBeGreaterThan(0);
  expect(pictures(saved)).toBe(gatheredPictures);
});

test("a changed spec is judged as it is now: a check turned off shows on yesterday's gathering", async () => {
  writeFileSync(spec, `${readFileSync(e2eSpec("broken-shop.yaml"), "utf8")}checks:\n  events.delivered: "off"\n`);
  const out = join(dir, "changed");
  const run = await runCli(["run", spec, "--from-artifacts", saved, "--out", out]);
  expect(run.stdout).toContain(
    `${spec} changed since its artifacts were gathered: it is judged as it is now, on what was gathered`,
  );
  const findings = readSummary(out).findings;
  const delivered = findings.filter((finding) => finding.check === "events.delivered");
  expect(delivered.length).toBeGreaterThan(0);
  expect(new Set(delivered.map((finding) => finding.status))).toEqual(new Set(["skip"]));
  const others = (summary: Pick<RunSummary, "findings">) =>
    summary.findings.filter((finding) => finding.check !== "events.delivered");
  expect(others({ findings })).toEqual(others(gathered));
});

test("a spec that now audits a page the saved run did not gather, or another environment, is refused with what to do", async () => {
  writeFileSync(
    spec,
    readFileSync(e2eSpec("broken-shop.yaml"), "utf8").replace("pages:\n", "pages:\n  - id: added\n    path: /added\n"),
  );
  const added = await runCli(["run", "--from-artifacts", saved, "--out", join(dir, "refused")]);
  expect(added.code).toBe(2);
  expect(added.stderr).toContain(
    `${spec} (staging) now audits page added on desktop, which ${saved}'s saved artifacts do not hold`,
  );
  expect(added.stderr).toContain(
    `Gather again with this spec: \`setup-audit run ${spec} --env staging --save-artifacts --out ${saved}\``,
  );
  // Left out with --page, the rest is judged.
  const narrowed = await runCli(["run", "--from-artifacts", saved, "--page", "home", "--out", join(dir, "narrowed")]);
  expect([0, 1], narrowed.stderr).toContain(narrowed.code);
  const loaded = readSummary(join(dir, "narrowed")).findings.filter((finding) => finding.check === "page.load");
  expect(loaded.map((finding) => [finding.page, finding.viewport])).toEqual([
    ["home", "desktop"],
    ["home", "mobile"],
  ]);

  const other = await runCli(["run", "--from-artifacts", saved, "--env", "production", "--out", join(dir, "refused")]);
  expect(other.code).toBe(2);
  expect(other.stderr).toContain("hold " + spec + " in environment staging, not production");
});

test("a folder without saved artifacts, and a flag of gathering, are refused (exit 2)", async () => {
  const empty = await runCli(["run", "--from-artifacts", dir, "--out", join(dir, "refused")]);
  expect(empty.code).toBe(2);
  expect(empty.stderr).toContain(`${dir} holds no saved artifacts`);
  expect(empty.stderr).toContain("--save-artifacts --out");
  const workers = await runCli(["run", "--from-artifacts", saved, "--workers", "2"]);
  expect(workers.code).toBe(2);
  expect(workers.stderr).toContain("--workers");
});
