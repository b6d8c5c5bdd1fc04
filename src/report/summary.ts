import type { PageArtifacts } from "../artifacts.js";
import { matchDeliveries } from "../delivery.js";
import { rollUpChecklist, verdictOf, type CallRecord, type Finding, type RunSummary, type SpecRun } from "../results.js";

/** The findings and artifacts of one spec × environment, after the checks ran. */
export interface TargetResult {
  spec: string;
  project: string;
  environment: string;
  findings: Finding[];
  pages: PageArtifacts[];
}

/** Builds summary.json from every target's results. */
export function buildSummary(results: readonly TargetResult[], options: { startedAt: Date; durationMs: number; strict: boolean }): RunSummary {
  const findings = results.flatMap((result) => result.findings);
  const runs: SpecRun[] = results.map((result) => ({
    spec: result.spec,
    project: result.project,
    environment: result.environment,
    verdict: verdictOf(result.findings, options.strict),
    checklist: rollUpChecklist(result.findings),
  }));
  return {
    version: 1,
    verdict: verdictOf(findings, options.strict),
    startedAt: options.startedAt.toISOString(),
    durationMs: options.durationMs,
    runs,
    findings,
    calls: results.flatMap((result) => result.pages.flatMap(callRecords)),
  };
}

/** The calls of one page × viewport as summary.json lists them. */
export function callRecords(page: PageArtifacts): CallRecord[] {
  return matchDeliveries(page.calls, page.collect).map(({ call, delivery }) => ({
    kind: call.kind,
    // An identify call's first argument is a user id: never copied into a shareable file.
    name: call.kind === "track" ? call.name : null,
    page: page.page,
    viewport: page.viewport,
    atMs: call.atMs,
    beforeSdk: call.state !== "direct",
    delivery,
  }));
}
