import type { ApiArtifacts } from "../artifacts/types.js";
import { rollUpChecklist } from "./checklist.js";
import type { JudgedCall, JudgedPage } from "../artifacts/delivery.js";
import { routeOfCall } from "../artifacts/page-views.js";
import type { AuditTarget } from "../schedule/plan.js";
import { hideSecretsDeep, scrubText, withoutUserInfo } from "../privacy/redact.js";
import { verdictOf, type CallRecord, type CollectMode, type RunSummary, type SpecRun } from "./summary.js";
import { type CheckReasons, type Finding } from "../findings/finding.js";
import { checkReasons } from "./check-reasons.js";

/**
 * A run's result: what the checks found on each spec × environment, and the summary.json built
 * from it. The renderers read this result and nothing else: no spec, no environment variable.
 */

/** The findings and artifacts of one spec × environment, after the checks ran. */
export interface TargetResult {
  spec: string;
  project: string;
  environment: string;
  /** Where the collect requests went (the spec's `traffic.collect`). */
  collect: CollectMode;
  findings: Finding[];
  /** Every page × viewport gathered, the variations' previews among them (`variation` set), each call with the delivery the checks judged. */
  pages: JudgedPage[];
  /** What the service API said for this spec × environment; null without an `api` section. */
  api: ApiArtifacts | null;
}

/** An experiment with variations, as the report names it. */
export interface PreviewedExperiment {
  name: string;
  page: string;
}

/** One spec × environment as the report names and shows it: the plan's target without its spec, and the little of the spec the report needs. */
export interface ReportTarget extends Omit<AuditTarget, "spec"> {
  /** The spec's workspace: the report's epic. */
  workspace: string;
  /** The spec's project: the report's feature. */
  project: string;
  /** Every environment key of the spec: the query values a URL in the report may keep. */
  keys: string[];
  /** The spec's `identify.required`: the attributes whose plan-like values the report may show. */
  requiredAttributes: string[];
  /** The experiments with variations on the audited pages: each gets a picture per viewport. */
  previewed: PreviewedExperiment[];
}

/** The report's view of a planned target. */
export function reportTarget({ spec, ...target }: AuditTarget): ReportTarget {
  return {
    ...target,
    // A user name and password in the base URL are the site's credentials: no report shows them.
    baseUrl: withoutUserInfo(target.baseUrl),
    workspace: spec.workspace,
    project: spec.project,
    keys: Object.values(spec.environments).map((env) => env.key),
    requiredAttributes: [...spec.identify.required],
    // One per experiment that has planned variations, in spec order.
    previewed: [
      ...new Map(
        target.units.flatMap(({ page, variation }) =>
          variation === null ? [] : [[variation.experiment, { name: variation.experiment, page }] as const],
        ),
      ).values(),
    ],
  };
}

/** What the Allure results are written from: the run's id and output folder, and every target with its result. */
export interface RunResult {
  /** The run's short id, a report parameter that never splits history. */
  runId: string;
  /** Output folder (absolute), where the screenshots are. */
  outDir: string;
  /** Each spec × environment audited, in plan order. */
  targets: { target: ReportTarget; result: TargetResult }[];
  /** Why each check judged matters, as summary.json keeps it. */
  checks: CheckReasons;
}

/** Builds summary.json from every target's results. */
export function buildSummary(
  results: readonly TargetResult[],
  options: { startedAt: Date; durationMs: number; strict: boolean; secrets: readonly string[] },
): RunSummary {
  // summary.json, the console, JUnit and GitHub's outputs all show these messages: scrubbed once
  // here as in the shareable report (e-mail addresses, user ids, the run's secrets), and every
  // other string of the summary of the run's secrets.
  const findings = scrubbedFindings(
    results.flatMap((result) => result.findings),
    options.secrets,
  );
  const runs: SpecRun[] = results.map((result) => ({
    spec: result.spec,
    project: result.project,
    environment: result.environment,
    verdict: verdictOf(result.findings, options.strict),
    collect: result.collect,
    checklist: rollUpChecklist(result.findings),
  }));
  const summary: RunSummary = {
    version: 1,
    verdict: verdictOf(findings, options.strict),
    startedAt: options.startedAt.toISOString(),
    durationMs: options.durationMs,
    runs,
    findings,
    checks: checkReasons(findings),
    calls: results.flatMap(callRecords),
    // Set when the run is compared with an earlier one (cli/changes.ts), which needs the history.
    changes: null,
  };
  return hideSecretsDeep(summary, options.secrets);
}

/** Findings whose messages show no e-mail address, user id or secret, and whose evidence shows no secret, as every shared output shows them. */
export function scrubbedFindings(findings: readonly Finding[], secrets: readonly string[]): Finding[] {
  return findings.map((finding) => ({
    ...finding,
    message: scrubText(finding.message, secrets),
    evidence: hideSecretsDeep(finding.evidence, secrets),
  }));
}

/**
 * The calls of one spec × environment's pages as summary.json lists them, with the deliveries the
 * checks judged; then each page's reload's (experiment.exposure), delivered as its collector answered.
 */
export function callRecords(target: Pick<TargetResult, "spec" | "environment" | "pages">): CallRecord[] {
  return target.pages.flatMap((page) => {
    const record =
      (unit: CallRecord["unit"]) =>
      (call: JudgedCall): CallRecord => ({
        spec: target.spec,
        environment: target.environment,
        kind: call.kind,
        // An identify call's first argument is a user id: never copied into a shareable file.
        name: call.kind === "identify" ? null : call.name,
        page: page.page,
        viewport: page.viewport,
        experiment: page.variation?.experiment ?? null,
        variation: page.variation?.name ?? null,
        unit,
        atMs: call.atMs,
        beforeSdk: call.state !== "direct",
        step: call.step ?? null,
        route: routeOfCall(call),
        delivery: call.delivery,
        seenOn: call.seenOn === "network" || call.madeBy === "sdk" ? "network" : "global",
        sdk: call.sdk ?? "analytics",
      });
    return [
      ...page.calls.map(record(page.consent?.unit ?? "page")),
      ...(page.reload?.calls ?? []).map(record("reload")),
    ];
  });
}
