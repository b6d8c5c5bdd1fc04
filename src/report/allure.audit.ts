import { existsSync } from "node:fs";
import { join } from "node:path";
import { test as base } from "@playwright/test";
import * as allure from "allure-js-commons/sync";
import { attachContent, attachFile, logStep } from "./allure-messages.js";
import type { PageArtifacts } from "../artifacts.js";
import { CHECKS, checkOf } from "../checks/index.js";
import { callDeliveries, type CallDelivery } from "../delivery.js";
import { pageTitle, viewportTag } from "../titles.js";
import type { Finding, Status } from "../results.js";
import { keepPlainStacks } from "../plain-stacks.js";
import { readRunResult, type ReportTarget } from "../run-result.js";
import { CHECKLIST_STORY, checklistSteps } from "./checklist.js";
import { failedFamilies, FAMILY_LABEL } from "./families.js";
import { pageAttachments, type RedactionContext } from "./page-attachments.js";
import { scrubText } from "../redact.js";
import { severityOf } from "./severity.js";
import { variationPicture } from "./variation-pictures.js";

/**
 * The report phase: replays the findings as Allure results so the report reads like the audit —
 * per spec × environment the setup checklist first, then one result per page × viewport with one
 * step per check, one per goal × viewport, and one for the spec-wide checks. Nothing is gathered
 * or judged here; a result fails exactly when one of its checks failed. It reads the run's result
 * only; the secrets to scrub come in as an option (playwright.config.ts).
 */
keepPlainStacks();
const run = readRunResult();
const test = base.extend<{ secrets: readonly string[] }>({ secrets: [[], { option: true }] });

const ALLURE_STATUS: Record<Status, allure.Status> = {
  pass: allure.Status.PASSED,
  warn: allure.Status.BROKEN,
  fail: allure.Status.FAILED,
  skip: allure.Status.SKIPPED,
};
const CHECKLIST_WHY =
  "The service's own checks before anyone trusts a setup's numbers: the right workspace, the right " +
  "project key or domain, goals whose conditions equal the events the pages fire, mobile and desktop " +
  "both checked, and no bot/SRM or dropped-event warning. Each item is the worst status of the checks " +
  "that feed it; open the page results below for the evidence.";

for (const { target, result } of run.targets) {
  const redaction = (secrets: readonly string[]): RedactionContext => ({ keys: target.keys, requiredAttributes: target.requiredAttributes, secrets });
  const firstViewport = [viewportTag(target.viewports[0]!)];
  const allViewports = target.viewports.map(viewportTag);

  // Declared first, so that the report opens on the answer to "can we trust this setup?". Titles
  // other than pages' hold a space, which page ids cannot: they never collide.
  test(pageTitle(target.slug, "setup checklist"), { tag: firstViewport }, ({ secrets }) => {
    labelResult(target, CHECKLIST_STORY, `${CHECKLIST_STORY} — ${target.project} (${target.environment})`);
    allure.severity("blocker");
    allure.description(CHECKLIST_WHY);
    const steps = checklistSteps(result.findings);
    for (const step of steps) logStep(`${step.label}: ${step.status} — ${scrubText(step.message, secrets)}`, ALLURE_STATUS[step.status]);
    const failed = steps.filter((step) => step.status === "fail");
    if (failed.length > 0) {
      failAudit(`The setup cannot be trusted yet: ${failed.map((step) => step.label).join("; ")}. See the failed checks below.`);
    }
  });

  for (const pageId of target.pages) {
    test(pageTitle(target.slug, pageId), { tag: allViewports }, ({ secrets }, testInfo) => {
      const viewport = testInfo.project.name;
      const index = result.pages.findIndex((candidate) => candidate.page === pageId && candidate.viewport === viewport && candidate.variation === null);
      test.skip(index < 0, "not audited in this run");
      labelResult(target, pageId, `${pageId} · ${viewport}`);
      // A variation's findings are its experiment's, beside its picture.
      reportFindings(result.findings.filter((finding) => finding.page === pageId && finding.viewport === viewport && finding.variation === null), redaction(secrets), `${pageId} · ${viewport}`, () =>
        attachPageEvidence(result.pages[index]!, callDeliveries(result.pages[index]!, result.deliveries[index]!), redaction(secrets)),
      );
    });
  }

  for (const experiment of target.previewed) {
    test(pageTitle(target.slug, `variations of "${experiment.name}"`), { tag: allViewports }, ({ secrets }, testInfo) => {
      const viewport = testInfo.project.name;
      const findings = result.findings.filter((finding) => finding.check === "experiment.variation" && finding.experiment === experiment.name && finding.viewport === viewport);
      test.skip(findings.length === 0, "not audited in this run");
      labelResult(target, experiment.page, `${experiment.name} · variations · ${viewport}`);
      reportFindings(findings, redaction(secrets), `${experiment.name} · ${viewport}`, () => {
        const picture = variationPicture(result, run.outDir, experiment, viewport);
        if (picture !== null) attachContent("control and variations side by side", picture, "image/png");
      });
    });
  }

  test(pageTitle(target.slug, "goal checks"), { tag: allViewports }, ({ secrets }, testInfo) => {
    const viewport = testInfo.project.name;
    labelResult(target, "goals", `goals · ${viewport}`);
    reportFindings(result.findings.filter((finding) => finding.goal !== null && finding.viewport === viewport), redaction(secrets), `goals · ${viewport}`);
  });

  // Spec-wide findings are reported once, under the first viewport's project.
  test(pageTitle(target.slug, "spec-wide checks"), { tag: firstViewport }, ({ secrets }) => {
    labelResult(target, "spec-wide checks", "spec-wide checks");
    reportFindings(result.findings.filter((finding) => finding.page === null && finding.goal === null), redaction(secrets), "the spec");
  });
}

/**
 * Labels and parameters every result carries. The environment is a parameter, so each keeps its
 * own history; the base URL (it holds a port) and the run id change between runs, so they are
 * `excluded` and never split it.
 */
function labelResult(target: ReportTarget, story: string, displayName: string): void {
  allure.displayName(displayName);
  // Each runtime call is a message to the runner: labels travel together.
  allure.labels(
    { name: allure.LabelName.EPIC, value: target.workspace },
    { name: allure.LabelName.FEATURE, value: target.project },
    { name: allure.LabelName.STORY, value: story },
  );
  allure.parameter("environment", target.environment);
  allure.parameter("base URL", target.baseUrl, { excluded: true });
  allure.parameter("run", run.runId, { excluded: true });
}

function attachPageEvidence(page: PageArtifacts, deliveries: readonly CallDelivery[], redaction: RedactionContext): void {
  if (page.screenshot && existsSync(join(run.outDir, page.screenshot))) {
    attachFile("screenshot", join(run.outDir, page.screenshot), "image/png");
  }
  for (const attachment of pageAttachments(page, deliveries, redaction)) {
    attachContent(attachment.name, attachment.body, attachment.contentType);
  }
}

/**
 * One step per finding, the severity and families of the failed ones, each check's "why", then
 * the evidence; fails the result when a check failed.
 */
function reportFindings(findings: readonly Finding[], redaction: RedactionContext, where: string, attachEvidence = () => {}): void {
  const severity = severityOf(findings);
  const labels = [
    ...(severity ? [{ name: allure.LabelName.SEVERITY, value: severity }] : []),
    ...failedFamilies(findings).map((family) => ({ name: FAMILY_LABEL, value: family })),
  ];
  if (labels.length > 0) allure.labels(...labels);
  allure.description(whyOf(findings));
  for (const finding of findings) {
    const check = checkOf(finding.check);
    const title = finding.status === "fail" || finding.status === "warn" ? check.failureTitle : check.title;
    logStep(`${finding.check}: ${title} — ${scrubText(finding.message, redaction.secrets)}`, ALLURE_STATUS[finding.status]);
  }
  attachEvidence();
  const failed = findings.filter((finding) => finding.status === "fail");
  if (failed.length > 0) {
    failAudit(`${failed.length} check(s) failed on ${where}:\n${failed.map((finding) => `- ${finding.check}: ${scrubText(finding.message, redaction.secrets)}`).join("\n")}`);
  }
}

/**
 * Why the checks that failed or warned matter, as markdown; when none did, why each check that
 * judged the result matters, so a passing result still says what it vouches for.
 */
function whyOf(findings: readonly Finding[]): string {
  const problems = findings.filter((finding) => finding.status === "fail" || finding.status === "warn");
  const ids = new Set((problems.length > 0 ? problems : findings).map((finding) => finding.check));
  return CHECKS.filter((check) => ids.has(check.id))
    .map((check) => `**${check.id}: ${check.title}.** ${check.why}`)
    .join("\n\n");
}

/**
 * The audit's verdict as a test failure: the message is the report's error box, so no stack trace.
 * The failure is declared expected first, so that Playwright keeps its worker instead of starting
 * a new one after each failed result; the Allure reporter reports it as failed all the same.
 */
function failAudit(message: string): never {
  test.fail();
  const error = new Error(message);
  error.stack = `Error: ${message}`;
  throw error;
}
