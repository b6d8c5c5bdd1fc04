import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { chromium } from "playwright";
import { stringify } from "yaml";
import { vendorSpec } from "../../fixtures/vendors/audit-specs.js";
import { DEFAULTS_INSTALL, findVendorPage, KEYS } from "../../fixtures/vendors/manifest.js";
import { FIXTURE_PORTS } from "../../fixtures/server.js";
import type { PageArtifacts } from "../../src/artifacts/types.js";
import { LAUNCH_ARGS } from "../../src/browser/launch.js";
import { auditLaunchOptions } from "../../src/browser/visitor.js";
import { toolVersion } from "../../src/package/version.js";
import type { RunSummary } from "../../src/results/summary.js";
import { testBrowserPath } from "../support/browser.js";
import { readSummary, runCli } from "./cli.js";

/**
 * The audit's browser is a visitor's on every run, with or without `consent`, and on a browser
 * server too: PostHog's snippet with PostHog's defaults (its bot filter on) passes
 * events.delivered on both viewports, and every page saw `navigator.webdriver` false and a user
 * agent without "Headless" that names the browser's own major version (as its client hints do:
 * test/browser/visitor.test.ts), with the audit's suffix.
 */
test.describe.configure({ mode: "serial" });

const VIEWPORTS = ["desktop", "mobile"];
const DEFAULTS_PAGE = `${DEFAULTS_INSTALL}-correct`;
const SUFFIX = `setup-audit/${toolVersion()}`;

/** The spec of PostHog's defaults page alone, on both viewports. */
function defaultsSpec(): Record<string, unknown> {
  const origin = `http://127.0.0.1:${FIXTURE_PORTS.vendors}`;
  return vendorSpec("posthog", "preset", origin, VIEWPORTS, [findVendorPage(`/posthog/${DEFAULTS_INSTALL}/correct`)!]);
}

/** PostHog's snippet as it is, held back by vanilla-cookieconsent until the rules accept its banner. */
function consentSpec(): Record<string, unknown> {
  return {
    workspace: "Acme Marketing",
    project: "Consent shop",
    environments: { staging: { key: KEYS.posthog.staging, baseUrl: `http://127.0.0.1:${FIXTURE_PORTS.consent}` } },
    sdk: { preset: "posthog" },
    consent: { accept: "auto" },
    viewports: VIEWPORTS,
    goals: [{ name: "Signup completed", event: "signup_success" }],
    pages: [
      {
        id: "vcc-posthog",
        path: "/consent/vcc/posthog",
        steps: [{ click: "#signup" }, { waitForEvent: "signup_success" }],
        expect: { track: ["signup_success"], identify: true },
      },
    ],
  };
}

/** True when a spec as the outputs name it (relative to where the CLI ran) is `file`. */
function isSpec(named: string, file: string): boolean {
  return file.endsWith(`/${named}`) || named === file;
}

function writeSpec(dir: string, name: string, spec: Record<string, unknown>): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, stringify(spec));
  return file;
}

/** The saved artifacts of `page`'s units in `spec`, one per viewport. */
function savedPages(out: string, spec: string, page: string): PageArtifacts[] {
  const dir = join(out, "artifacts", "pages");
  const pages = readdirSync(dir).map((file) => JSON.parse(readFileSync(join(dir, file), "utf8")) as PageArtifacts);
  return pages
    .filter((saved) => isSpec(saved.spec, spec) && saved.page === page)
    .sort((a, b) => a.viewport.localeCompare(b.viewport));
}

/** The version of the browser the audit launches here, as Playwright reports it. */
async function auditBrowserVersion(): Promise<string> {
  const browser = await chromium.launch(auditLaunchOptions(testBrowserPath() ?? null));
  try {
    return browser.version();
  } finally {
    await browser.close();
  }
}

/** On both viewports: events.delivered passes, and the page saw a visitor's browser of `browserVersion` with the audit's tag. */
function expectVisitor(summary: RunSummary, out: string, page: string, spec: string, browserVersion: string): void {
  const delivered = summary.findings.filter(
    (finding) => finding.check === "events.delivered" && finding.page === page && isSpec(finding.spec, spec),
  );
  expect(delivered.map((finding) => [finding.viewport, finding.status, finding.message]).sort()).toEqual(
    VIEWPORTS.map((viewport) => [
      viewport,
      "pass",
      expect.stringMatching(/^All \d+ call\(s\) were delivered and accepted/),
    ]),
  );
  const calls = summary.calls.filter(
    (call) =>
      call.page === page && isSpec(call.spec, spec) && (call.name === "signup_success" || call.kind === "identify"),
  );
  expect(calls.map((call) => [call.viewport, call.kind, call.delivery]).sort()).toEqual(
    VIEWPORTS.flatMap((viewport) => [
      [viewport, "identify", "accepted"],
      [viewport, "track", "accepted"],
    ]),
  );
  const saved = savedPages(out, spec, page);
  expect(saved.map((artifacts) => artifacts.viewport)).toEqual(VIEWPORTS);
  for (const artifacts of saved) {
    expect(artifacts.visitor?.webdriver, artifacts.viewport).toBe(false);
    expect(artifacts.visitor?.online, artifacts.viewport).toBe(true);
    expect(artifacts.visitor?.userAgent, artifacts.viewport).not.toMatch(/headless/i);
    expect(artifacts.visitor?.userAgent, artifacts.viewport).toMatch(
      new RegExp(
        `Chrome/${browserVersion.split(".")[0]}\\.0\\.0\\.0 (Mobile )?Safari/537\\.36 ${SUFFIX.replaceAll(".", "\\.")}$`,
      ),
    );
  }
}

test("without and with consent, PostHog's defaults pass on both viewports and the pages saw a visitor's browser; a user agent its bot filter reads is named with its setting", async ({}, testInfo) => {
  const dir = join(testInfo.project.outputDir, "visitor-run");
  const specs = {
    defaults: writeSpec(join(dir, "specs"), "posthog-defaults.yaml", defaultsSpec()),
    consent: writeSpec(join(dir, "specs"), "posthog-consent.yaml", consentSpec()),
    // The same page, audited with a suffix that PostHog's list of bots' user agents has (`bot/`).
    botSuffix: writeSpec(join(dir, "specs"), "posthog-bot-suffix.yaml", {
      ...defaultsSpec(),
      traffic: { userAgentSuffix: "qa-bot/1" },
    }),
  };
  const out = join(dir, "out");
  const run = await runCli(["run", specs.defaults, specs.consent, specs.botSuffix, "--save-artifacts", "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  const summary = readSummary(out);
  const failed = summary.findings
    .filter((finding) => finding.status === "fail")
    .map((finding) => `${finding.spec.split("/").at(-1)} ${finding.check} ${finding.page} ${finding.viewport}`);
  expect(failed.sort()).toEqual(
    VIEWPORTS.map((viewport) => `posthog-bot-suffix.yaml events.delivered ${DEFAULTS_PAGE} ${viewport}`),
  );
  const correct = {
    ...summary,
    findings: summary.findings.filter((finding) => !isSpec(finding.spec, specs.botSuffix)),
    calls: summary.calls.filter((call) => !isSpec(call.spec, specs.botSuffix)),
  };
  const browserVersion = await auditBrowserVersion();
  expectVisitor(correct, out, DEFAULTS_PAGE, specs.defaults, browserVersion);
  expectVisitor(correct, out, "vcc-posthog", specs.consent, browserVersion);
  expect(correct.findings.filter((finding) => finding.check === "page.errors" && finding.status !== "pass")).toEqual(
    [],
  );
  expect(
    correct.findings
      .filter((finding) => finding.check === "consent.banner" && finding.status === "pass")
      .map((finding) => finding.viewport)
      .sort(),
  ).toEqual(VIEWPORTS);
  for (const finding of summary.findings.filter(
    (finding) => isSpec(finding.spec, specs.botSuffix) && finding.check === "events.delivered",
  )) {
    expect(finding.message).toContain("was never delivered");
    expect(finding.message).toContain(
      "PostHog (posthog-js) drops the calls of a browser it takes for a bot's, and took the audit's for one (its user agent",
    );
    expect(finding.message).toContain(
      "qa-bot/1` has `bot/`): set `opt_out_useragent_filter: true` in `posthog.init` where the audit runs, or keep `bot/` out of the audit's user agent",
    );
  }
});

test("on a browser server launched as an automated one, the audit's contexts still present a visitor's browser, and PostHog's defaults pass", async ({}, testInfo) => {
  const server = await chromium.launchServer({
    executablePath: testBrowserPath(),
    args: LAUNCH_ARGS,
    host: "127.0.0.1",
  });
  try {
    // The server's own pages say they are automated: only what the audit sets per context makes them a visitor's.
    const probe = await chromium.connect(server.wsEndpoint());
    const page = await probe.newPage();
    expect(await page.evaluate(() => navigator.webdriver)).toBe(true);
    const serverVersion = probe.version();
    await probe.close();
    const dir = join(testInfo.project.outputDir, "visitor-remote-run");
    const out = join(dir, "out");
    const spec = writeSpec(join(dir, "specs"), "posthog-defaults.yaml", defaultsSpec());
    const run = await runCli(
      ["run", spec, "--browser-endpoint", server.wsEndpoint(), "--save-artifacts", "--out", out],
      {
        SETUP_AUDIT_BROWSER: "/nonexistent/no-local-browser-needed",
      },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expectVisitor(readSummary(out), out, DEFAULTS_PAGE, spec, serverVersion);
  } finally {
    await server.close();
  }
});
