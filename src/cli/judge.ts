import type { ApiArtifacts, PageArtifacts } from "../artifacts/types.js";
import { readReportFile } from "../api/service-report.js";
import { ingestedEvents, reconcileDeliveries, type JudgedPage } from "../artifacts/delivery.js";
import type { CallBaseline } from "../artifacts/baseline.js";
import type { Check } from "../checks/check.js";
import { CHECKS, runChecks } from "../checks/index.js";
import { isPageAsItIs, isRefusal } from "../artifacts/unit-kind.js";
import type { AuditTarget } from "../schedule/plan.js";
import type { TargetResult } from "../results/run-result.js";
import { trackingPlanOf } from "./tracking-plans.js";

/**
 * Runs `checks` (default: all) on one spec × environment's gathered pages (variations' previews
 * among them), whose calls carry the deliveries the run reconciled once, and its API answers.
 */
export function judgeTarget(
  target: AuditTarget,
  pages: JudgedPage[],
  api: ApiArtifacts | null,
  baseline: CallBaseline | undefined,
  checks: readonly Check[] = CHECKS,
): TargetResult {
  const reportFile = readReportFile(target.spec.report?.file, target.specFile);
  const context = {
    spec: target.spec,
    specFile: target.specFile,
    environment: target.environment,
    domain: target.domain,
    units: target.units,
    // The pages as they are are what every check but experiment.variation and consent.reject judges.
    pages: pages.filter(isPageAsItIs),
    variations: pages.filter((page) => page.unit.kind === "variation"),
    refusals: pages.filter(isRefusal),
    api,
    reportFile,
    baseline,
    trackingPlan: trackingPlanOf(target.spec, target.specFile),
  };
  const findings = runChecks(context, checks);
  return {
    spec: target.specFile,
    project: target.spec.project,
    environment: target.environment,
    collect: target.spec.traffic.collect,
    findings,
    pages,
    api,
  };
}

/**
 * Judges one spec × environment's pages as they were gathered (by this run, or saved by an
 * earlier one) with `checks` (default: all): each call's delivery is reconciled once, here, with
 * what the service ingested.
 */
export function judgeGathered(
  target: AuditTarget,
  pages: readonly PageArtifacts[],
  api: ApiArtifacts | null,
  baseline: CallBaseline | undefined,
  checks: readonly Check[] = CHECKS,
): TargetResult {
  return judgeTarget(target, reconcileDeliveries(pages, ingestedEvents(api)), api, baseline, checks);
}
