import { CHECKS } from "../../src/checks/index.js";
import type { Check } from "../../src/checks/check.js";
import { CHECKLIST_LABELS } from "../../src/report/console.js";
import { CHECKLIST_SOURCES } from "../../src/results/checklist.js";
import type { Checklist } from "../../src/findings/finding.js";
import { cell, githubSlug } from "./markdown.js";

/** What a check's scope means to a reader: where its findings come from, shards and merge included. */
const JUDGED: Record<Check["scope"], { short: string; long: string }> = {
  page: {
    short: "each page × viewport",
    long: "each page × viewport from its own artifacts (a shard's finding stands after the merge)",
  },
  run: {
    short: "the whole run",
    long: "the whole run: every page, the API and the spec (again by `merge`, on every shard's pages)",
  },
};

function link(check: Check): string {
  return `[\`${check.id}\`](#${githubSlug(check.id)})`;
}

/** docs/checks.md's checklist: each item of the service's checklist, as the console names it, and the checks that feed it. */
export function checklistTable(): string {
  const rows = Object.entries(CHECKLIST_LABELS).map(([item, label]) => {
    const feeding = CHECKS.filter((check) => CHECKLIST_SOURCES[item as keyof Checklist].includes(check.id)).map(link);
    return `| \`${item}\` | ${label} | ${feeding.join(", ")} |`;
  });
  return ["| item | the console says | fed by |", "| --- | --- | --- |", ...rows].join("\n");
}

function checklistItem(check: Check): string {
  const item = (Object.keys(CHECKLIST_SOURCES) as (keyof Checklist)[]).find((name) =>
    CHECKLIST_SOURCES[name].includes(check.id),
  );
  return item === undefined ? "none" : `\`${item}\``;
}

/** One check in full: what it vouches for, where it belongs, when it fails and why that matters. */
function section(check: Check): string {
  return [
    `### \`${check.id}\``,
    "",
    `**${check.title}.** Checklist item: ${checklistItem(check)}. Family: ${check.family}. Severity: ${check.severity}. Judged on ${JUDGED[check.scope].long}.`,
    "",
    `**Fails when:** ${check.failsWhen}.`,
    "",
    `**Why it matters.** ${check.why}`,
  ].join("\n");
}

/** docs/checks.md's generated part: a table of every check in registry order, then each check in full, from its definition. */
export function checksReference(): string {
  const rows = CHECKS.map(
    (check) =>
      `| ${link(check)} | ${cell(check.title)} | ${checklistItem(check)} | ${check.family} | ${check.severity} | ${JUDGED[check.scope].short} |`,
  );
  const table = [
    "| check | vouches for | checklist item | family | severity | judged on |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
  return [table, ...CHECKS.map(section)].join("\n\n");
}
