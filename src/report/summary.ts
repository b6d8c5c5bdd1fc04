import type { ApiArtifacts, PageArtifacts } from "../artifacts.js";
import type { ListedEvent } from "../api/match.js";
import { ingestedEvents, reconcileDeliveries } from "../delivery.js";
import { rollUpChecklist, verdictOf, type CallRecord, type CollectMode, type Finding, type RunSummary, type SpecRun } from "../results.js";

/** The findings and artifacts of one spec × environment, after the checks ran. */
export interface TargetResult {
  spec: string;
  project: string;
  environment: string;
  /** Where the collect requests went (the spec's `traffic.collect`). */
  collect: CollectMode;
  findings: Finding[];
  pages: PageArtifacts[];
  /** What the service API said for this spec × environment; null without an `api` section. */
  api: ApiArtifacts | null;
}

/** Builds summary.json from every target's results. */
export function buildSummary(results: readonly TargetResult[], options: { startedAt: Date; durationMs: number; strict: boolean }): RunSummary {
  const findings = results.flatMap((result) => result.findings);
  const runs: SpecRun[] = results.map((result) => ({
    spec: result.spec,
    project: result.project,
    environment: result.environment,
    verdict: verdictOf(result.findings, options.strict),
    collect: result.collect,
    checklist: rollUpChecklist(result.findings),
  }));
  return {
    version: 1,
    verdict: verdictOf(findings, options.strict),
    startedAt: options.startedAt.toISOString(),
    durationMs: options.durationMs,
    runs,
    findings,
    calls: results.flatMap((result) => callRecords(result, ingestedEvents(result.api))),
  };
}

/** The calls of one spec × environment's pages as summary.json lists them, reconciled with what the service ingested. */
export function callRecords(target: Pick<TargetResult, "spec" | "environment" | "pages">, ingested: readonly ListedEvent[] | null): CallRecord[] {
  return reconcileDeliveries(target.pages, ingested).flatMap((deliveries, index) => {
    const page = target.pages[index]!;
    return deliveries.map(({ call, delivery }) => ({
      spec: target.spec,
      environment: target.environment,
      kind: call.kind,
      // An identify call's first argument is a user id: never copied into a shareable file.
      name: call.kind === "track" ? call.name : null,
      page: page.page,
      viewport: page.viewport,
      atMs: call.atMs,
      beforeSdk: call.state !== "direct",
      delivery,
    }));
  });
}
