import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { prepareOutDir } from "../../src/cli/out-dir.js";
import { scratchDir } from "../support/scratch.js";

test("an earlier run's outputs are gone at once and deleted in the background; the history and other files stay", async () => {
  const out = scratchDir("out-dir");
  for (const folder of ["allure-results", "html", "screenshots", "traces", "history"]) mkdirSync(join(out, folder));
  writeFileSync(join(out, "allure-results", "old-result.json"), "{}");
  writeFileSync(join(out, "html", "index.html"), "<html>");
  for (const file of [
    "summary.json",
    "junit.xml",
    "audit-report.html",
    "shard-results.json",
    "notes.txt",
    join("history", "history.jsonl"),
  ])
    writeFileSync(join(out, file), "old");
  // Left by a run that was killed while it deleted.
  mkdirSync(join(out, ".stale-abc123"));
  writeFileSync(join(out, ".stale-abc123", "summary.json"), "older");

  const deleted = prepareOutDir(out);
  const atOnce = readdirSync(out).filter((name) => !name.startsWith(".stale-"));
  expect(atOnce.sort()).toEqual(["allure-results", "history", "notes.txt"]);
  expect(readdirSync(join(out, "allure-results"))).toEqual([]);

  await deleted;
  expect(readdirSync(out).sort()).toEqual(["allure-results", "history", "notes.txt"]);
  expect(readdirSync(join(out, "history"))).toEqual(["history.jsonl"]);
});

test("an output folder that does not exist yet is made, with an empty results folder", async () => {
  const out = join(scratchDir("out-dir"), "reports");
  await prepareOutDir(out);
  expect(readdirSync(out)).toEqual(["allure-results"]);
});

test("a run's saved artifacts go with its other outputs, unless a replay that judges them in this folder keeps them", async () => {
  const out = scratchDir("out-dir");
  mkdirSync(join(out, "artifacts"));
  writeFileSync(join(out, "summary.json"), "old");
  await prepareOutDir(out, ["artifacts"]);
  expect(readdirSync(out).sort()).toEqual(["allure-results", "artifacts"]);
  await prepareOutDir(out);
  expect(readdirSync(out)).toEqual(["allure-results"]);
});
