import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";
import { firstLine } from "../text/wording.js";

/** The console of init's look: the look's own progress lines as it prints them, and why it stopped if it crashed. */
export default class LookReporter implements Reporter {
  onStdOut(chunk: string | Buffer): void {
    process.stdout.write(chunk);
  }

  onTestEnd(_test: TestCase, result: TestResult): void {
    if (result.status !== "passed")
      process.stderr.write(`The look at the site stopped: ${firstLine(result.error?.message ?? result.status)}\n`);
  }

  onError(error: { message?: string }): void {
    process.stderr.write(`${firstLine(error.message)}\n`);
  }

  printsToStdio(): boolean {
    return true;
  }
}
