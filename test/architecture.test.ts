import { readdirSync, readFileSync } from "node:fs";
import { join, posix, sep } from "node:path";
import { expect, test } from "@playwright/test";

/**
 * Imports go one way (docs/architecture.md): the CLI reaches everything; the spec loader reads YAML into a
 * spec; the plan says what a run audits; the API side and the browser side gather without
 * judging; checks judge the plan's artifacts without a browser or I/O; reporters read the run's
 * result. Each folder of src/ lists what it may import (as Playwright's DEPS files do): this reads
 * every import of every file of src/ to keep it so, and keeps the import graph free of cycles.
 */
const SRC = join(import.meta.dirname, "../src");

/** Every TypeScript file of src/, as a path relative to it with `/` separators (`cli/run.ts`, `schedule/plan.ts`). */
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
  const statement = runtime
    ? /^(?:import|export)\s(?!type\s)[^;]*?from\s+"([^"]+)"|^import\s+"([^"]+)"/gms
    : /^(?:import|export)\s[^;]*?from\s+"([^"]+)"|^import\s+"([^"]+)"/gms;
  // A module loaded when it is needed (`await import("./run.js")`) is imported all the same.
  const dynamic = /(?<![\w.])import\(\s*"([^"]+)"\s*\)/g;
  const sources = [
    ...[...text.matchAll(statement)].map((match) => (match[1] ?? match[2])!),
    ...[...text.matchAll(dynamic)].map((match) => match[1]!),
  ];
  return sources.map((source) =>
    source.startsWith(".") ? posix.normalize(posix.join(posix.dirname(file), source.replace(/\.js$/, ".ts"))) : source,
  );
}

/**
 * What the files of each folder of src/ may import besides their own folder: a folder of src/
 * (`results`), one module of it (`api/match.ts`), a module outside src/ (`../fixtures/demo.ts`),
 * or a package by name (`playwright`, `node:fs`; a package's subpaths with it).
 */
const ALLOWED: Record<string, { why: string; may: readonly string[] }> = {
  api: {
    why: "the service API's client and gatherer judge nothing, and its settings come in as plain values",
    may: ["privacy", "text", "url", "undici", "zod", "node:fs", "node:path"],
  },
  artifacts: {
    why: "artifacts are plain data, and the rules about them pure: the service's elements as the API normalises them, the spec's types, the personal data a saved call carries, and the text and URL helpers they read with",
    may: ["api", "privacy", "audit-spec", "text", "url", "vendors"],
  },
  browser: {
    why: "the browser is found and its devices named here, for whoever drives it, and Playwright's packages loaded",
    may: ["playwright", "@playwright/test", "node:fs", "node:module"],
  },
  checks: {
    why: "a check is a pure function of the spec, the plan and the artifacts: no browser, no I/O, no package; of the API side, its matching rules alone",
    may: [
      "api/match.ts",
      "artifacts",
      "findings",
      "schedule",
      "privacy",
      "audit-spec",
      "text",
      "tracking-plan/types.ts",
      "url",
      "vendors",
    ],
  },
  cli: {
    why: "the CLI reaches everything, a browser of its own for the report's pictures, and the bundled fixtures through the demo alone",
    may: [
      "api",
      "artifacts",
      "browser",
      "checks",
      "findings",
      "gather/unopened-page.ts",
      "init",
      "package",
      "schedule",
      "privacy",
      "report",
      "results",
      "runner",
      "audit-spec",
      "text",
      "tracking-plan",
      "url",
      "../fixtures/demo.ts",
      "playwright",
      "undici",
      "yaml",
      "node:child_process",
      "node:crypto",
      "node:fs",
      "node:module",
      "node:os",
      "node:path",
      "node:url",
      "node:util",
    ],
  },
  findings: {
    why: "what a judgement is (the check ids, a finding, its status, the checklist) sits below every layer that judges or reports, and imports nothing",
    may: [],
  },
  gather: {
    why: "gathering drives the browser and never judges; the API is gathered once by the CLI, never from a page",
    may: [
      "artifacts",
      "browser",
      "package",
      "schedule",
      "privacy",
      "audit-spec",
      "text",
      "url",
      "vendors",
      "playwright",
      "@playwright/test",
      "third-party-web",
      "node:crypto",
      "node:fs",
      "node:module",
      "node:path",
      "node:util",
      "node:zlib",
    ],
  },
  init: {
    why: "init drafts a spec from what the gatherer records, with the runner's errors and phases; it reports no audit",
    may: [
      "api",
      "artifacts",
      "browser",
      "checks",
      "gather",
      "package",
      "schedule",
      "privacy",
      "runner",
      "audit-spec",
      "text",
      "url",
      "vendors",
      "playwright",
      "@playwright/test",
      "node:crypto",
      "node:fs",
      "node:os",
      "node:path",
    ],
  },
  package: {
    why: "setup-audit's own folder and version, read from its package.json",
    may: ["node:fs", "node:path", "node:url"],
  },
  schedule: {
    why: "the plan is made from the spec alone (naming the kinds of units the artifacts carry, each viewport's device and the fields to mask), read from the file the CLI wrote, and recorded without what only the gatherer may see",
    may: [
      "artifacts/types.ts",
      "audit-spec",
      "browser/viewports.ts",
      "privacy/redact.ts",
      "privacy/secrets.ts",
      "url",
      "node:fs",
    ],
  },
  privacy: {
    why: "what may be shown is decided from the spec and the values alone",
    may: ["audit-spec", "text", "node:net"],
  },
  report: {
    why: "reporters render the run's result and summary.json alone (each finding with its check's title, severity and family as judged), never a check, the spec, the API or the browser side",
    may: [
      "artifacts",
      "findings",
      "package",
      "schedule/titles.ts",
      "privacy",
      "results",
      "text",
      "@allurereport/core",
      "@allurereport/core-api",
      "@allurereport/plugin-awesome",
      "@playwright/test",
      "allure-js-commons",
      "node:crypto",
      "node:fs",
      "node:path",
      "node:url",
    ],
  },
  results: {
    why: "results are built from the plan's targets, the judged artifacts and the checks' registry",
    may: ["artifacts", "checks", "findings", "schedule", "privacy", "text", "zod", "node:path"],
  },
  runner: {
    why: "what the CLI and init share to run a phase: the errors and exit codes, Playwright's runner, whether a site answers",
    may: ["package", "schedule", "undici", "node:child_process", "node:module", "node:url"],
  },
  "audit-spec": {
    why: "the spec loader turns YAML into a spec and needs nothing of the audit but the check ids its `checks` section names and the vendors' presets",
    may: ["findings", "text", "url", "vendors", "yaml", "zod", "node:crypto", "node:fs", "node:path"],
  },
  text: { why: "text helpers depend on nothing of the audit", may: ["zod"] },
  "tracking-plan": {
    why: "a tracking plan is read from its file or folder and compiled with a JSON Schema validator, its problems placed as a spec's are, or drafted from calls; it judges no page",
    may: [
      "privacy/redact.ts",
      "audit-spec/errors.ts",
      "audit-spec/locate.ts",
      "text",
      "yaml",
      "ajv",
      "ajv-formats",
      "node:fs",
      "node:path",
    ],
  },
  url: { why: "URL rules depend on nothing of the audit", may: ["text"] },
  vendors: {
    why: "what the audit knows of each vendor's SDK, its preset and the shape of its events, is plain data and pure readers",
    may: ["text"],
  },
};

/** Whether `target` (as importsOf names it) is what an entry of an allow-list names. */
function allows(entry: string, target: string): boolean {
  if (entry.endsWith(".ts")) return target === entry;
  if (target.endsWith(".ts")) return folderOf(target) === entry && !target.startsWith("../");
  return target === entry || target.startsWith(`${entry}/`);
}

test("every folder of src/ lists what it may import, and only folders that exist do", () => {
  expect(Object.keys(ALLOWED).sort()).toEqual([...new Set(FILES.map(folderOf))].sort());
});

test("Playwright's packages are loaded in one place, with require (src/browser/playwright.ts): an ESM import of them costs each process a third of a second of CPU", () => {
  const playwrightPackage = /^(@playwright\/test|playwright(-core)?)(\/|$)/;
  const importing = FILES.filter((file) =>
    importsOf(file, { runtime: true }).some((target) => playwrightPackage.test(target)),
  );
  expect(importing).toEqual([]);
});

test("at most two source files sit at the top of src/: the rest live in folders that say what they hold", () => {
  expect(FILES.filter((file) => folderOf(file) === ".").length).toBeLessThanOrEqual(2);
});

for (const [folder, { why, may }] of Object.entries(ALLOWED)) {
  test(`src/${folder} imports only what it may: ${why}`, () => {
    const offending = FILES.filter((file) => folderOf(file) === folder).flatMap((file) =>
      importsOf(file)
        .filter(
          (target) =>
            !(target.endsWith(".ts") && folderOf(target) === folder && !target.startsWith("../")) &&
            !may.some((entry) => allows(entry, target)),
        )
        .map((target) => `${file} imports ${target}`),
    );
    expect(offending).toEqual([]);
  });
}

/** Every module reached from `starts` through the imports `follows` accepts, the starts included. */
function reachedFrom(starts: readonly string[], follows: (target: string) => boolean): Set<string> {
  const reached = new Set<string>();
  const visit = (file: string): void => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const target of importsOf(file)) if (follows(target)) visit(target);
  };
  starts.forEach(visit);
  return reached;
}

/** The folder of src/ an import or an allow-list entry lands in (`checks` for `checks/index.ts`); null for a package or a module outside src/. */
function folderOfImport(target: string): string | null {
  const folder = target.split("/")[0]!;
  return folder in ALLOWED ? folder : null;
}

/** The pairs of folders that each reach the other through `edges` (folder → folders), each pair once, sorted. */
function mutualPairs(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  return [...edges]
    .flatMap(([from, targets]) =>
      [...targets].filter((to) => from < to && edges.get(to)?.has(from)).map((to) => `${from} <-> ${to}`),
    )
    .sort();
}

// Layers point one way: two folders that may import each other are one layer in two places, and a
// change to either must read both.
test("the allow-list lets no two folders import each other", () => {
  const allowed = new Map(
    Object.entries(ALLOWED).map(([folder, { may }]) => [
      folder,
      new Set(may.flatMap((entry) => folderOfImport(entry) ?? []).filter((target) => target !== folder)),
    ]),
  );
  expect(mutualPairs(allowed)).toEqual([]);
});

test("no two folders of src/ import each other", () => {
  const imported = new Map<string, Set<string>>();
  for (const file of FILES) {
    const from = folderOf(file);
    const targets = imported.get(from) ?? new Set<string>();
    imported.set(from, targets);
    for (const target of importsOf(file))
      if (FILES.includes(target) && folderOf(target) !== from) targets.add(folderOf(target));
  }
  expect(mutualPairs(imported)).toEqual([]);
  // The check itself: a pair that imports both ways is named.
  expect(
    mutualPairs(
      new Map([
        ["a", new Set(["b"])],
        ["b", new Set(["a"])],
        ["c", new Set(["a"])],
      ]),
    ),
  ).toEqual(["a <-> b"]);
});

test("the spec loader reaches no Playwright, not even through the modules it imports", () => {
  const reached = reachedFrom(
    FILES.filter((file) => folderOf(file) === "audit-spec"),
    (target) => FILES.includes(target),
  );
  const playwright = [...reached].flatMap((file) =>
    importsOf(file)
      .filter((target) => /^(playwright|@playwright\/)/.test(target))
      .map((target) => `${file} imports ${target}`),
  );
  expect(playwright).toEqual([]);
});

test("only cli/demo.ts reaches the bundled fixtures", () => {
  const reaching = FILES.filter((file) => importsOf(file).some((target) => target.startsWith("../fixtures/")));
  expect(reaching).toEqual(["cli/demo.ts"]);
});

// The package ships the demo compiled (npm run build) and nothing else of fixtures/: the vendor
// SDK site needs the vendors' bundles, which are development dependencies.
test("the demo reaches no vendor SDK fixture and no package, only Node's own modules", () => {
  const reached = reachedFrom(["../fixtures/demo.ts"], (target) => target.startsWith("../fixtures/"));
  const vendors = [...reached].filter((file) => file.startsWith("../fixtures/vendors/"));
  const packages = [...reached].flatMap((file) =>
    importsOf(file).filter((target) => !target.startsWith(".") && !target.startsWith("node:")),
  );
  expect({ vendors, packages }).toEqual({ vendors: [], packages: [] });
  expect(reached).toContain("../fixtures/sites/demo-shop.ts");
});

test("reporters and checks read no environment variable: what they need is passed in", () => {
  const reading = FILES.filter(
    (file) =>
      ["report", "checks"].includes(folderOf(file)) && /\bprocess\.env\b/.test(readFileSync(join(SRC, file), "utf8")),
  );
  expect(reading).toEqual([]);
});

// Type-only imports are erased when compiled: types that name each other (a finding names its
// check, a check returns findings) make no cycle of modules at run time, where load order matters.
test("there is no import cycle in src/ at run time", () => {
  const edges = new Map(
    FILES.map((file) => [file, importsOf(file, { runtime: true }).filter((target) => FILES.includes(target))]),
  );
  expect(cyclesOf(edges)).toEqual([]);
});

// Type imports count here: a reader follows them too. Two types that name each other (a check and
// the inputs it may need) are one idea in two files; a longer circle is a layer that knows what it
// serves (the gatherer's hub once knew its parts, through the options it was given: 21 files).
test("no import cycle in src/ spans more than two files, type imports included", () => {
  const edges = new Map(FILES.map((file) => [file, importsOf(file).filter((target) => FILES.includes(target))]));
  expect(cyclesOf(edges).filter((cycle) => cycle.length > 2)).toEqual([]);
  // The check itself: a circle of three is found, a pair is left alone.
  const circle = new Map([
    ["a", ["b"]],
    ["b", ["c"]],
    ["c", ["a"]],
    ["d", ["e"]],
    ["e", ["d"]],
  ]);
  expect(cyclesOf(circle)).toEqual([
    ["a", "b", "c"],
    ["d", "e"],
  ]);
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

// What users rely on is written in docs/: a comment that cites a document the repository does not
// hold sends its reader nowhere.
test("no source file names a document outside the repository", () => {
  const docs = /\b[A-Z][A-Z-]+\.md\b/g;
  const outside = FILES.flatMap((file) =>
    [...readFileSync(join(SRC, file), "utf8").matchAll(docs)]
      .map((match) => match[0])
      .filter((name) => !["README.md"].includes(name))
      .map((name) => `${file} names ${name}`),
  );
  expect(outside).toEqual([]);
});

// A newcomer finds a check by its id: `sdk.key` is in checks/sdk/key.ts, and nothing else is.
test("each check is defined alone in a file of its family's folder, named by its id", () => {
  const misplaced = FILES.filter((file) => folderOf(file) === "checks").flatMap((file) => {
    const ids = [...readFileSync(join(SRC, file), "utf8").matchAll(/defineCheck\(\{\s*id: "([^"]+)"/g)].map(
      (match) => match[1]!,
    );
    const named = file.replace(/^checks\/(.+)\/([^/]+)\.ts$/, "$1.$2");
    return ids.length === 0 || (ids.length === 1 && ids[0] === named) ? [] : [`${file} defines ${ids.join(", ")}`];
  });
  expect(misplaced).toEqual([]);
});
