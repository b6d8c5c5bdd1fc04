import { CHECKS } from "../src/checks/index.js";

/** The markers around the generated table in README.md. */
const START = "<!-- check table: generated from the checks' definitions by `npm run generate` -->";
const END = "<!-- end of check table -->";

/** The README's check table: one row per check, in registry order, from its definition. */
export function checkTable(): string {
  const rows = CHECKS.map((check) => {
    const item = check.checklist === null ? "—" : `\`${check.checklist}\``;
    return `| \`${check.id}\` | ${item} | ${check.failsWhen} | ${check.why} |`;
  });
  return ["| id | checklist item | fails when | why it matters |", "| --- | --- | --- | --- |", ...rows].join("\n");
}

function markers(readme: string): { start: number; end: number } {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no check table between "${START}" and "${END}".`);
  return { start: start + START.length, end };
}

/** The check table README.md holds now. */
export function checkTableIn(readme: string): string {
  const { start, end } = markers(readme);
  return readme.slice(start, end).trim();
}

/** README.md with its check table replaced by the generated one. */
export function withCheckTable(readme: string): string {
  const { start, end } = markers(readme);
  return `${readme.slice(0, start)}\n\n${checkTable()}\n\n${readme.slice(end)}`;
}
