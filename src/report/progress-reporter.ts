import { firstLine } from "../text.js";
import type { FullConfig, Reporter, Suite, TestCase, TestResult } from "@playwright/test/reporter";

/** The live progress line of the gather phase: one line per page × viewport as it finishes. */
export default class ProgressReporter implements Reporter {
  private total = 0;
  private done = 0;

  onBegin(_config: FullConfig, suite: Suite): void {
    this.total = suite.allTests().length;
    process.stdout.write(`Auditing ${this.total} page × viewport combination(s)…\n`);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.done++;
    const width = String(this.total).length;
    const counter = `[${String(this.done).padStart(width)}/${this.total}]`;
    // Each test's group is titled by its viewport (gather/pages.audit.ts).
    const where = `${test.title} · ${test.parent.title}`;
    const annotations = [...result.annotations, ...test.annotations];
    const note = annotations.find((annotation) => annotation.type === "gathered")?.description;
    const outcome =
      result.status === "passed" ? `gathered, ${note ?? "no calls"}` : `could not gather: ${firstLine(result.error?.message)}`;
    process.stdout.write(`${counter} ${where}  ${outcome}  ${(result.duration / 1000).toFixed(1)} s\n`);
  }

  onError(error: { message?: string }): void {
    process.stderr.write(`${firstLine(error.message)}\n`);
  }

  printsToStdio(): boolean {
    return true;
  }
}

