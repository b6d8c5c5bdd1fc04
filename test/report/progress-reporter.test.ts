import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import type { FullConfig, Suite, TestCase, TestResult } from "@playwright/test/reporter";
import { gatherFailureFileOf } from "../../src/artifacts/gather-failure.js";
import ProgressReporter from "../../src/report/progress-reporter.js";

/** What the reporter printed while `act` ran. */
function printed(act: () => void): string {
  const lines: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((text: string) => lines.push(text) > 0) as typeof process.stdout.write;
  try {
    act();
  } finally {
    process.stdout.write = write;
  }
  return lines.join("");
}

const pageTest = {
  title: "shop › signup",
  annotations: [{ type: "viewports", description: "desktop mobile" }],
} as unknown as TestCase;
const suite = { allTests: () => [pageTest] } as unknown as Suite;

test("one line per page × viewport, each with what it gathered and its own time", () => {
  const reporter = new ProgressReporter();
  const result = {
    duration: 2400,
    annotations: [
      { type: "gathered mobile", description: "gathered, 2 call(s)  2.3 s" },
      { type: "gathered desktop", description: "gathered, 1 call(s)  1.1 s" },
    ],
  } as unknown as TestResult;
  expect(printed(() => (reporter.onBegin({} as FullConfig, suite), reporter.onTestEnd(pageTest, result)))).toBe(
    "Auditing 2 page × viewport combination(s)…\n[1/2] shop › signup · desktop  gathered, 1 call(s)  1.1 s\n[2/2] shop › signup · mobile  gathered, 2 call(s)  2.3 s\n",
  );
});

test("a viewport that never finished shows the test's error and time; the other keeps its result", () => {
  const reporter = new ProgressReporter();
  const result = {
    duration: 180_000,
    error: { message: "Test timeout of 180000ms exceeded.\n  at …" },
    annotations: [{ type: "gathered desktop", description: "gathered, 1 call(s)  1.1 s" }],
  } as unknown as TestResult;
  const output = printed(() => (reporter.onBegin({} as FullConfig, suite), reporter.onTestEnd(pageTest, result)));
  expect(output).toContain("[1/2] shop › signup · desktop  gathered, 1 call(s)  1.1 s\n");
  expect(output).toContain(
    "[2/2] shop › signup · mobile  could not gather: Test timeout of 180000ms exceeded.  180.0 s\n",
  );
});

test("every line hides the run's secrets, an error's text included, in each of their forms", () => {
  const secret = "tok_9f3c2a71e05b";
  const reporter = new ProgressReporter({ secrets: () => [secret] });
  const result = {
    duration: 1200,
    error: { message: `page.goto: net::ERR_ABORTED at http://localhost/?t=${encodeURIComponent(secret)}` },
    annotations: [
      {
        type: "gathered desktop",
        description: `gathered, 1 call(s); could not load: ${Buffer.from(secret).toString("base64")}  1.1 s`,
      },
    ],
  } as unknown as TestResult;
  const output = printed(() => (reporter.onBegin({} as FullConfig, suite), reporter.onTestEnd(pageTest, result)));
  expect(output).toContain("desktop  gathered, 1 call(s); could not load: «redacted»==  1.1 s\n");
  expect(output).toContain(
    "mobile  could not gather: page.goto: net::ERR_ABORTED at http://localhost/?t=«redacted»  1.2 s\n",
  );
  expect(output).not.toContain("tok_9f3c");
});

test("beside a viewport's artifacts that never came, the reporter notes why, hiding the secrets; a viewport whose artifacts came gets no note", async ({}, testInfo) => {
  const secret = "tok_9f3c2a71e05b";
  const dir = testInfo.outputPath("artifacts");
  mkdirSync(dir, { recursive: true });
  const desktop = join(dir, "signup.desktop.json");
  const mobile = join(dir, "signup.mobile.json");
  writeFileSync(desktop, "{}");
  const noted = {
    ...pageTest,
    annotations: [
      ...pageTest.annotations,
      { type: "artifacts desktop", description: desktop },
      { type: "artifacts mobile", description: mobile },
    ],
  } as unknown as TestCase;
  const reporter = new ProgressReporter({ secrets: () => [secret] });
  const result = {
    duration: 180_000,
    error: { message: `page.screenshot: Test timeout of 180000ms exceeded at /?t=${secret}` },
    annotations: [{ type: "gathered desktop", description: "gathered, 1 call(s)  1.1 s" }],
  } as unknown as TestResult;
  printed(() => (reporter.onBegin({} as FullConfig, suite), reporter.onTestEnd(noted, result)));
  expect(existsSync(gatherFailureFileOf(desktop))).toBe(false);
  expect(readFileSync(gatherFailureFileOf(mobile), "utf8")).toBe(
    "could not gather: page.screenshot: Test timeout of 180000ms exceeded at /?t=«redacted»  180.0 s",
  );
});
