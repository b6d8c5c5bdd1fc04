import { readdirSync, readFileSync } from "node:fs";
import { join, posix, sep } from "node:path";
import { expect, test } from "@playwright/test";

/**
 * Imports go one way (STYLE.md): the CLI reaches everything; the spec loader reads YAML into a
 * spec; the API side and the browser side gather without judging; checks judge artifacts without
 * a browser or I/O; reporters read the run's result. This reads every import of every file of
 * src/ to keep it so, and keeps the import graph free of cycles.
 */
const SRC = join(import.meta.dirname, "../src");

/** Every TypeScript file of src/, as a path relative to it with `/` separators (`cli/run.ts`, `plan.ts`). */
const FILES = readdirSync(SRC, { recursive: true, encoding: "utf8" })
  .filter((name) => name.endsWith(".ts"))
  .map((name) => name.split(sep).join("/"))
  .sort();

/** A file's folder under src/: its first segment, or `.` for the modules at the top of src/. */
function folderOf(file: string): string {
  return file.includes("/") ? file.slice(0, file.indexOf("/")) : ".";
}

/**
 * What a file imports (type-only imports and re-exports included, unless `runtime`; dynamic imports always): a package as
 * it is named (`playwright`, `node:fs`), a module of the project as its path relative to src/
 * (`gather/page.ts`, `../fixtures/server.ts` for one outside it).
 */
function importsOf(file: string, { runtime = false } = {}): string[] {
  const text = readFileSync(join(SRC, file), "utf8");
  const statement = runtime ? /^(?:import|export)\s(?!type\s)[^;]*?from\s+"([^"]+)"|^import\s+"([^"]+)"/gms : /^(?:import|export)\s[^;]*?from\s+"([^"]+)"|^import\s+"([^"]+)"/gms;
  // A module loaded when it is needed (`await import("./run.js")`) is imported all the same.
  const dynamic = /(?<![\w.])import\(\s*"([^"]+)"\s*\)/g;
  const sources = [...[...text.matchAll(statement)].map((match) => (match[1] ?? match[2])!), ...[...text.matchAll(dynamic)].map((match) => match[1]!)];
  return sources.map((source) => (source.startsWith(".") ? posix.normalize(posix.join(posix.dirname(file), source.replace(/\.js$/, ".ts"))) : source));
}

interface Rule {
  folder: string;
  /** What a file of the folder must not import, matched against importsOf's names. */
  forbidden: RegExp;
  why: string;
}

// api/match.ts is the one pure module of the API side: the checks and the API gatherer share its matching rules.
const RULES: Rule[] = [
  { folder: "api", forbidden: /^(playwright|@playwright\/)|^(checks|cli|gather|report|spec)\//, why: "the API side gathers with its own client, never judges, and keeps off the spec's types" },
  {
    folder: "checks",
    forbidden: /^(playwright|@playwright\/|undici|node:(fs|http|https|child_process|dgram))|^(gather|cli|report)\/|^api\/(?!match\.ts$)/,
    why: "a check is a pure function of artifacts",
  },
  { folder: "cli", forbidden: /^\.\.\/fixtures\//, why: "the CLI reaches the bundled fixtures through one demo entry, cli/demo.ts" },
  { folder: "init", forbidden: /^\.\.\/fixtures\/|^report\//, why: "init drafts a spec from what the gatherer records, reports no audit, and reaches no fixture" },
  { folder: "gather", forbidden: /^(api|checks|cli|report)\//, why: "gathering never judges, and the API is gathered once by the CLI, never from a page" },
  { folder: "report", forbidden: /^playwright$|^(api|cli|gather|spec)\/|^plan\/plan\.ts$/, why: "reporters read the run's result only" },
  { folder: "spec", forbidden: /^(playwright|@playwright\/|undici)|^(api|checks|cli|gather|report)\/|^plan\/plan\.ts$/, why: "the spec loader turns YAML into a spec and needs nothing of the audit" },
  { folder: "artifacts", forbidden: /^(cli|gather|report)\//, why: "the shared modules reach up into neither the CLI, the browser side nor the renderers" },
  { folder: "browser", forbidden: /^(cli|gather|report)\//, why: "the shared modules reach up into neither the CLI, the browser side nor the renderers" },
  { folder: "package", forbidden: /^(cli|gather|report)\//, why: "the shared modules reach up into neither the CLI, the browser side nor the renderers" },
  { folder: "plan", forbidden: /^(cli|gather|report)\//, why: "the shared modules reach up into neither the CLI, the browser side nor the renderers" },
  { folder: "privacy", forbidden: /^(cli|gather|report)\//, why: "the shared modules reach up into neither the CLI, the browser side nor the renderers" },
  { folder: "results", forbidden: /^(cli|gather|report)\//, why: "the shared modules reach up into neither the CLI, the browser side nor the renderers" },
  { folder: "text", forbidden: /^(cli|gather|report)\//, why: "the shared modules reach up into neither the CLI, the browser side nor the renderers" },
  { folder: "url", forbidden: /^(cli|gather|report)\//, why: "the shared modules reach up into neither the CLI, the browser side nor the renderers" },
];

/** The one file allowed to import what its folder's rule forbids, and what it may import: the demo the package ships, never the other fixtures. */
const DEMO_ENTRY = { file: "cli/demo.ts", imports: /^\.\.\/fixtures\/demo\.ts$/ };

/** The spec's `checks` section names check ids: the schema takes them from the checks' registry, and nothing else of the checks. */
const CHECK_IDS_ENTRY = { file: "spec/schema.ts", imports: /^checks\/index\.ts$/ };

const isAllowed = (file: string, target: string) => [DEMO_ENTRY, CHECK_IDS_ENTRY].some((entry) => file === entry.file && entry.imports.test(target));

test("every folder of src/ has its rule", () => {
  expect(RULES.map((rule) => rule.folder).sort()).toEqual([...new Set(FILES.map(folderOf))].sort());
});

for (const rule of RULES) {
  const subject = rule.folder === "." ? "the modules at the top of src/ keep their imports" : `src/${rule.folder} keeps its imports`;
  test(`${subject}: ${rule.why}`, () => {
    const offending = FILES.filter((file) => folderOf(file) === rule.folder).flatMap((file) =>
      importsOf(file)
        .filter((target) => rule.forbidden.test(target) && !isAllowed(file, target))
        .map((target) => `${file} imports ${target}`),
    );
    expect(offending).toEqual([]);
  });
}

test("the spec loader reaches no Playwright, not even through the modules it imports", () => {
  const reached = new Set<string>();
  const visit = (file: string): void => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const target of importsOf(file)) if (FILES.includes(target)) visit(target);
  };
  for (const file of FILES.filter((file) => folderOf(file) === "spec")) visit(file);
  const playwright = [...reached].flatMap((file) => importsOf(file).filter((target) => /^(playwright|@playwright\/)/.test(target)).map((target) => `${file} imports ${target}`));
  expect(playwright).toEqual([]);
});

test("only cli/demo.ts reaches the bundled fixtures", () => {
  const reaching = FILES.filter((file) => importsOf(file).some((target) => target.startsWith("../fixtures/")));
  expect(reaching).toEqual([DEMO_ENTRY.file]);
});

// The package ships the demo compiled (npm run build) and nothing else of fixtures/: the vendor
// SDK site needs the vendors' bundles, which are development dependencies.
test("the demo reaches no vendor SDK fixture and no package, only Node's own modules", () => {
  const reached = new Set<string>();
  const visit = (file: string): void => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const target of importsOf(file)) if (target.startsWith("../fixtures/")) visit(target);
  };
  visit("../fixtures/demo.ts");
  const vendors = [...reached].filter((file) => file.startsWith("../fixtures/vendors/"));
  const packages = [...reached].flatMap((file) => importsOf(file).filter((target) => !target.startsWith(".") && !target.startsWith("node:")));
  expect({ vendors, packages }).toEqual({ vendors: [], packages: [] });
  expect(reached).toContain("../fixtures/sites/demo-shop.ts");
});

test("reporters and checks read no environment variable: what they need is passed in", () => {
  const reading = FILES.filter((file) => ["report", "checks"].includes(folderOf(file)) && /\bprocess\.env\b/.test(readFileSync(join(SRC, file), "utf8")));
  expect(reading).toEqual([]);
});

// Type-only imports are erased when compiled: types that name each other (a finding names its
// check, a check returns findings) make no cycle of modules at run time, where load order matters.
test("there is no import cycle in src/ at run time", () => {
  const edges = new Map(FILES.map((file) => [file, importsOf(file, { runtime: true }).filter((target) => FILES.includes(target))]));
  expect(cyclesOf(edges)).toEqual([]);
});

/** The strongly connected components of more than one file (or a file importing itself), by Tarjan's algorithm. */
function cyclesOf(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    lowest.set(file, next++);
    stack.push(file);
    for (const target of edges.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(target)!));
      } else if (stack.includes(target)) {
        lowest.set(file, Math.min(lowest.get(file)!, index.get(target)!));
      }
    }
    if (lowest.get(file) !== index.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    if (component.length > 1 || edges.get(file)?.includes(file)) cycles.push(component.sort());
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return cycles;
}
