import { firstLine } from "../text/wording.js";
import type { FullConfig, Reporter, Suite, TestCase, TestResult } from "@playwright/test/reporter";

/**
 * The live progress of the gather phase: one line per page × viewport as it finishes. A test
 * gathers every viewport of one page (gather/pages.audit.ts): its `viewports` annotation names
 * them, and a `gathered VIEWPORT` annotation says what each one gathered and in how long. A
 * closed site's login (gather/login.audit.ts) says, per viewport, whether it got in.
 */
export default class ProgressReporter implements Reporter {
  private total = 0;
  private done = 0;

  onBegin(_config: FullConfig, suite: Suite): void {
    this.total = suite.allTests().reduce((sum, test) => sum + annotated(test, "viewports").length, 0);
    process.stdout.write(`Auditing ${this.total} page × viewport combination(s)…\n`);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // A login comes before the pages and is none of them: a line per viewport, outside the count.
    for (const viewport of annotated(test, "logins")) {
      const outcome = result.annotations.find((annotation) => annotation.type === `logged in ${viewport}`)?.description;
      process.stdout.write(`Login ${test.title} · ${viewport}  ${outcome ?? `could not walk it: ${firstLine(result.error?.message)}`}\n`);
    }
    const width = String(this.total).length;
    for (const viewport of annotated(test, "viewports")) {
      this.done++;
      const counter = `[${String(this.done).padStart(width)}/${this.total}]`;
      const outcome = result.annotations.find((annotation) => annotation.type === `gathered ${viewport}`)?.description;
      // A viewport that never finished has no annotation: the test's error and time are its.
      process.stdout.write(`${counter} ${test.title} · ${viewport}  ${outcome ?? `could not gather: ${firstLine(result.error?.message)}  ${(result.duration / 1000).toFixed(1)} s`}\n`);
    }
  }

  onError(error: { message?: string }): void {
    process.stderr.write(`${firstLine(error.message)}\n`);
  }

  printsToStdio(): boolean {
    return true;
  }
}

/** The viewports an annotation of the test lists. */
function annotated(test: TestCase, type: "viewports" | "logins"): string[] {
  return test.annotations.find((annotation) => annotation.type === type)?.description?.split(" ") ?? [];
}
