import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, posix, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { chromium } from "playwright";
import { parse, stringify } from "yaml";
import { FIXTURE_PORTS } from "../../fixtures/server.js";
import { FIXTURE_API_KEY } from "../../fixtures/service/api.js";
import { findBrowser } from "../../src/browser/launch.js";
import type { RunSummary } from "../../src/results/summary.js";
import { runCompositeAction } from "../support/composite-action.js";
import { runCommand, type CliRun } from "./cli.js";
import { installedProject, pack, projectEnv, type PackResult } from "../support/installed-package.js";
import { scratchDir } from "../support/scratch.js";

/**
 * setup-audit as a team uses it: `npm pack` of this checkout installed into a project of its own
 * outside the repository, where `npx setup-audit …` runs from the project's root, and the GitHub
 * Action (action.yml) run as GitHub runs it. One install serves every test here, in order.
 */

test.describe.configure({ mode: "serial" });

const ROOT = resolve(import.meta.dirname, "../..");
const DEMO_SHOP = `http://127.0.0.1:${FIXTURE_PORTS.demoShop}`;
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  dependencies: Record<string, string>;
};

let tarballDir: string;
let packed: PackResult;
let project: string;

test.beforeAll(async () => {
  tarballDir = scratchDir("setup-audit-pack");
  packed = await pack(tarballDir);
  project = await installedProject(tarballDir, packed);
});

test.afterAll(() => {
  for (const folder of [tarballDir, project]) if (folder) rmSync(folder, { recursive: true, force: true });
});

/** Runs `npx setup-audit ARGS…` in the project, as its team would, offline. */
function npx(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runCommand("npx", ["setup-audit", ...args], { cwd: project, env: projectEnv(env) });
}

function projectSummary(out = "reports"): RunSummary {
  return JSON.parse(readFileSync(join(project, out, "summary.json"), "utf8")) as RunSummary;
}

/** The viewports a run's findings are about. */
function viewportsOf(summary: RunSummary): string[] {
  return [
    ...new Set(summary.findings.flatMap((finding) => (finding.viewport === null ? [] : [finding.viewport]))),
  ].sort();
}

test("npm pack ships the compiled CLI, the demo and its spec, the docs the README links to, and no test, source or vendor fixture", () => {
  const files = packed.files.map((file) => file.path);
  for (const file of [
    "package.json",
    "bin/setup-audit.js",
    "dist/src/cli/main.js",
    "dist/playwright.config.js",
    "dist/src/gather/pages.audit.js",
    "dist/src/report/progress-reporter.js",
    "dist/fixtures/demo.js",
    "dist/fixtures/service/sdk.js",
    "dist/src/browser/devices.json",
    "audits/demo-shop.yaml",
    "audits/spec.schema.json",
    "audits/summary.schema.json",
    "docs/getting-started.md",
    "docs/report.png",
  ]) {
    expect(files).toContain(file);
  }
  expect(existsSync(join(project, "node_modules/setup-audit/docs/spec.md"))).toBe(true);
  const shipped =
    /^(package\.json|README\.md|bin\/setup-audit\.js|dist\/playwright\.config\.js|dist\/(src|fixtures)\/[\w/.-]+\.js|dist\/src\/browser\/devices\.json|audits\/(demo-shop\.yaml|spec\.schema\.json|summary\.schema\.json)|docs\/[\w-]+\.(md|png))$/;
  expect(files.filter((file) => !shipped.test(file))).toEqual([]);
  // The vendor SDK site (fixtures/vendors/) needs the vendors' bundles, development dependencies;
  // the audit's own knowledge of the vendors (src/vendors/) ships.
  expect(files.filter((file) => /(^|\/)(test|tests)\/|fixtures\/vendors\/|\.test\.|\.ts$/.test(file))).toEqual([]);
  // It runs compiled: no TypeScript compiler or runner among what an install brings.
  expect(Object.keys(manifest.dependencies).filter((name) => ["tsx", "typescript", "ts-node"].includes(name))).toEqual(
    [],
  );
  expect(Object.keys(manifest.dependencies)).toEqual(expect.arrayContaining(["@playwright/test", "playwright"]));
});

test("every module the package loads is shipped in it, one of its dependencies, or Node's own", () => {
  const installed = join(project, "node_modules/setup-audit");
  const modules = packed.files.map((file) => file.path).filter((file) => file.endsWith(".js"));
  const builtins = new Set(builtinModules);
  const problems = modules.flatMap((file) => {
    const text = readFileSync(join(installed, file), "utf8");
    const specifiers = [
      ...text.matchAll(
        /\bfrom\s+"([^"\s]+)"|^import\s+"([^"\s]+)"|\bimport\(\s*"([^"\s]+)"\s*\)|require\.resolve\(\s*"([^"\s]+)"/gm,
      ),
    ].map((match) => (match[1] ?? match[2] ?? match[3] ?? match[4])!);
    return specifiers.flatMap((specifier) => {
      if (specifier.startsWith("."))
        return existsSync(join(installed, posix.join(posix.dirname(file), specifier)))
          ? []
          : [`${file}: ${specifier} is not shipped`];
      const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!;
      return specifier.startsWith("node:") || builtins.has(name) || name in manifest.dependencies
        ? []
        : [`${file}: ${specifier} is not a dependency`];
    });
  });
  expect(problems).toEqual([]);
  // The scan reads what it should: the CLI's modules, the demo's and the dynamic imports among them.
  expect(modules).toContain("dist/src/cli/demo.js");
  expect(readFileSync(join(installed, "dist/src/cli/main.js"), "utf8")).toMatch(/import\("\.\/demo\.js"\)/);
});

test("the tracker database the consent watch reads loads from the installed package, offline, and names a tracker", async () => {
  const trackers = join(project, "node_modules/setup-audit/dist/src/gather/trackers.js");
  const script = `const { trackerMatcher } = await import(${JSON.stringify(pathToFileURL(trackers).href)});
    const trackerOf = await trackerMatcher("https://shop.example.com/");
    console.log(JSON.stringify([trackerOf("https://www.facebook.com/tr?id=1&ev=PageView"), trackerOf("https://shop.example.com/app.js")]));`;
  const lookup = await runCommand(process.execPath, ["--input-type=module", "--eval", script], {
    cwd: project,
    env: projectEnv(),
  });
  expect(lookup.code, lookup.stderr).toBe(0);
  expect(JSON.parse(lookup.stdout)).toEqual([{ name: "Facebook", category: "social" }, null]);
});

test("setup-audit --version names the installed version, and demo passes on both viewports, offline, on free ports", async () => {
  expect(await npx(["--version"])).toMatchObject({ code: 0, stdout: `${manifest.version}\n` });

  // A key of the user's own stays theirs: the demo audits the mock service with the mock's key.
  const demo = await npx(["demo"], { SERVICE_API_KEY: "the-teams-own-key" });
  expect(demo.code, demo.stdout + demo.stderr).toBe(0);
  const [, shopPort] =
    demo.stdout.match(
      /^Started the demo shop at http:\/\/127\.0\.0\.1:(\d+) and the mock service at http:\/\/127\.0\.0\.1:(\d+)/m,
    ) ?? [];
  expect(Number(shopPort)).not.toBe(FIXTURE_PORTS.demoShop);
  expect(demo.stdout).toContain(
    "Setup checklist — Demo shop (staging, node_modules/setup-audit/audits/demo-shop.yaml)",
  );
  expect(demo.stdout).toMatch(/^Verdict: PASS/m);
  expect(demo.stdout).toContain("The demo's report: reports/audit-report.html");
  const summary = projectSummary();
  expect(summary.verdict).toBe("pass");
  expect(viewportsOf(summary)).toEqual(["desktop", "mobile"]);
  expect(
    summary.findings.filter((finding) => finding.check === "api.project").map((finding) => finding.status),
  ).toEqual(["pass"]);
  expect(existsSync(join(project, "reports/audit-report.html"))).toBe(true);
});

test("init writes a spec for a site into the project's audits/, and run, validate, report, baseline, merge and schema work on it", async () => {
  const init = await npx(["init", `${DEMO_SHOP}/`, "--crawl", "5"]);
  expect(init.code, init.stdout + init.stderr).toBe(0);
  const file = join(project, "audits/127.0.0.1.yaml");
  const text = readFileSync(file, "utf8");
  // Editors find the schema in the installed package.
  const schemaPath = text.split("\n")[0]!.match(/^# yaml-language-server: \$schema=(\S+)$/)?.[1];
  expect(resolve(dirname(file), schemaPath!)).toBe(join(project, "node_modules/setup-audit/audits/spec.schema.json"));
  expect(existsSync(resolve(dirname(file), schemaPath!))).toBe(true);

  expect((await npx(["validate"])).code).toBe(0);
  const run = await npx(["run"]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toContain("Setup checklist — 127.0.0.1 (production, audits/127.0.0.1.yaml)");
  const summary = projectSummary();
  expect(summary.runs.map((entry) => [entry.spec, entry.verdict, entry.checklist.mobileAndDesktop])).toEqual([
    ["audits/127.0.0.1.yaml", "pass", "pass"],
  ]);
  expect(viewportsOf(summary)).toEqual(["desktop", "mobile"]);

  expect((await npx(["report", "--single-file"])).code).toBe(0);
  expect(existsSync(join(project, "reports/html/index.html"))).toBe(true);
  const baseline = await npx(["baseline"]);
  expect(baseline.code, baseline.stdout + baseline.stderr).toBe(0);
  expect(readdirSync(join(project, "audits")).filter((name) => name.endsWith(".baseline.json"))).toHaveLength(1);
  const shard = await npx(["run", "--shard", "1/1", "--page", "home", "--out", "shard-1"]);
  expect(shard.code, shard.stdout + shard.stderr).toBe(0);
  const merged = await npx(["merge", "shard-1", "--out", "merged"]);
  expect(merged.code, merged.stdout + merged.stderr).toBe(0);
  expect(projectSummary("merged").verdict).toBe("pass");
  const schema = await npx(["schema"]);
  expect(JSON.parse(schema.stdout)).toMatchObject({ title: "setup-audit spec" });
  const summarySchema = await npx(["schema", "--summary"]);
  expect(JSON.parse(summarySchema.stdout)).toEqual(
    JSON.parse(readFileSync(join(project, "node_modules/setup-audit/audits/summary.schema.json"), "utf8")),
  );
});

/** The browser the suite audits with, for SETUP_AUDIT_BROWSER: the action installs none then, since this machine may have no internet. */
function browserPath(): string {
  const choice = findBrowser();
  if (!choice.found) throw new Error(`No browser for the tests: ${choice.problem}`);
  return choice.executablePath ?? chromium.executablePath();
}

test("the GitHub Action masks the key, audits with the project's setup-audit, writes the job summary and outputs the verdict, and uploads the output folder", async () => {
  rmSync(join(project, "audits"), { recursive: true });
  mkdirSync(join(project, "audits"));
  copyFileSync(join(ROOT, "audits/demo-shop.yaml"), join(project, "audits/demo-shop.yaml"));
  const run = await runCompositeAction(ROOT, {
    workspace: project,
    inputs: { specs: "audits/*.yaml", environment: "staging", workers: "2", out: "action-out" },
    env: projectEnv({ SERVICE_API_KEY: FIXTURE_API_KEY, SETUP_AUDIT_BROWSER: browserPath() }),
  });
  expect(run.failed, run.log).toBeNull();
  // The key is masked before any step prints, and printed nowhere but in masks (GitHub shows none).
  expect(run.log.startsWith(`::add-mask::${FIXTURE_API_KEY}\n`)).toBe(true);
  expect(
    run.log.split("\n").filter((line) => line.includes(FIXTURE_API_KEY) && !line.startsWith("::add-mask::")),
  ).toEqual([]);
  expect(run.log).toContain(
    `setup-audit ${manifest.version}, from the project's node_modules (${join(project, "node_modules/setup-audit")})`,
  );
  expect(run.outputs).toEqual({ verdict: "pass", "exit-code": "0", report: "action-out/audit-report.html" });
  expect(run.summary).toContain("## setup-audit: ✅ PASS");
  expect(run.summary).toContain("### Demo shop (staging, `audits/demo-shop.yaml`): pass");
  expect(run.log).not.toMatch(/^::(error|warning) /m);
  expect(run.uses).toEqual([
    {
      uses: "actions/upload-artifact@v4",
      with: { name: "setup-audit-report", path: "action-out", "if-no-files-found": "warn" },
    },
  ]);
  for (const output of ["summary.json", "junit.xml", "audit-report.html"])
    expect(existsSync(join(project, "action-out", output))).toBe(true);
});

test("the GitHub Action annotates a failed check on its spec, outputs verdict fail, uploads the report and then fails the job", async () => {
  const spec = parse(readFileSync(join(ROOT, "audits/demo-shop.yaml"), "utf8")) as Record<string, unknown> & {
    pages: { id: string }[];
  };
  // The goal's event differs from what the signup page fires: goals.match fails on both viewports.
  const wrongGoal = {
    ...spec,
    goals: [{ name: "Signup completed", event: "signup_succeeded" }],
    experiments: [],
    pages: spec.pages.filter((page) => page.id === "signup"),
  };
  writeFileSync(join(project, "audits/demo-shop.yaml"), stringify(wrongGoal));
  const run = await runCompositeAction(ROOT, {
    workspace: project,
    inputs: { specs: "audits/demo-shop.yaml", strict: "true", out: "failed-out", artifact: "failed-audit" },
    env: projectEnv({ SERVICE_API_KEY: FIXTURE_API_KEY, SETUP_AUDIT_BROWSER: browserPath() }),
  });
  expect(run.failed).toEqual({ step: "Verdict", code: 1 });
  expect(run.outputs).toEqual({ verdict: "fail", "exit-code": "1", report: "failed-out/audit-report.html" });
  expect(run.summary).toContain("## setup-audit: ❌ FAIL");
  expect(run.summary).toMatch(
    /\| ❌ fail \| `goals\.match` \| audits\/demo-shop\.yaml · Signup completed · desktop \|/,
  );
  // Annotated on the spec at the goal's entry.
  const goalLine =
    readFileSync(join(project, "audits/demo-shop.yaml"), "utf8")
      .split("\n")
      .findIndex((line) => line.includes("name: Signup completed")) + 1;
  expect(run.log).toMatch(
    new RegExp(
      `^::error file=audits/demo-shop\\.yaml,line=${goalLine},col=\\d+,title=goals\\.match \\[Signup completed · mobile\\]::`,
      "m",
    ),
  );
  expect(run.uses.map((step) => step.with)).toEqual([
    { name: "failed-audit", path: "failed-out", "if-no-files-found": "warn" },
  ]);
  expect(existsSync(join(project, "failed-out/audit-report.html"))).toBe(true);
});

test("the GitHub Action runs its own build where the project has no setup-audit, and refuses a key where the key's variable name belongs", async () => {
  const empty = scratchDir("setup-audit-empty-project");
  try {
    const own = await runCompositeAction(ROOT, {
      workspace: empty,
      inputs: { specs: "audits/none.yaml" },
      env: projectEnv({ SETUP_AUDIT_BROWSER: browserPath() }),
    });
    expect(own.log).toContain(`setup-audit ${manifest.version}, from the action's folder (${ROOT})`);
    // The spec does not exist: setup-audit exits 2, the verdict says it could not run.
    expect(own.outputs).toMatchObject({ verdict: "error", "exit-code": "2" });
    expect(own.failed).toEqual({ step: "Verdict", code: 2 });

    const literal = await runCompositeAction(ROOT, {
      workspace: empty,
      inputs: { "key-env": "sk-live-1234" },
      env: projectEnv(),
    });
    expect(literal.failed).toEqual({ step: "Mask the API key", code: 2 });
    expect(literal.log).toMatch(
      /^::error title=setup-audit::The key-env input must be the NAME of an environment variable/m,
    );
    expect(literal.log).not.toContain("sk-live-1234");
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});
