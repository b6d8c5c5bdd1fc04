import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { parse, stringify } from "yaml";
import { runCli, runCommand } from "./cli.js";

test("validate exits 2 and names file:line:col for each invalid spec", async () => {
  const run = await runCli([
    "validate",
    "test/audit-spec/specs/syntax-error.yaml",
    "test/audit-spec/specs/misspelled-key.yaml",
    "test/audit-spec/specs/wrong-type.yaml",
  ]);
  expect(run.code).toBe(2);
  for (const file of ["syntax-error", "misspelled-key", "wrong-type"]) {
    expect(run.stderr).toMatch(new RegExp(`test/audit-spec/specs/${file}\\.yaml:\\d+:\\d+ `));
  }
  expect(run.stderr).toContain("did you mean");
});

test("validate exits 0 on a valid spec", async () => {
  const run = await runCli(["validate", "audits/demo-shop.yaml"]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain("✓ audits/demo-shop.yaml");
});

test("run refuses an invalid spec with exit 2 and audits nothing", async ({}, testInfo) => {
  const run = await runCli(["run", "test/audit-spec/specs/misspelled-key.yaml", "--out", testInfo.outputPath("out")]);
  expect(run.code).toBe(2);
  expect(run.stdout).not.toContain("Auditing");
});

test("run stops with exit 2 at a tracking plan's exact key, even where the plan used to crash the loader", async ({}, testInfo) => {
  // A rudder-cli catalog whose custom types are made of each other: a stack overflow before, now an error naming the cycle.
  const catalog = testInfo.outputPath("catalog");
  mkdirSync(catalog, { recursive: true });
  writeFileSync(
    join(catalog, "types.yaml"),
    [
      "version: rudder/v1",
      "kind: custom-types",
      "metadata: { name: types }",
      "spec:",
      "  types:",
      '    - { id: Money, name: Money, type: "#custom-type:Amount" }',
      '    - { id: Amount, name: Amount, type: "#custom-type:Money" }',
      "",
    ].join("\n"),
  );
  const file = (kind: string, spec: string) =>
    `version: rudder/v1\nkind: ${kind}\nmetadata: { name: ${kind} }\nspec: ${spec}\n`;
  writeFileSync(join(catalog, "events.yaml"), file("events", "{ events: [{ id: paid, name: Paid }] }"));
  writeFileSync(
    join(catalog, "properties.yaml"),
    file("properties", '{ properties: [{ id: total, name: total, type: "#custom-type:Money" }] }'),
  );
  writeFileSync(
    join(catalog, "plan.yaml"),
    file(
      "tracking-plan",
      '{ id: shop, rules: [{ event: "#event:paid", properties: [{ property: "#property:total" }] }] }',
    ),
  );
  const spec = testInfo.outputPath("shop.yaml");
  writeFileSync(
    spec,
    stringify({
      ...parse(readFileSync(join(import.meta.dirname, "../../audits/demo-shop.yaml"), "utf8")),
      trackingPlan: { file: "catalog" },
    }),
  );
  const run = await runCli(["run", spec, "--out", testInfo.outputPath("out")]);
  expect(run.code, run.stdout + run.stderr).toBe(2);
  expect(run.stderr).toContain(
    `${join(catalog, "types.yaml")}:7:41 spec.types[1].type: makes a cycle of custom types, Money → Amount → Money: a type cannot be made of itself`,
  );
  expect(run.stdout).not.toContain("Auditing");
});

test("bad flags exit 2 with a hint", async () => {
  const run = await runCli(["run", "--shard", "3/2"]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("--shard must look like 1/3");
  expect((await runCli(["run", "--env", "nowhere", "audits/demo-shop.yaml"])).stderr).toContain(
    "Use --env with one of: staging, production",
  );
});

test("demo takes no spec: exit 2 with what it does", async () => {
  const run = await runCli(["demo", "audits/demo-shop.yaml"]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('demo takes no spec ("audits/demo-shop.yaml"): it audits the bundled demo shop');
});

test("--version prints the version of package.json", async () => {
  const { version } = JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8")) as {
    version: string;
  };
  expect(await runCli(["--version"])).toMatchObject({ code: 0, stdout: `${version}\n` });
});

test("a setup-audit that is not built exits 3 saying to build it", async ({}, testInfo) => {
  const bin = testInfo.outputPath("bin/setup-audit.js");
  mkdirSync(testInfo.outputPath("bin"));
  copyFileSync(join(import.meta.dirname, "../../bin/setup-audit.js"), bin);
  const run = await runCommand(process.execPath, [bin, "--version"], { cwd: testInfo.outputPath(), env: process.env });
  expect(run.code).toBe(3);
  expect(run.stderr).toContain("setup-audit: it is not built (dist/ is missing).\nRun `npm run build`");
});

test("a missing browser exits 3 with one line on how to get one", async () => {
  const run = await runCli(["run", "audits/demo-shop.yaml"], { SETUP_AUDIT_BROWSER: "/nonexistent/chromium" });
  expect(run.code).toBe(3);
  expect(run.stderr).toContain("Run `npx playwright@1.65.1 install chromium`, or set SETUP_AUDIT_BROWSER");
});

test("an unreachable site exits 3", async ({}, testInfo) => {
  const run = await runCli([
    "run",
    "audits/demo-shop.yaml",
    "--base-url",
    "http://127.0.0.1:9",
    "--out",
    testInfo.outputPath("out"),
  ]);
  expect(run.code).toBe(3);
  expect(run.stderr).toContain("Could not reach http://127.0.0.1:9");
});

test("--no-html with --single-file or --open exits 2 and says to leave one out, for run and merge alike", async ({}, testInfo) => {
  const out = testInfo.outputPath("out");
  for (const [args, flag, verb] of [
    [["run", "audits/demo-shop.yaml", "--out", out, "--no-html", "--single-file"], "--single-file", "write"],
    [["merge", out, "--out", out, "--open", "--no-html"], "--open", "open"],
  ] as const) {
    const run = await runCli(args);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toContain(`--no-html builds no HTML report, so ${flag} has none to ${verb}`);
    expect(run.stderr).toContain("Leave one of them out.");
  }
});
