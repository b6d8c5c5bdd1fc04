import type { TestCase, TestResult } from "@playwright/test/reporter";
import { AllureReporter } from "allure-playwright";
import { readRunResult } from "../run-result.js";
import { toolVersion } from "../version.js";
import { environmentInfo } from "./environment-info.js";

/** allure-playwright's options, as playwright.config.ts passes them. */
type AllureOptions = ConstructorParameters<typeof AllureReporter>[0];

/**
 * The report phase's Allure reporter: allure-playwright, plus the run's environment info, with a
 * failed result reported as failed although it was declared expected, minus Playwright's
 * "error-context" attachment (a prompt for code assistants about a failing test; here
 * a failure is the audit's verdict, not a bug in the test).
 */
export default class AuditAllureReporter extends AllureReporter {
  constructor(options: AllureOptions) {
    const run = readRunResult();
    const pages = run.targets.flatMap(({ result }) => result.pages);
    super({ ...options, environmentInfo: environmentInfo(run.targets.map(({ target }) => target), pages, toolVersion()) });
  }

  override async onTestEnd(test: TestCase, result: TestResult): Promise<void> {
    result.attachments = result.attachments.filter((attachment) => attachment.name !== "error-context");
    // A result fails by declaring its failure expected (so its worker lives on): for Allure it failed.
    test.expectedStatus = "passed";
    await super.onTestEnd(test, result);
  }
}
