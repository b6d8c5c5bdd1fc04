import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";

/**
 * No function in src/gather/ is longer than 60 lines, by Biome's noExcessiveLinesPerFunction
 * (every function counts on its own, nested arrows and callbacks included, and its nested functions'
 * lines count in it too; comment and blank lines count, a line that starts with `}` does not;
 * getters and setters are not checked).
 * Only a function Playwright serialises into the page is exempt: it must be self-contained, so it
 * cannot be split into helpers of the module. Its doc comment says so, and so does its suppression.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIOME = join(ROOT, "node_modules", ".bin", "biome");
const GATHER = "src/gather";
const MAX_LINES = 60;
const RULE = "lint/complexity/noExcessiveLinesPerFunction";
const REASON = "serialised into the page";

interface Diagnostic {
  category: string;
  message: string;
  location: { path: string; start: { line: number } };
}

/** Biome's function length rule alone over `path` (relative to `cwd`): the repository's biome.json only formats. */
function lintFunctionLength(cwd: string, path: string): Diagnostic[] {
  const config = mkdtempSync(join(tmpdir(), "function-length-"));
  try {
    writeFileSync(
      join(config, "biome.json"),
      JSON.stringify({
        root: true,
        formatter: { enabled: false },
        assist: { enabled: false },
        linter: {
          enabled: true,
          rules: {
            preset: "none",
            complexity: { noExcessiveLinesPerFunction: { level: "error", options: { maxLines: MAX_LINES } } },
          },
        },
      }),
    );
    const run = spawnSync(
      BIOME,
      ["lint", `--config-path=${config}`, "--reporter=json", "--max-diagnostics=none", path],
      { cwd, encoding: "utf8" },
    );
    expect(run.stdout, run.stderr).toMatch(/^\{/);
    return (JSON.parse(run.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
  } finally {
    rmSync(config, { recursive: true, force: true });
  }
}

/** One line per diagnostic: the file, the line, the function's first line and what Biome says. */
function describe(cwd: string, diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map(({ location, message }) => {
    const line = readFileSync(join(cwd, location.path), "utf8").split("\n")[location.start.line - 1] ?? "";
    return `${location.path}:${location.start.line} ${line.trim()} — ${message}`;
  });
}

test("no function in src/gather is longer than 60 lines, but those serialised into the page", () => {
  const found = lintFunctionLength(ROOT, GATHER);
  expect(describe(ROOT, found), "split each function (or, serialised into the page, suppress it as such)").toEqual([]);
});

test("each function exempt from the length is one serialised into the page, and its doc comment says so", () => {
  const wrong: string[] = [];
  for (const file of readdirSync(join(ROOT, GATHER)).filter((name) => name.endsWith(".ts"))) {
    const lines = readFileSync(join(ROOT, GATHER, file), "utf8").split("\n");
    lines.forEach((line, index) => {
      if (!line.includes("biome-ignore")) return;
      const place = `${GATHER}/${file}:${index + 1}`;
      if (line.trim() !== `// biome-ignore ${RULE}: ${REASON}`) wrong.push(`${place} suppresses for another reason`);
      // The doc comment just above it, its lines joined.
      const doc = lines[index - 1]?.trim().endsWith("*/")
        ? (lines.slice(0, index).join("\n").split("/**").at(-1) ?? "")
        : "";
      if (
        !doc
          .replace(/\s*\*\s*/g, " ")
          .toLowerCase()
          .includes(REASON)
      )
        wrong.push(`${place} follows no doc comment saying "${REASON}"`);
    });
  }
  expect(wrong).toEqual([]);
});

test("the rule counts a function of 61 lines, a nested arrow on its own, and not one of 60", () => {
  const dir = mkdtempSync(join(tmpdir(), "function-length-case-"));
  try {
    mkdirSync(join(dir, "src"));
    const statements = (count: number, indent: string) =>
      Array.from({ length: count }, (_, index) => `${indent}const value${index} = ${index};`).join("\n");
    writeFileSync(
      join(dir, "src", "cases.ts"),
      [
        `export function sixty() {\n${statements(MAX_LINES, "  ")}\n}`,
        `export function sixtyOne() {\n${statements(MAX_LINES + 1, "  ")}\n}`,
        `export const outer = () => [1].map(() => {\n${statements(MAX_LINES + 1, "  ")}\n  return 1;\n});`,
        "",
      ].join("\n"),
    );
    const found = lintFunctionLength(dir, "src");
    expect(found.map((diagnostic) => [diagnostic.category, diagnostic.location.start.line])).toEqual([
      [RULE, MAX_LINES + 3],
      [RULE, 2 * MAX_LINES + 6],
      [RULE, 2 * MAX_LINES + 6],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
