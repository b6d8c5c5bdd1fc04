import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { parse } from "yaml";

/** The nightly workflow is valid YAML and uses only commands and flags the README documents. */
const ROOT = join(import.meta.dirname, "..");
const workflow = parse(readFileSync(join(ROOT, ".github/workflows/nightly-audit.yml"), "utf8")) as {
  on: { schedule: { cron: string }[] };
  jobs: Record<string, { strategy?: { matrix: { shard: number[] } }; steps: { run?: string }[] }>;
};
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const commands = Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap((step) => (step.run ? [step.run] : [])));

test("it runs nightly, in a shard matrix, then merges", () => {
  expect(workflow.on.schedule[0]?.cron).toMatch(/^\S+ \S+ \* \* \*$/);
  expect(workflow.jobs.audit?.strategy?.matrix.shard).toEqual([1, 2]);
  expect(commands.some((command) => command.includes("setup-audit run") && command.includes("--shard"))).toBe(true);
  expect(commands.some((command) => command.includes("setup-audit merge"))).toBe(true);
});

test("every setup-audit command, flag and npm script it uses is in the README", () => {
  const used = commands.flatMap((command) => [...command.matchAll(/setup-audit (\w+)/g)].map((match) => `setup-audit ${match[1]}`));
  const flags = commands.filter((command) => command.includes("setup-audit")).flatMap((command) => command.match(/--[a-z-]+/g) ?? []);
  const scripts = commands.flatMap((command) => [...command.matchAll(/npm run ([\w-]+)/g)].map((match) => `npm run ${match[1]}`));
  expect(used.length).toBeGreaterThan(1);
  for (const name of [...new Set([...used, ...flags, ...scripts])]) expect(readme, name).toContain(name);
});
