import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/** Ends the output with the plain `N passed, N failed, N skipped` line CI reads. */
export default class SummaryReporter implements Reporter {
  private readonly outcomes = new Map<TestCase, TestResult["status"]>();

  onTestEnd(test: TestCase, result: TestResult): void {
    this.outcomes.set(test, test.outcome() === "flaky" ? "passed" : result.status);
  }

  onEnd(): void {
    const count = (...statuses: TestResult["status"][]) =>
      [...this.outcomes.values()].filter((status) => statuses.includes(status)).length;
    const passed = count("passed");
    const failed = count("failed", "timedOut", "interrupted");
    const skipped = count("skipped");
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
