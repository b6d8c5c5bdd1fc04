import type { Reporter, TestError } from "@playwright/test/reporter";

/**
 * The report phase's console reporter: its tests replay findings (failing ones fail by design),
 * so only errors of the phase itself are worth printing.
 */
export default class QuietReporter implements Reporter {
  onError(error: TestError): void {
    process.stderr.write(`Could not write the Allure results: ${error.message ?? error.value ?? "unknown error"}\n`);
  }

  printsToStdio(): boolean {
    return true;
  }
}
