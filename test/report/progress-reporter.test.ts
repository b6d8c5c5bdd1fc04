import { expect, test } from "@playwright/test";
import type { FullConfig, Suite, TestCase, TestResult } from "@playwright/test/reporter";
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

const pageTest = { title: "shop › signup", annotations: [{ type: "viewports", description: "desktop mobile" }] } as unknown as TestCase;
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
  expect(output).toContain("[2/2] shop › signup · mobile  could not gather: Test timeout of 180000ms exceeded.  180.0 s\n");
});
