import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";

/**
 * docs/contributing.md's walk-through, done: in a copy of src/, the dialogs part, its input's
 * field and rule in the plan, and the page.dialogs check are added exactly as the document shows
 * them (its code blocks, its lines in the lists, the new artifact field), and the copy
 * type-checks, plans and judges; without the part's
 * line in the list, the compiler names the field no part fills.
 */

const ROOT = join(import.meta.dirname, "..");
const run = promisify(execFile);
const DOC = readFileSync(join(ROOT, "docs/contributing.md"), "utf8");

/** The document's TypeScript block that holds `marker`. */
function block(marker: string): string {
  const found = [...DOC.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .find((code) => code.includes(marker));
  if (found === undefined) throw new Error(`docs/contributing.md shows no code block with ${marker}`);
  return found;
}

/** Edits `file` of the copy: `find` must be in it once, and becomes `replacement`. */
function replaceOnce(copy: string, file: string, find: string, replacement: string): void {
  const path = join(copy, file);
  const text = readFileSync(path, "utf8");
  expect(text.split(find).length, `${file} holds "${find}" once`).toBe(2);
  writeFileSync(path, text.replace(find, replacement));
}

/** The line of the document's code block that holds `marker`. */
function lineOf(marker: string): string {
  return block(marker)
    .split("\n")
    .find((line) => line.includes(marker))!;
}

/** Type-checks the copy: tsc's exit code and what it printed. */
async function typecheck(copy: string): Promise<{ code: number; output: string }> {
  const tsc = join(ROOT, "node_modules/.bin/tsc");
  return run(tsc, ["--noEmit", "-p", copy]).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
  );
}

test("the walk-through's part, its plan rule and its check, added as docs/contributing.md shows, type-check, plan and judge; a part left out of the list fails the compiler", async () => {
  const copy = mkdtempSync(join(tmpdir(), "setup-audit-walkthrough-"));
  try {
    cpSync(join(ROOT, "src"), join(copy, "src"), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
    cpSync(join(ROOT, "package.json"), join(copy, "package.json"));
    // The demo command's site, which src/ imports (it reaches nothing else).
    symlinkSync(join(ROOT, "fixtures"), join(copy, "fixtures"));
    const tsconfig = JSON.parse(readFileSync(join(ROOT, "tsconfig.json"), "utf8"));
    writeFileSync(join(copy, "tsconfig.json"), JSON.stringify({ ...tsconfig, include: ["src", "judge.ts"] }));
    // The observation: the field, the part's file (its empty value with it), its entry in the list.
    replaceOnce(
      copy,
      "src/artifacts/types.ts",
      "  errors: PageError[];\n",
      "  errors: PageError[];\n  dialogs: string[];\n",
    );
    // The choice the plan makes: the input's field, its rule for every unit, its value on a page gathered as it is.
    replaceOnce(
      copy,
      "src/schedule/page-input.ts",
      "  stepTimeoutMs: number;\n}\n",
      `  stepTimeoutMs: number;\n${block("keepsDialogs: boolean")}}\n`,
    );
    replaceOnce(
      copy,
      "src/schedule/target.ts",
      "    stepTimeoutMs: STEP_TIMEOUT_MS,\n",
      `    stepTimeoutMs: STEP_TIMEOUT_MS,\n${lineOf("keepsDialogs: unit.kind")}\n`,
    );
    replaceOnce(
      copy,
      "src/schedule/page-input.ts",
      "    stepTimeoutMs: STEP_TIMEOUT_MS,\n",
      "    stepTimeoutMs: STEP_TIMEOUT_MS,\n    keepsDialogs: true,\n",
    );
    writeFileSync(join(copy, "src/gather/dialogs.ts"), block("export class DialogsPart"));
    const listed = lineOf("listed(DialogsPart");
    const parts = "src/gather/parts.ts";
    replaceOnce(
      copy,
      parts,
      "  listed(PageErrorsPart, (_, built) => new PageErrorsPart(built(NetworkPart).capture)),\n",
      `  listed(PageErrorsPart, (_, built) => new PageErrorsPart(built(NetworkPart).capture)),\n${listed}\n`,
    );
    replaceOnce(
      copy,
      parts,
      "import { CallsPart }",
      'import { DialogsPart } from "./dialogs.js";\nimport { CallsPart }',
    );
    // The check: its file, its id, its line in the family's list.
    writeFileSync(join(copy, "src/checks/page/dialogs.ts"), block("export const pageDialogs"));
    replaceOnce(copy, "src/findings/finding.ts", '  "page.errors",\n', '  "page.errors",\n  "page.dialogs",\n');
    replaceOnce(
      copy,
      "src/checks/page/index.ts",
      "export const PAGE_CHECKS = [pageLoad, pageAccess, pageDomain, pageErrors] as const;\n",
      `${lineOf("PAGE_CHECKS")}\n`,
    );
    replaceOnce(
      copy,
      "src/checks/page/index.ts",
      "import { pageAccess }",
      'import { pageDialogs } from "./dialogs.js";\nimport { pageAccess }',
    );
    // Judging through the registry: a page with a dialog, one without, one saved before dialogs were kept.
    writeFileSync(
      join(copy, "judge.ts"),
      `import { runChecks } from "./src/checks/index.js";
import { pageDialogs } from "./src/checks/page/dialogs.js";
import { planTarget } from "./src/schedule/target.js";
import { contextOf, pageWith, specWith } from "${join(ROOT, "test/support/artifacts.js")}";
const asked = { ...pageWith({ page: "home" }), dialogs: ["Leave this page?"] };
const quiet = { ...pageWith({ page: "pricing" }), dialogs: [] };
const older = pageWith({ page: "signup" });
// The builders are the suite's own: their context is the repository's type, the same shape.
const judged = (pages: object[]) => runChecks(contextOf(pages as never) as never, [pageDialogs]).map(({ status, message }) => [status, message]);
// The plan's rule: the page as it is keeps its dialogs, its variation's preview does not.
const spec = specWith({
  pages: [{ id: "home", path: "/" }],
  experiments: [{ name: "Hero", page: "home", selector: "h1", goals: [], variations: [{ name: "Short", js: "void 0" }] }],
});
const target = planTarget({ specFile: "shop.yaml", slug: "shop", spec: spec as never, specSha256: "", environment: "staging", baseUrl: "https://shop.example.test", pages: ["home"], viewports: ["desktop"] });
const kept = target.units.map((unit) => [unit.kind, unit.inputs.desktop!.keepsDialogs]);
console.log(JSON.stringify([judged([asked, quiet]), judged([older]), kept]));
`,
    );
    const checked = await typecheck(copy);
    expect(checked.output).toBe("");
    expect(checked.code).toBe(0);
    const { stdout } = await run(join(ROOT, "node_modules/.bin/tsx"), [join(copy, "judge.ts")], { cwd: copy });
    expect(JSON.parse(stdout)).toEqual([
      [
        ["fail", "The page opened 1 dialog(s): Leave this page?"],
        ["pass", "The page opened no dialog."],
      ],
      [
        [
          "skip",
          'Not judged: the artifacts of page "signup" on desktop hold no `dialogs` (saved by an earlier setup-audit, or edited). Run the audit again to judge it.',
        ],
      ],
      [
        ["page", true],
        ["variation", false],
      ],
    ]);
    // Without the part's line in the list, no part fills the new field: the compiler says so at gatherPage.
    replaceOnce(copy, parts, `${listed}\n`, "");
    replaceOnce(copy, parts, 'import { DialogsPart } from "./dialogs.js";\n', "");
    const unlisted = await typecheck(copy);
    expect(unlisted.code).not.toBe(0);
    expect(unlisted.output).toMatch(/src\/gather\/page\.ts.*Property 'dialogs' is missing/);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
