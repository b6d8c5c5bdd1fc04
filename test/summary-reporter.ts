import { relative } from "node:path";
import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/** How many of the slowest test files the summary names: where the suite's time goes. */
const SLOWEST_SHOWN = 10;

/**
 * Ends the output with the slowest test files (their tests' time summed, hooks included) and the
 * plain `N passed, N failed, N skipped` line CI reads.
 */
export default class SummaryReporter implements Reporter {
  private readonly outcomes = new Map<TestCase, TestResult["status"]>();
  private readonly fileMs = new Map<string, number>();

  onTestEnd(test: TestCase, result: TestResult): void {
    this.outcomes.set(test, test.outcome() === "flaky" ? "passed" : result.status);
    const file = relative(process.cwd(), test.location.file);
    this.fileMs.set(file, (this.fileMs.get(file) ?? 0) + result.duration);
  }

  onEnd(): void {
    const count = (...statuses: TestResult["status"][]) =>
      [...this.outcomes.values()].filter((status) => statuses.includes(status)).length;
    const passed = count("passed");
    const failed = count("failed", "timedOut", "interrupted");
    const skipped = count("skipped");
    process.stdout.write(`\n${this.slowestFiles()}\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }

  private slowestFiles(): string {
    const slowest = [...this.fileMs].sort(([, a], [, b]) => b - a).slice(0, SLOWEST_SHOWN);
    return (
      [
        "Slowest test files:",
        ...slowest.map(([file, ms]) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`),
      ].join("\n") + "\n"
    );
  }

  printsToStdio(): boolean {
    return false;
  }
}
