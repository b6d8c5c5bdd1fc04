import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { parse } from "yaml";

/** The nightly workflow is valid YAML, audits with this repository's action, and uses only commands, flags and inputs that are documented. */
const ROOT = join(import.meta.dirname, "..");

interface Step {
  run?: string;
  uses?: string;
  with?: Record<string, string>;
}

const workflow = parse(readFileSync(join(ROOT, ".github/workflows/nightly-audit.yml"), "utf8")) as {
  on: { schedule: { cron: string }[] };
  jobs: Record<string, { strategy?: { matrix: { shard: number[] } }; steps: Step[] }>;
};
const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as { inputs: Record<string, unknown> };
// The README and the pages of docs/ it links to, as one text.
const docs = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
]
  .map((page) => readFileSync(join(ROOT, page), "utf8"))
  .join("\n");
const commands = Object.values(workflow.jobs).flatMap((job) =>
  job.steps.flatMap((step) => (step.run ? [step.run] : [])),
);
const actionSteps = Object.values(workflow.jobs).flatMap((job) => job.steps.filter((step) => step.uses === "./"));

test("it runs nightly, each shard of a matrix through the repository's action, then merges", () => {
  expect(workflow.on.schedule[0]?.cron).toMatch(/^\S+ \S+ \* \* \*$/);
  expect(workflow.jobs.audit?.strategy?.matrix.shard).toEqual([1, 2]);
  expect(workflow.jobs.audit?.steps.find((step) => step.uses === "./")?.with?.shard).toBe("${{ matrix.shard }}/2");
  expect(commands.some((command) => command.includes("setup-audit -- merge"))).toBe(true);
});

test("every input it gives the action is one action.yml declares and the docs document", () => {
  const inputs = actionSteps.flatMap((step) => Object.keys(step.with ?? {}));
  expect(inputs.length).toBeGreaterThan(0);
  for (const input of inputs) {
    expect(Object.keys(action.inputs), input).toContain(input);
    expect(docs, input).toContain(`\`${input}\``);
  }
});

test("every setup-audit command, flag and npm script it uses is in the docs", () => {
  const used = commands.flatMap((command) =>
    [...command.matchAll(/setup-audit (?:-- )?(\w+)/g)].map((match) => `setup-audit ${match[1]}`),
  );
  const flags = commands
    .filter((command) => command.includes("setup-audit"))
    .flatMap((command) => command.match(/--[a-z-]+/g) ?? []);
  const scripts = commands.flatMap((command) =>
    [...command.matchAll(/npm run ([\w-]+)/g)].map((match) => `npm run ${match[1]}`),
  );
  expect(used.length).toBeGreaterThan(0);
  for (const name of [...new Set([...used, ...flags, ...scripts])]) expect(docs, name).toContain(name);
});
