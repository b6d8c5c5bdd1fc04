import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LabelName, Status as AllureStatus, type Label } from "allure-js-commons";
import type { RuntimeMessage } from "allure-js-commons/sdk";
import type { JudgedPage } from "../artifacts/delivery.js";
import { isPageAsItIs } from "../artifacts/unit-kind.js";
import { scrubText } from "../privacy/redact.js";
import { type CheckReasons, type Finding, type Status, problemsOf } from "../findings/finding.js";
import type { ReportTarget, RunResult, TargetResult } from "../results/run-result.js";
import { pageTitle } from "../schedule/titles.js";
import { attachContent, attachFile, logStep, metadata } from "./allure-messages.js";
import { CHECKLIST_STORY, checklistSteps } from "./checklist-steps.js";
import { failedFamilies, FAMILY_LABEL } from "./families.js";
import { pageAttachments, type RedactionContext } from "./page-attachments.js";
import { severityOf } from "./severity.js";
import type { VariationPictures } from "./variation-pictures.js";

/**
 * What the Allure report holds, so that it reads like the audit: per viewport and spec ×
 * environment the setup checklist first, then one result per page, one per experiment with
 * variations, one for the goals and one for the spec-wide checks. Nothing is gathered or judged
 * here; a result fails exactly when one of its checks failed.
 */

/** The module the results are filed under, as a test run files tests under their test file. */
export const RESULTS_MODULE = fileURLToPath(import.meta.url);

/** One Allure result: where it is filed, and its content, built when asked for. */
export interface AllureEntry {
  /** Unique within its viewport, stable between runs (Allure keys history on it): `<spec slug> › <page or part>`. */
  title: string;
  /** The viewport it is filed under. */
  viewport: string;
  content: () => AllureContent;
}

/** How a result ended, and its labels, parameters, steps and attachments as Allure runtime messages, in order. */
export interface AllureContent {
  outcome: Outcome;
  messages: RuntimeMessage[];
}

/** A failed result's message is the report's error box; a skipped one says why. */
export type Outcome =
  | { status: "passed" }
  | { status: "failed"; message: string }
  | { status: "skipped"; reason: string };

/** The name of an experiment's picture of the control and its variations side by side. */
export const SIDE_BY_SIDE_NAME = "control and variations side by side";

/** How the name of a variation's filmstrip starts: `filmstrip of "Long copy"`. */
export const FILMSTRIP_PREFIX = "filmstrip of ";

const ALLURE_STATUS: Record<Status, AllureStatus> = {
  pass: AllureStatus.PASSED,
  warn: AllureStatus.BROKEN,
  fail: AllureStatus.FAILED,
  skip: AllureStatus.SKIPPED,
};
const CHECKLIST_WHY =
  "The service's own checks before anyone trusts a setup's numbers: the right workspace, the right " +
  "project key or domain, goals whose conditions equal the events the pages fire, mobile and desktop " +
  "both checked, and no bot/SRM or dropped-event warning. Each item is the worst status of the checks " +
  "that feed it; open the page results below for the evidence.";

/** What a result's findings are reported with: the values never to print, and why each check matters. */
interface ResultContext extends RedactionContext {
  reasons: CheckReasons;
}

/**
 * Every result of the run, viewport by viewport in the order the specs name them; spec-wide
 * results are filed under the spec's first viewport. `secrets` are scrubbed from every text; each
 * experiment's results attach its `pictures`.
 */
export function allureEntries(run: RunResult, secrets: readonly string[], pictures: VariationPictures): AllureEntry[] {
  const viewports = [...new Set(run.targets.flatMap(({ target }) => target.viewports))];
  return viewports.flatMap((viewport) =>
    run.targets
      .filter(({ target }) => target.viewports.includes(viewport))
      .flatMap(({ target, result }) => [
        ...targetEntries(
          run,
          target,
          result,
          viewport,
          { keys: target.keys, requiredAttributes: target.requiredAttributes, secrets, reasons: run.checks },
          pictures,
        ),
      ]),
  );
}

function* targetEntries(
  run: RunResult,
  target: ReportTarget,
  result: TargetResult,
  viewport: string,
  redaction: ResultContext,
  pictures: VariationPictures,
): Generator<AllureEntry> {
  const first = viewport === target.viewports[0];
  const entry = (part: string, content: () => AllureContent): AllureEntry => ({
    title: pageTitle(target.slug, part),
    viewport,
    content,
  });
  const labelled = (story: string, displayName: string) => labelResult(run.runId, target, story, displayName);

  // Titles other than pages' hold a space, which page ids cannot: they never collide.
  if (first)
    yield entry("setup checklist", () =>
      checklistResult(
        labelled(CHECKLIST_STORY, `${CHECKLIST_STORY} — ${target.project} (${target.environment})`),
        result,
        redaction.secrets,
      ),
    );

  for (const pageId of target.pages) {
    yield entry(pageId, () => {
      const page = result.pages.find(
        (candidate) => candidate.page === pageId && candidate.viewport === viewport && isPageAsItIs(candidate),
      );
      const label = labelled(pageId, `${pageId} · ${viewport}`);
      if (page === undefined)
        return { outcome: { status: "skipped", reason: "not audited in this run" }, messages: [label] };
      // A variation's findings are its experiment's, beside its picture.
      const findings = result.findings.filter(
        (finding) => finding.page === pageId && finding.viewport === viewport && finding.variation === null,
      );
      const evidence = pageEvidence(run.outDir, page, redaction);
      return reportFindings(label, findings, redaction, `${pageId} · ${viewport}`, evidence);
    });
  }

  for (const experiment of target.previewed) {
    yield entry(`variations of "${experiment.name}"`, () => {
      const label = labelled(experiment.page, `${experiment.name} · variations · ${viewport}`);
      // Every finding on a variation (experiment.variation, and experiment.exposure and experiment.flicker when they judge it).
      const findings = result.findings.filter(
        (finding) =>
          finding.variation !== null && finding.experiment === experiment.name && finding.viewport === viewport,
      );
      if (findings.length === 0)
        return { outcome: { status: "skipped", reason: "not audited in this run" }, messages: [label] };
      const onViewport = pictures.get(experiment)?.get(viewport);
      const evidence = [
        ...(onViewport?.sideBySide ? [attachContent(SIDE_BY_SIDE_NAME, onViewport.sideBySide, "image/png")] : []),
        ...[...(onViewport?.filmstrips ?? [])].map(([variation, filmstrip]) =>
          attachContent(`${FILMSTRIP_PREFIX}"${variation}"`, filmstrip, "image/png"),
        ),
      ];
      return reportFindings(label, findings, redaction, `${experiment.name} · ${viewport}`, evidence);
    });
  }

  // A closed site's login is judged per viewport, before its pages.
  const loginFindings = result.findings.filter(
    (finding) => finding.page === null && finding.goal === null && finding.viewport === viewport,
  );
  if (loginFindings.length > 0)
    yield entry("the login", () =>
      reportFindings(labelled("login", `login · ${viewport}`), loginFindings, redaction, `the login · ${viewport}`),
    );

  yield entry("goal checks", () =>
    reportFindings(
      labelled("goals", `goals · ${viewport}`),
      result.findings.filter((finding) => finding.goal !== null && finding.viewport === viewport),
      redaction,
      `goals · ${viewport}`,
    ),
  );

  if (first) {
    yield entry("spec-wide checks", () =>
      reportFindings(
        labelled("spec-wide checks", "spec-wide checks"),
        result.findings.filter(
          (finding) => finding.page === null && finding.goal === null && finding.viewport === null,
        ),
        redaction,
        "the spec",
      ),
    );
  }
}

/** Declared first, so that the report opens on the answer to "can we trust this setup?". */
function checklistResult(label: RuntimeMessage, result: TargetResult, secrets: readonly string[]): AllureContent {
  const steps = checklistSteps(result.findings);
  const failed = steps.filter((step) => step.status === "fail");
  return {
    outcome:
      failed.length === 0
        ? { status: "passed" }
        : {
            status: "failed",
            message: `The setup cannot be trusted yet: ${failed.map((step) => step.label).join("; ")}. See the failed checks below.`,
          },
    messages: [
      label,
      metadata({ labels: [{ name: LabelName.SEVERITY, value: "blocker" }], description: CHECKLIST_WHY }),
      ...steps.flatMap((step) =>
        logStep(`${step.label}: ${step.status} — ${scrubText(step.message, secrets)}`, ALLURE_STATUS[step.status]),
      ),
    ],
  };
}

/**
 * Labels and parameters every result carries. The environment is a parameter, so each keeps its
 * own history; the base URL (it holds a port) and the run id change between runs, so they are
 * `excluded` and never split it.
 */
function labelResult(runId: string, target: ReportTarget, story: string, displayName: string): RuntimeMessage {
  return metadata({
    displayName,
    labels: [
      { name: LabelName.EPIC, value: target.workspace },
      { name: LabelName.FEATURE, value: target.project },
      { name: LabelName.STORY, value: story },
    ],
    parameters: [
      { name: "environment", value: target.environment },
      { name: "base URL", value: target.baseUrl, excluded: true },
      { name: "run", value: runId, excluded: true },
    ],
  });
}

function pageEvidence(outDir: string, page: JudgedPage, redaction: RedactionContext): RuntimeMessage[] {
  const screenshot =
    page.screenshot && existsSync(join(outDir, page.screenshot))
      ? [attachFile("screenshot", join(outDir, page.screenshot), "image/png")]
      : [];
  return [
    ...screenshot,
    ...pageAttachments(page, redaction).map((attachment) =>
      attachContent(attachment.name, attachment.body, attachment.contentType),
    ),
  ];
}

/**
 * One step per finding, the severity and families of the failed ones, each check's "why", then
 * the evidence; the result fails when a check failed.
 */
function reportFindings(
  label: RuntimeMessage,
  findings: readonly Finding[],
  redaction: ResultContext,
  where: string,
  evidence: RuntimeMessage[] = [],
): AllureContent {
  const severity = severityOf(findings);
  const labels: Label[] = [
    ...(severity ? [{ name: LabelName.SEVERITY, value: severity }] : []),
    ...failedFamilies(findings).map((family) => ({ name: FAMILY_LABEL, value: family })),
  ];
  const steps = findings.flatMap((finding) =>
    logStep(
      `${finding.check}: ${finding.title} — ${scrubText(finding.message, redaction.secrets)}`,
      ALLURE_STATUS[finding.status],
    ),
  );
  const failed = findings.filter((finding) => finding.status === "fail");
  return {
    outcome:
      failed.length === 0
        ? { status: "passed" }
        : {
            status: "failed",
            message: `${failed.length} check(s) failed on ${where}:\n${failed.map((finding) => `- ${finding.check}: ${scrubText(finding.message, redaction.secrets)}`).join("\n")}`,
          },
    messages: [label, metadata({ labels, description: whyOf(findings, redaction.reasons) }), ...steps, ...evidence],
  };
}

/**
 * Why the checks that failed or warned matter, as markdown; when none did, why each check that
 * judged the result matters, so a passing result still says what it vouches for.
 */
function whyOf(findings: readonly Finding[], reasons: CheckReasons): string {
  const problems = problemsOf(findings);
  const titled = new Map<string, string>();
  for (const finding of problems.length > 0 ? problems : findings)
    if (!titled.has(finding.check)) titled.set(finding.check, finding.title);
  return [...titled]
    .filter(([id]) => reasons[id] !== undefined)
    .map(([id, title]) => `**${id}: ${title}.** ${reasons[id]!.why}`)
    .join("\n\n");
}
