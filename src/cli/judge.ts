import type { ApiArtifacts, PageArtifacts } from "../artifacts/types.js";
import { readReportFile } from "../api/report.js";
import type { CallBaseline } from "../results/baseline-file.js";
import type { Check } from "../checks/check.js";
import { CHECKS, runChecks } from "../checks/index.js";
import { ingestedEvents, reconcileDeliveries, type RecordedDelivery } from "../artifacts/delivery.js";
import type { AuditTarget } from "../plan/plan.js";
import type { TargetResult } from "../results/run-result.js";

/**
 * Runs `checks` (default: all) on one spec × environment's gathered pages (variations' previews
 * among them) and API answers. Each call's delivery is reconciled here, once for every page,
 * unless `deliveries` were already recorded (a merge keeps each shard's).
 */
export function judgeTarget(
  target: AuditTarget,
  pages: PageArtifacts[],
  api: ApiArtifacts | null,
  baseline: CallBaseline | undefined,
  checks: readonly Check[] = CHECKS,
  deliveries: readonly (readonly RecordedDelivery[])[] = reconcileDeliveries(pages, ingestedEvents(api)),
): TargetResult {
  const reportFile = readReportFile(target.spec.report?.file, target.specFile);
  // The pages as they are are what every check but experiment.variation judges.
  const asIs = (index: number) => pages[index]!.variation === null;
  const context = {
    spec: target.spec,
    specFile: target.specFile,
    environment: target.environment,
    domain: target.domain,
    units: target.units,
    pages: pages.filter((_, index) => asIs(index)),
    deliveries: deliveries.filter((_, index) => asIs(index)),
    variations: pages.filter((_, index) => !asIs(index)),
    api,
    reportFile,
    baseline,
  };
  const findings = runChecks(context, checks);
  return { spec: target.specFile, project: target.spec.project, environment: target.environment, collect: target.spec.traffic.collect, findings, pages, deliveries, api };
}
