import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { chromium } from "playwright";
import { PIXELS_PATH, TRACKER_HOST } from "../../fixtures/consent/site.js";
import { FIXTURE_PORTS } from "../../fixtures/server.js";
import { LAUNCH_ARGS } from "../../src/browser/launch.js";
import { VISITOR_ARGS } from "../../src/browser/visitor.js";
import type { RunSummary } from "../../src/results/summary.js";
import { type Finding, problemsOf } from "../../src/findings/finding.js";
import { testBrowserPath } from "../support/browser.js";
import { allowRunOf, e2eSpec, readSummary, runCli } from "./cli.js";

/**
 * The consent fixtures (fixtures/consent/site.ts): vanilla-cookieconsent and Klaro from npm gate
 * Segment's real bundle. The correct pages pass every check on both viewports, answered by the
 * rules (`auto`) and by explicit selectors; each planted fault gives its check id, page, viewport
 * and status, and nothing else. An advertising tracker's pixel, at its real host, is audited in a
 * browser server that resolves that host to the fixture and no other host at all.
 */
test.describe.configure({ mode: "serial" });

const viewports = ["desktop", "mobile"] as const;
/** Spec-wide checks these specs do not configure (no api, report or experiments section): they skip, saying so. */
const UNCONFIGURED = [
  "api.auth",
  "api.project",
  "api.workspace",
  "api.goals",
  "experiment.name",
  "experiment.goals",
  "report.warnings",
];

let correct: RunSummary;
let faults: RunSummary;

test.beforeAll(async ({}, testInfo) => {
  // Two runs of the CLI, and the limit of both: each consent answer (accept, reject, GPC) is a unit of its own.
  const correctSpecs = ["consent-correct.yaml", "consent-selectors.yaml"].map(e2eSpec);
  const faultSpecs = ["consent-before-faults.yaml", "consent-refusal-faults.yaml", "consent-no-banner.yaml"].map(
    e2eSpec,
  );
  allowRunOf(testInfo, [...correctSpecs, ...faultSpecs]);
  const correctOut = join(testInfo.project.outputDir, "consent-correct-run");
  const correctRun = await runCli(["run", ...correctSpecs, "--out", correctOut]);
  expect(correctRun.code, correctRun.stdout + correctRun.stderr).toBe(0);
  correct = readSummary(correctOut);
  const faultsOut = join(testInfo.project.outputDir, "consent-faults-run");
  const faultsRun = await runCli(["run", ...faultSpecs, "--out", faultsOut]);
  expect(faultsRun.code, faultsRun.stdout + faultsRun.stderr).toBe(1);
  faults = readSummary(faultsOut);
});

/** A finding as the assertions compare it. */
const row = (finding: Finding) => [
  finding.check,
  finding.page,
  finding.viewport,
  finding.status,
  (finding.evidence.unit as string | undefined) ?? null,
];
const order = (rows: unknown[][]) => rows.map((item) => JSON.stringify(item)).sort();
/** The tracker's host answered by the consent fixture, every other host but loopback unresolvable: nothing leaves the machine. */
const TRACKER_TO_FIXTURE = `--host-resolver-rules=MAP ${TRACKER_HOST} 127.0.0.1:${FIXTURE_PORTS.consent}, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1`;

for (const spec of ["consent-correct.yaml", "consent-selectors.yaml"]) {
  test(`${spec}: the correct pages pass every check on both viewports, before consent, after accepting, after refusing and with GPC`, () => {
    const findings = correct.findings.filter((finding) => finding.spec.endsWith(spec));
    expect(
      findings
        .filter(
          (finding) =>
            finding.status !== "pass" && !(finding.status === "skip" && UNCONFIGURED.includes(finding.check)),
        )
        .map(row),
    ).toEqual([]);
    for (const page of ["vcc", "klaro"]) {
      for (const viewport of viewports) {
        const consent = findings
          .filter(
            (finding) => finding.page === page && finding.viewport === viewport && finding.check.startsWith("consent."),
          )
          .map(row);
        expect(consent).toEqual([
          ["consent.banner", page, viewport, "pass", null],
          ["consent.before", page, viewport, "pass", null],
          ["consent.reject", page, viewport, "pass", "reject"],
          ["consent.reject", page, viewport, "pass", "gpc"],
        ]);
        // After accepting, the journey's calls are made and delivered like any page's.
        for (const check of ["sdk.present", "events.expected", "events.delivered", "identify.attributes"]) {
          expect(
            findings.find(
              (finding) => finding.check === check && finding.page === page && finding.viewport === viewport,
            )?.status,
            `${check} ${page} ${viewport}`,
          ).toBe("pass");
        }
      }
    }
  });
}

test("the refusal and GPC units' calls never count for the page's checks, and summary.json marks none of them on correct pages", () => {
  expect(correct.calls.filter((call) => call.unit === "reject" || call.unit === "gpc")).toEqual([]);
  expect(correct.calls.filter((call) => call.name === "signup_success")).toHaveLength(8);
});

test("each planted fault gives its check id, page, viewport and status, and nothing else", () => {
  const problems = problemsOf(faults.findings).map(row);
  const expected = viewports.flatMap((viewport) => [
    // An SDK that loads and tracks before consent, and a cookie written before consent.
    ["consent.before", "ungated", viewport, "fail", null],
    ["consent.before", "cookie", viewport, "fail", null],
    // A collect request after a refusal; a GPC visitor who is tracked.
    ["consent.reject", "leak", viewport, "fail", "reject"],
    ["consent.reject", "gpc", viewport, "warn", "gpc"],
    // consent on a page without a banner.
    ["consent.banner", "no-banner", viewport, "fail", null],
  ]);
  expect(order(problems)).toEqual(order(expected));
});

test("the messages name what was sent or stored, where and when, and what to do", () => {
  const message = (check: string, page: string, unit?: string) =>
    faults.findings.find(
      (finding) =>
        finding.check === check &&
        finding.page === page &&
        finding.viewport === "desktop" &&
        (unit === undefined || finding.evidence.unit === unit),
    )!.message;
  expect(message("consent.before", "ungated")).toMatch(
    /^Before consent was given \(at \d+ ms\), \/consent\/vcc\/segment\?fault=ungated \(desktop\) sent 1 collect request\(s\) \(POST http:\/\/127\.0\.0\.1:47417\/api\/segment\/v1\/p at \d+ ms\); stored the SDK's /,
  );
  expect(message("consent.before", "ungated")).toMatch(/ajs_anonymous_id \(cookie, written at \d+ ms\)/);
  expect(message("consent.before", "ungated")).toContain("Load the SDK only once the visitor consents");
  // Klaro deletes the planted cookie at once: the write log still shows it (its deletion, when the page wrote it before the browser reported changes).
  expect(message("consent.before", "cookie")).toMatch(
    /stored the SDK's ajs_anonymous_id \(cookie, (written|deleted) at \d+ ms\)/,
  );
  expect(message("consent.reject", "leak", "reject")).toMatch(
    /^After consent was refused at \d+ ms \(reject unit\), .*sent 1 collect request\(s\) \(POST http:\/\/127\.0\.0\.1:47417\/api\/segment\/v1\/t at \d+ ms\)/,
  );
  expect(message("consent.reject", "gpc", "gpc")).toContain('track("signup_success")');
  expect(message("consent.reject", "gpc", "gpc")).toContain("Treat navigator.globalPrivacyControl");
  expect(message("consent.banner", "no-banner")).toContain(
    "No consent banner showed within 2000 ms after /consent/none/segment (desktop) loaded: no consent manager the rules know is on the page",
  );
});

test("on a page without a banner, the page's later checks and nothing else skip, saying why", () => {
  for (const viewport of viewports) {
    const page = faults.findings.filter((finding) => finding.page === "no-banner" && finding.viewport === viewport);
    expect(page.find((finding) => finding.check === "page.load")?.status).toBe("pass");
    for (const finding of page.filter(
      (candidate) => !["page.load", "page.domain", "page.access", "consent.banner"].includes(candidate.check),
    )) {
      expect(finding.status, finding.check).toBe("skip");
      expect(finding.message).toContain("consent.banner says why");
    }
  }
});

test("the GPC unit's calls are listed with their unit", () => {
  const gpcCalls = faults.calls.filter((call) => call.page === "gpc" && call.unit === "gpc");
  expect(gpcCalls.map((call) => call.name).filter((name) => name !== null)).toEqual(
    expect.arrayContaining(["signup_success"]),
  );
});

test("a tracker's pixel before consent fails consent.before on both viewports, naming the tracker and its category; fired once consent is given, it passes", async ({}, testInfo) => {
  const server = await chromium.launchServer({
    executablePath: testBrowserPath(),
    args: [...LAUNCH_ARGS, ...VISITOR_ARGS, TRACKER_TO_FIXTURE],
    host: "127.0.0.1",
  });
  try {
    const out = join(testInfo.project.outputDir, "consent-trackers-run");
    const run = await runCli([
      "run",
      e2eSpec("trackers-before-consent.yaml"),
      "--browser-endpoint",
      server.wsEndpoint(),
      "--out",
      out,
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const summary = readSummary(out);
    const problems = problemsOf(summary.findings).map(row);
    expect(order(problems)).toEqual(
      order(viewports.map((viewport) => ["consent.before", "pixel-before", viewport, "fail", null])),
    );
    for (const viewport of viewports) {
      const before = summary.findings.find(
        (finding) =>
          finding.check === "consent.before" && finding.page === "pixel-before" && finding.viewport === viewport,
      )!;
      expect(before.message).toMatch(
        new RegExp(
          `^Before consent was given \\(at \\d+ ms\\), /consent/klaro/segment\\?fault=tracker \\(${viewport}\\) sent 1 request\\(s\\) to 1 known tracker\\(s\\) \\(LinkedIn Ads \\(ad\\): GET http://px\\.ads\\.linkedin\\.com/collect/ at \\d+ ms\\)\\. Load this tracker's tag only once the visitor consents, through the consent manager\\.$`,
        ),
      );
      expect(before.evidence.trackersBefore).toEqual([
        {
          tracker: "LinkedIn Ads",
          category: "ad",
          requests: 1,
          first: { url: "http://px.ads.linkedin.com/collect/", atMs: expect.any(Number) },
        },
      ]);
      expect(
        summary.findings.find(
          (finding) =>
            finding.check === "consent.before" && finding.page === "pixel-gated" && finding.viewport === viewport,
        )?.status,
      ).toBe("pass");
    }
    // The gated pixel was sent all the same, once consent was given: by the Insight tag's script, on each viewport.
    const pixels = (await (await fetch(`http://127.0.0.1:${FIXTURE_PORTS.consent}${PIXELS_PATH}`)).json()) as string[];
    expect(
      pixels.filter((query) => query.includes("fmt=js") && decodeURIComponent(query).includes("pixel=gated")).length,
    ).toBeGreaterThanOrEqual(viewports.length);
  } finally {
    await server.close();
  }
});
