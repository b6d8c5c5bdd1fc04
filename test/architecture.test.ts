import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, test } from "@playwright/test";

/**
 * Imports go one way (STYLE.md): checks read artifacts and judge them without a browser or I/O;
 * gathering never judges; reporters read results. This reads every import to keep it so.
 */
const SRC = join(import.meta.dirname, "../src");

function sourceFiles(folder: string): string[] {
  return readdirSync(join(SRC, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(SRC, folder, name));
}

function importsOf(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(/^import\s[^;]*?from\s+"([^"]+)"/gms)].map((match) => match[1]!);
}

// allure-reporter.ts asks Playwright where its own Chromium is, to name the browser in the report's environment info.
const RULES: { folder: string; forbidden: RegExp; why: string; except?: RegExp }[] = [
  // api/match.ts is the one pure module of the API side: the checks and the API gatherer share its matching rules.
  { folder: "checks", forbidden: /^(playwright|@playwright\/|undici|node:(fs|http|https|child_process|dgram))|\/(gather|cli|report)\/|\/api\/(?!match\.js$)/, why: "a check is a pure function of artifacts" },
  { folder: "gather", forbidden: /\/(checks|report|cli)\//, why: "gathering never judges" },
  { folder: "report", forbidden: /^playwright$|\/(gather|cli)\//, why: "reporters read results only", except: /allure-reporter\.ts$/ },
];

for (const rule of RULES) {
  test(`src/${rule.folder} keeps its imports: ${rule.why}`, () => {
    const offending = sourceFiles(rule.folder)
      .filter((file) => !rule.except?.test(file))
      .flatMap((file) => importsOf(file).filter((source) => rule.forbidden.test(source)).map((source) => `${relative(SRC, file)} imports ${source}`));
    expect(offending).toEqual([]);
  });
}
