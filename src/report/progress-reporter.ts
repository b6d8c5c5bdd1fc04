import { existsSync, writeFileSync } from "node:fs";
import { firstLine } from "../text/wording.js";
import { gatherFailureFileOf } from "../artifacts/gather-failure.js";
import type { FullConfig, Reporter, Suite, TestCase, TestResult } from "@playwright/test/reporter";
import { scrubText } from "../privacy/redact.js";

/**
 * The live progress of the gather phase: one line per page × viewport as it finishes. A test
 * gathers every viewport of one page (gather/pages.audit.ts): its `viewports` annotation names
 * them, and a `gathered VIEWPORT` annotation says what each one gathered and in how long. A
 * closed site's login (gather/login.audit.ts) says, per viewport, whether it got in. Every line,
 * errors included, is scrubbed of the run's secrets as they stand when it is printed (a login
 * yields some).
 */
export default class ProgressReporter implements Reporter {
  private total = 0;
  private done = 0;
  private readonly secrets: () => readonly string[];

  /** `secrets` reads what the lines hide, as the run knows it at the time (playwright.config.ts gives it). */
  constructor(options: { secrets?: () => readonly string[] } = {}) {
    this.secrets = options.secrets ?? (() => []);
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    this.total = suite.allTests().reduce((sum, test) => sum + annotated(test, "viewports").length, 0);
    process.stdout.write(`Auditing ${this.total} page × viewport combination(s)…\n`);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // A login comes before the pages and is none of them: a line per viewport, outside the count.
    for (const viewport of annotated(test, "logins")) {
      const outcome = result.annotations.find((annotation) => annotation.type === `logged in ${viewport}`)?.description;
      this.print(
        `Login ${test.title} · ${viewport}  ${outcome ?? `could not walk it: ${firstLine(result.error?.message)}`}`,
      );
    }
    const width = String(this.total).length;
    for (const viewport of annotated(test, "viewports")) {
      this.done++;
      const counter = `[${String(this.done).padStart(width)}/${this.total}]`;
      const outcome = result.annotations.find((annotation) => annotation.type === `gathered ${viewport}`)?.description;
      // A viewport that never finished has no annotation: the test's error and time are its.
      const said =
        outcome ?? `could not gather: ${firstLine(result.error?.message)}  ${(result.duration / 1000).toFixed(1)} s`;
      this.print(`${counter} ${test.title} · ${viewport}  ${said}`);
      const artifacts = annotationOf(test, `artifacts ${viewport}`);
      if (artifacts !== undefined && !existsSync(artifacts))
        writeFileSync(gatherFailureFileOf(artifacts), scrubText(said, this.secrets()));
    }
  }

  onError(error: { message?: string }): void {
    process.stderr.write(`${scrubText(firstLine(error.message), this.secrets())}\n`);
  }

  private print(line: string): void {
    process.stdout.write(`${scrubText(line, this.secrets())}\n`);
  }

  printsToStdio(): boolean {
    return true;
  }
}

/** The description of the test's annotation `type`, as the gatherer wrote it. */
function annotationOf(test: TestCase, type: string): string | undefined {
  return test.annotations.find((annotation) => annotation.type === type)?.description;
}

/** The viewports an annotation of the test lists. */
function annotated(test: TestCase, type: "viewports" | "logins"): string[] {
  return annotationOf(test, type)?.split(" ") ?? [];
}
