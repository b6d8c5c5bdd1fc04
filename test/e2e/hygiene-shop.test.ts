import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import type { RunSummary } from "../../src/results/summary.js";
import { allowRunOf, e2eSpec, findingOf, readSummary, runCli, type CliRun } from "./cli.js";
import { problemsOf } from "../../src/findings/finding.js";

/** Setup hygiene: keys, domain, personal data and experiment targets, each planted on one page. */
test.describe.configure({ mode: "serial" });

const PLANTED_PERSONAL_VALUES = ["jane.doe@example.org", "canary.qa@example.test"];
let summary: RunSummary;
let run: CliRun;
let out: string;

test.beforeAll(async ({}, testInfo) => {
  allowRunOf(testInfo, [e2eSpec("hygiene-shop.yaml")]);
  out = join(testInfo.project.outputDir, "hygiene-shop-run");
  // With its report: no file it wrote may hold a planted personal value.
  run = await runCli(["run", e2eSpec("hygiene-shop.yaml"), "--out", out], {}, { htmlReport: true });
  expect(run.code, run.stdout + run.stderr).toBe(1);
  summary = readSummary(out);
});

const viewports = ["desktop", "mobile"] as const;

test("every planted fault is reported, and nothing else", () => {
  const reported = problemsOf(summary.findings)
    .map((finding) => [finding.check, finding.status, finding.experiment ?? finding.page, finding.viewport].join(" "))
    .sort();
  const planted = [
    ...viewports.flatMap((viewport) => [
      `sdk.key fail production-key ${viewport}`,
      `page.domain fail offsite ${viewport}`,
      `identify.attributes fail identify-nested ${viewport}`,
      `identify.attributes fail identify-missing ${viewport}`,
      `identify.pii fail identify-email ${viewport}`,
      `identify.pii fail canary-leak ${viewport}`,
      `page.errors warn missing-image ${viewport}`,
      `experiment.selector warn Spring banner colour, blue vs green ${viewport}`,
      `experiment.selector fail Plan cards order, price vs popularity ${viewport}`,
    ]),
    "experiment.selector fail Hero CTA wording, benefit vs feature mobile",
    "experiment.name fail  ",
    "experiment.goals fail  ",
  ];
  expect(reported).toEqual(planted.sort());
});

test("the staging page that installs the production key names where the key was seen", () => {
  const finding = findingOf(summary, "sdk.key", { page: "production-key", viewport: "mobile" });
  expect(finding.message).toContain(
    "`prj_broken_prod` (environment \"production\"'s key) is in the SDK's script tag (data-project-key)",
  );
});

test("an image answered 404 is named by its URL, its query value hidden, on both viewports", () => {
  for (const viewport of viewports) {
    const finding = findingOf(summary, "page.errors", { page: "missing-image", viewport });
    expect(finding.message).toBe(
      `1 error(s), first: console "Failed to load resource: the server responded with a status of 404 (Not Found)" for http://127.0.0.1:47413/img/missing-photo.png?session=…. Fix them in the page's code.`,
    );
    expect(JSON.stringify(finding)).not.toContain("s3ss10n-v4lue");
  }
});

test("a redirect off the domain names the URL it reached", () => {
  expect(findingOf(summary, "page.domain", { page: "offsite", viewport: "desktop" }).message).toContain(
    "http://localhost:47413/thanks",
  );
});

test("identify attributes: the nested key and the missing key are named", () => {
  expect(findingOf(summary, "identify.attributes", { page: "identify-nested", viewport: "desktop" }).message).toContain(
    "`company` is a nested object",
  );
  expect(
    findingOf(summary, "identify.attributes", { page: "identify-missing", viewport: "desktop" }).message,
  ).toContain("`account_type` is missing");
});

test("personal data is reported by key, kind and masked value; the canary by host and form", () => {
  expect(findingOf(summary, "identify.pii", { page: "identify-email", viewport: "mobile" }).message).toContain(
    "`contact` holds an email address (j***@e***.org)",
  );
  const canary = findingOf(summary, "identify.pii", { page: "canary-leak", viewport: "mobile" }).message;
  expect(canary).toContain("127.0.0.1:47411");
  expect(canary).toContain("sha256");
});

test("experiment selectors: hidden on mobile, several matches, and a fragile class with a stabler suggestion", () => {
  const finding = (experiment: string, viewport: string) =>
    summary.findings.find(
      (candidate) =>
        candidate.check === "experiment.selector" &&
        candidate.experiment === experiment &&
        candidate.viewport === viewport,
    )!;
  expect(finding("Hero CTA wording, benefit vs feature", "desktop").status).toBe("pass");
  expect(finding("Hero CTA wording, benefit vs feature", "mobile").message).toContain("no visible element on mobile");
  expect(finding("Plan cards order, price vs popularity", "desktop").message).toContain("matches 3 visible elements");
  expect(finding("Spring banner colour, blue vs green", "mobile").message).toContain('[data-banner="spring"]');
});

test("vague names and missing goals are named, with a did-you-mean", () => {
  expect(findingOf(summary, "experiment.name", { viewport: null }).message).toContain('"test 2"');
  expect(findingOf(summary, "experiment.goals", { viewport: null }).message).toContain(
    'did you mean "Signup completed"',
  );
});

test("no file the run wrote, and nothing it printed, holds a planted personal value", () => {
  const files = readdirSync(out, { recursive: true, encoding: "utf8" }).map((name) => join(out, name));
  const texts = [
    run.stdout,
    run.stderr,
    ...files
      .filter((file) => !file.endsWith(".png"))
      .flatMap((file) => {
        try {
          return [readFileSync(file, "latin1")];
        } catch {
          return [];
        }
      }),
  ];
  expect(files.length).toBeGreaterThan(10);
  for (const value of PLANTED_PERSONAL_VALUES) {
    expect(
      texts.filter((text) => text.includes(value)),
      value,
    ).toEqual([]);
  }
});
