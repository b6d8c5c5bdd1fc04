import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { EPHEMERAL_PORTS, FIXTURE_PORTS, startFixtures } from "../../fixtures/server.js";
import { KEYS, SDKS, VENDORS } from "../../fixtures/vendors/manifest.js";
import { knownViewports } from "../../src/browser/viewports.js";
import { parseSpec } from "../../src/audit-spec/load.js";
import type { AuditSpec } from "../../src/audit-spec/schema.js";
import type { RunSummary } from "../../src/results/summary.js";
import { type CliRun, readSummary, runCli } from "./cli.js";
import { problemsOf } from "../../src/findings/finding.js";

/**
 * `setup-audit init` on the bundled sites, as a user runs it: the spec it writes validates, and
 * `run` on it passes where the site is right and fails on the faults a page plants on load.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const DEMO_SHOP = `http://127.0.0.1:${FIXTURE_PORTS.demoShop}`;
const SERVICE = `http://127.0.0.1:${FIXTURE_PORTS.service}`;

/** The written spec, its text and its parsed form. */
function writtenSpec(file: string): { text: string; spec: AuditSpec } {
  const text = readFileSync(file, "utf8");
  const parsed = parseSpec(text, file, knownViewports());
  if (!parsed.ok) throw new Error(`${file} does not validate: ${JSON.stringify(parsed.errors)}`);
  return { text, spec: parsed.spec };
}

test("the demo shop: --crawl 5 lists its pages, the service's own SDK gets every field, and the spec's run passes", async ({}, testInfo) => {
  const file = testInfo.outputPath("demo.yaml");
  const init = await runCli(["init", `${DEMO_SHOP}/`, "--crawl", "5", "--out", file]);
  expect(init.code, init.stdout + init.stderr).toBe(0);
  expect(init.stdout).toContain(`Wrote ${file}: window.expsvc, no preset, key prj_demo_staging, 3 page(s).`);

  const { text, spec } = writtenSpec(file);
  const schemaPath = text.split("\n")[0]!.match(/^# yaml-language-server: \$schema=(\S+)$/)?.[1];
  expect(resolve(dirname(file), schemaPath!)).toBe(join(ROOT, "audits/spec.schema.json"));
  expect(spec.pages.map((page) => page.path)).toEqual(["/", "/pricing", "/signup"]);
  expect(spec.environments).toEqual({ production: { key: "prj_demo_staging", baseUrl: DEMO_SHOP } });
  expect(spec.sdk).toMatchObject({
    preset: null,
    script: "**/sdk/v1/sdk.js",
    global: "expsvc",
    track: ["track"],
    identify: ["identify"],
    collect: "**/v1/collect",
  });
  expect(text).not.toMatch(/^\s*preset:/m);
  for (const field of ["script", "track", "identify", "collect"])
    expect(text).toMatch(new RegExp(`^  ${field}: .*# check: `, "m"));
  expect(text).toMatch(/^workspace: .*# check: placeholder/m);
  expect(text).not.toMatch(/^api:/m);

  expect((await runCli(["validate", file])).code).toBe(0);
  const out = testInfo.outputPath("out");
  const run = await runCli(["run", file, "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(readSummary(out).verdict).toBe("pass");
});

test("the demo shop with --api: workspace, project and the api section come from the mock service, and the spec's run passes", async ({}, testInfo) => {
  const file = testInfo.outputPath("demo-api.yaml");
  const init = await runCli(["init", `${DEMO_SHOP}/`, "--out", file, "--api", SERVICE, "--key-env", "SERVICE_API_KEY"]);
  expect(init.code, init.stdout + init.stderr).toBe(0);
  const { text, spec } = writtenSpec(file);
  expect(spec).toMatchObject({ workspace: "Acme Marketing", project: "Demo shop (staging)" });
  expect(spec.api).toEqual({
    baseUrl: SERVICE,
    keyEnv: "SERVICE_API_KEY",
    goalsPath: "/v1/projects/{project}/goals",
    recentEventsPath: "/v1/projects/{project}/events",
  });
  // The service's goal fires only after the signup journey, which init does not walk: it is offered as a comment.
  expect(spec.goals).toEqual([]);
  expect(text).toMatch(/^# {3}- \{ name: "Signup completed", event: signup_success \}/m);

  const out = testInfo.outputPath("out");
  const run = await runCli(["run", file, "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const findings = readSummary(out).findings;
  expect(
    findings
      .filter((finding) => finding.check === "api.workspace" || finding.check === "api.project")
      .map((finding) => finding.status),
  ).toEqual(["pass", "pass"]);
});

test("the broken shop: the spec's run fails on the faults pages plant on load, and on nothing else", async ({}, testInfo) => {
  // A server of this checkout's fixtures, whatever version the shared one runs.
  const fixtures = await startFixtures({ ports: EPHEMERAL_PORTS });
  try {
    const file = testInfo.outputPath("broken.yaml");
    const init = await runCli(["init", `${fixtures.urls.brokenShop}/`, "--crawl", "20", "--out", file]);
    expect(init.code, init.stdout + init.stderr).toBe(0);
    const { text, spec } = writtenSpec(file);
    expect(spec.environments.production?.key).toBe("prj_broken_staging");
    expect(text).toContain(
      "# check: another key, prj_broken_prod, is on production-key · desktop, production-key · mobile",
    );
    expect(spec.identify.required).toEqual(["plan", "account_type"]);
    expect(spec.pages.find((page) => page.id === "queued-call")?.expect).toEqual({
      track: ["hero_seen"],
      identify: false,
    });

    const out = testInfo.outputPath("out");
    const run = await runCli(["run", file, "--out", out]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const failed = new Set(
      readSummary(out)
        .findings.filter((finding) => finding.status === "fail")
        .map((finding) => `${finding.check} ${finding.page} ${finding.viewport}`),
    );
    for (const viewport of ["desktop", "mobile"]) {
      // A call lost before the SDK existed, another environment's key, personal data sent on load.
      expect(failed).toContain(`sdk.order early-call ${viewport}`);
      expect(failed).toContain(`sdk.key production-key ${viewport}`);
      expect(failed).toContain(`identify.pii identify-email ${viewport}`);
    }
    const planted = [
      "sdk.order early-call",
      "sdk.key production-key",
      "identify.pii identify-email",
      "events.delivered rejected-call",
      "events.delivered ready-callback-rejected",
      "page.load offsite-dead",
      "page.domain offsite-dead",
    ];
    expect([...failed].filter((finding) => !planted.some((fault) => finding.startsWith(`${fault} `)))).toEqual([]);
  } finally {
    await fixtures.close();
  }
});

/** What `init` printed for one site, and the spec file it wrote. */
interface InitOf {
  init: CliRun;
  file: string;
}

/**
 * Runs `init` on each site, one after another, into a spec file of its own name, then one `run` of
 * every spec written, as a user audits several specs at once: the tests of a group judge their
 * site's part of the one summary (one audit's start instead of one per site). The folder is emptied
 * first: after a failed test the runner calls the hook again in a new worker.
 */
async function initEachThenRunAll(
  sites: readonly { name: string; url: string }[],
  dir: string,
): Promise<{ inits: Map<string, InitOf>; summary: RunSummary }> {
  // The limit catches hangs: each site's init and its share of the run, as one test's limit did before.
  test.info().setTimeout(sites.length * test.info().project.timeout);
  rmSync(dir, { recursive: true, force: true });
  const inits = new Map<string, InitOf>();
  for (const { name, url } of sites) {
    const file = join(dir, `${name}.yaml`);
    inits.set(name, { init: await runCli(["init", url, "--out", file]), file });
  }
  const written = [...inits.values()].filter(({ init }) => init.code === 0).map(({ file }) => file);
  // Without a spec, run would audit audits/*.yaml instead.
  if (written.length === 0) throw new Error(`init wrote no spec: ${JSON.stringify([...inits.values()])}`);
  const out = join(dir, "out");
  const run = await runCli(["run", ...written, "--out", out]);
  expect(existsSync(join(out, "summary.json")), run.stdout + run.stderr).toBe(true);
  return { inits, summary: readSummary(out) };
}

/** The verdict and the findings of the spec written into `file`, in a summary of several specs. */
function specPart(
  summary: RunSummary,
  file: string,
): { verdict: string | undefined; findings: RunSummary["findings"] } {
  const ofFile = (spec: string) => spec.endsWith(`/${basename(file)}`);
  return {
    verdict: summary.runs.find((run) => ofFile(run.spec))?.verdict,
    findings: summary.findings.filter((finding) => ofFile(finding.spec)),
  };
}

/** What the findings that did not pass said, for a failed assertion to show (a group's folder is emptied when its hook runs again). */
function notPassedSaid(findings: RunSummary["findings"]): string {
  const notPassed = problemsOf(findings);
  return notPassed
    .map((finding) => `${finding.check} ${finding.viewport} ${finding.status}: ${finding.message}`)
    .join("\n");
}

/** Each viewport's status for one check, in the order of the findings. */
function statusPerViewport(findings: RunSummary["findings"], check: string) {
  return findings.filter((finding) => finding.check === check).map((finding) => [finding.viewport, finding.status]);
}

test.describe("vendor snippets", () => {
  // One worker takes the group's tests in order: the shared audit runs once.
  test.describe.configure({ mode: "default" });
  let group: Awaited<ReturnType<typeof initEachThenRunAll>>;

  test.beforeAll(async ({}, testInfo) => {
    const sites = VENDORS.map((vendor) => ({
      name: vendor,
      url: `http://127.0.0.1:${FIXTURE_PORTS.vendors}/${vendor}/snippet/correct`,
    }));
    group = await initEachThenRunAll(sites, join(testInfo.project.outputDir, "init-vendor-snippets"));
  });

  for (const vendor of VENDORS) {
    const { preset } = SDKS[vendor];
    // Every install's look is proven in test/init/site-look.test.ts; the command, on the snippet's.
    test(`${vendor}'s snippet page: init names the ${preset} preset and the staging key, and the spec's run finds the SDK`, () => {
      const { init, file } = group.inits.get(vendor)!;
      expect(init.code, init.stdout + init.stderr).toBe(0);
      expect(init.stdout).toContain(`preset ${preset}, key ${KEYS[vendor].staging}`);
      const { text, spec } = writtenSpec(file);
      expect(spec.sdk.preset).toBe(preset);
      expect(text).toMatch(new RegExp(`^  preset: ${preset}  # `, "m"));
      expect(spec.environments.production?.key).toBe(KEYS[vendor].staging);
      const { verdict, findings } = specPart(group.summary, file);
      expect(verdict, notPassedSaid(findings)).toBe("pass");
      expect(statusPerViewport(findings, "sdk.present")).toEqual([
        ["desktop", "pass"],
        ["mobile", "pass"],
      ]);
    });
  }
});

const EXPERIMENT_SDK_SHOPS = [
  // The SDK bundled into the site's code: only its registry of clients tells it.
  [`http://127.0.0.1:${FIXTURE_PORTS.statsig}/bundled-shop`, "statsig", "client-statsig-staging"],
  [`http://127.0.0.1:${FIXTURE_PORTS.launchdarkly}/shop`, "launchdarkly", "ld-client-staging"],
  // No global and no registry: only its request for its flags tells it.
  [`http://127.0.0.1:${FIXTURE_PORTS.launchdarkly}/bundled-shop`, "launchdarkly", "ld-client-staging"],
  // The key only the datafile names, once the client is ready.
  [`http://127.0.0.1:${FIXTURE_PORTS.optimizely}/shop`, "optimizely", "opt-staging-4fJ2"],
  // Bundled, no global: the URL of its request for its datafile names the key.
  [`http://127.0.0.1:${FIXTURE_PORTS.optimizely}/bundled-shop`, "optimizely", "opt-staging-4fJ2"],
  [`http://127.0.0.1:${FIXTURE_PORTS.amplitudeExperiment}/shop`, "amplitude-experiment", "client-amp-staging-3Kp8"],
  // Flags the analytics SDK evaluates and logs itself, under its own key: no key of their own.
  [`http://127.0.0.1:${FIXTURE_PORTS.posthogFlags}/shop`, "posthog", null],
] as const;

/** A shop's name among the group's spec files: its preset and its page. */
const shopName = (site: string, preset: string) => `${preset}${new URL(site).pathname.replaceAll("/", "-")}`;

test.describe("experimentation SDKs' shops", () => {
  test.describe.configure({ mode: "default" });
  let group: Awaited<ReturnType<typeof initEachThenRunAll>>;

  test.beforeAll(async ({}, testInfo) => {
    const sites = EXPERIMENT_SDK_SHOPS.map(([site, preset]) => ({ name: shopName(site, preset), url: site }));
    group = await initEachThenRunAll(sites, join(testInfo.project.outputDir, "init-experiment-sdks"));
  });

  for (const [site, preset, key] of EXPERIMENT_SDK_SHOPS) {
    test(`${preset}'s ${new URL(site).pathname}: init writes experimentSdk, the key its client was made with and the flag evaluated; the spec's run passes its assignment and asks for the experiment's goal`, () => {
      const { init, file } = group.inits.get(shopName(site, preset))!;
      expect(init.code, init.stdout + init.stderr).toBe(0);
      expect(init.stdout).toContain(
        `experimentation SDK ${preset} (${key === null ? "the analytics SDK's key" : `key ${key}`}, 1 flag(s))`,
      );
      const { spec } = writtenSpec(file);
      expect(spec.experimentSdk?.preset).toBe(preset);
      expect(spec.environments.production?.experimentKey).toBe(key ?? undefined);
      expect(spec.experiments.map((experiment) => experiment.flag)).toEqual(["pricing_cta"]);
      const { verdict, findings } = specPart(group.summary, file);
      expect(verdict).toBe("fail");
      expect(statusPerViewport(findings, "experiment.assignment"), notPassedSaid(findings)).toEqual([
        ["desktop", "pass"],
        ["mobile", "pass"],
      ]);
      // What fails the spec is what init cannot know, and marked for a check: the goals the experiment measures.
      const failed = problemsOf(findings);
      expect(
        failed.map((finding) => finding.check),
        notPassedSaid(findings),
      ).toEqual(["experiment.goals"]);
    });
  }
});

for (const [manager, cmp] of [
  ["vcc", "cookieconsent3"],
  ["klaro", "Klaro"],
] as const) {
  test(`a site behind ${manager}'s consent banner: init says it met the banner, accepts it to see the SDK, writes the consent section, and the spec's run passes`, async ({}, testInfo) => {
    const file = testInfo.outputPath(`consent-${manager}.yaml`);
    const init = await runCli([
      "init",
      `http://127.0.0.1:${FIXTURE_PORTS.consent}/consent/${manager}/segment`,
      "--out",
      file,
    ]);
    expect(init.code, init.stdout + init.stderr).toBe(0);
    expect(init.stdout).toContain(
      `Met the consent banner of ${cmp} and accepted it to see the SDK: the spec's consent section audits it.`,
    );
    expect(init.stdout).toContain(`preset segment, key ${KEYS.segment.staging}`);
    const { text, spec } = writtenSpec(file);
    expect(spec.consent).toEqual({ accept: "auto", reject: "auto", gpc: true, timeoutMs: 5000 });
    expect(text).toContain(
      `# The site asks for consent before it tracks: init met the banner of ${cmp} and accepted it to see the SDK.`,
    );
    const out = testInfo.outputPath("out");
    const run = await runCli(["run", file, "--out", out]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const consent = readSummary(out).findings.filter((finding) => finding.check.startsWith("consent."));
    expect(consent.map((finding) => finding.status)).toEqual(Array(8).fill("pass"));
  });
}

for (const [variant, verdict] of [
  ["correct", "pass"],
  ["double", "fail"],
] as const) {
  test(`a single-page app (${variant}): init's journey follows its first in-app link and the spec's run judges the route change's page views (${verdict})`, async ({}, testInfo) => {
    const app = `http://127.0.0.1:${FIXTURE_PORTS.vendors}/spa/posthog/${variant}/`;
    const file = testInfo.outputPath(`spa-${variant}.yaml`);
    const init = await runCli(["init", app, "--out", file]);
    expect(init.code, init.stdout + init.stderr).toBe(0);
    expect(init.stdout).toContain("(a journey through its first in-app link)");
    const { text, spec } = writtenSpec(file);
    expect(spec.sdk.pageViews).toBe(true);
    expect(spec.pages.map((page) => page.steps)).toEqual([
      [{ click: "#nav-pricing" }, { waitForUrl: `**/spa/posthog/${variant}/pricing` }],
    ]);
    expect(text).toContain("    steps:  # check: the page's first link to another route");
    const out = testInfo.outputPath("out");
    const run = await runCli(["run", file, "--out", out]);
    expect(run.code, run.stdout + run.stderr).toBe(verdict === "pass" ? 0 : 1);
    const pageviews = readSummary(out).findings.filter((finding) => finding.check === "events.pageviews");
    expect(pageviews.map((finding) => [finding.viewport, finding.status])).toEqual([
      ["desktop", verdict],
      ["mobile", verdict],
    ]);
    // PostHog's automatic page view beside the app's own on the route change: the fault the journey brings out.
    if (verdict === "fail")
      for (const finding of pageviews)
        expect(finding.message).toContain(`/spa/posthog/double/pricing (after a route change) got 2 page views`);
  });
}

test("an unreachable URL exits 3 with what to do, and writes nothing", async ({}, testInfo) => {
  const file = testInfo.outputPath("nowhere.yaml");
  const init = await runCli(["init", "http://127.0.0.1:9/", "--out", file]);
  expect(init.code).toBe(3);
  expect(init.stderr).toMatch(
    /^setup-audit: Could not reach http:\/\/127\.0\.0\.1:9\/ \(\w+\)\.\nCheck the URL and that the site is up, then run init again\.\n$/,
  );
  expect(existsSync(file)).toBe(false);
});

test("an existing file is kept: exit 2, unless --force; a site whose links load other documents gets no journey", async ({}, testInfo) => {
  const file = testInfo.outputPath("kept.yaml");
  writeFileSync(file, "# mine\n");
  const init = await runCli(["init", `${DEMO_SHOP}/`, "--out", file]);
  expect(init.code).toBe(2);
  expect(init.stderr).toContain(`setup-audit: ${file} exists already, and init keeps it`);
  expect(init.stderr).toContain("Pass --force to replace it");
  expect(readFileSync(file, "utf8")).toBe("# mine\n");
  expect((await runCli(["init", `${DEMO_SHOP}/`, "--out", file, "--force"])).code).toBe(0);
  expect(readFileSync(file, "utf8")).toMatch(/^# yaml-language-server: /);
  // The demo shop's links load other documents: init walks no single-page route.
  expect(writtenSpec(file).spec.pages.map((page) => page.steps)).toEqual([[]]);
});
