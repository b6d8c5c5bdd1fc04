import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApiArtifacts, PageArtifacts } from "../artifacts.js";
import { rollUpChecklist } from "../checklist.js";
import { callDeliveries, type RecordedDelivery } from "../delivery.js";
import { verdictOf, type CallRecord, type CollectMode, type Finding, type RunSummary, type SpecRun } from "../results.js";

/** The findings and artifacts of one spec × environment, after the checks ran. */
export interface TargetResult {
  spec: string;
  project: string;
  environment: string;
  /** Where the collect requests went (the spec's `traffic.collect`). */
  collect: CollectMode;
  findings: Finding[];
  pages: PageArtifacts[];
  /** Each page's calls' deliveries, in the order of `pages`, as the checks judged them. */
  deliveries: readonly (readonly RecordedDelivery[])[];
  /** What the service API said for this spec × environment; null without an `api` section. */
  api: ApiArtifacts | null;
}

/** Where the run's results wait for the report phase, inside the plan's work folder. */
const RESULTS_FILE = "results.json";

/** Hands the results to the report phase. */
export function writeTargetResults(workDir: string, results: readonly TargetResult[]): void {
  writeFileSync(join(workDir, RESULTS_FILE), JSON.stringify(results));
}

/** The results the run handed to the report phase. */
export function readTargetResults(workDir: string): TargetResult[] {
  return JSON.parse(readFileSync(join(workDir, RESULTS_FILE), "utf8")) as TargetResult[];
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
    calls: results.flatMap(callRecords),
  };
}

/** The calls of one spec × environment's pages as summary.json lists them, with the deliveries the checks judged. */
export function callRecords(target: Pick<TargetResult, "spec" | "environment" | "pages" | "deliveries">): CallRecord[] {
  return target.pages.flatMap((page, index) =>
    callDeliveries(page, target.deliveries[index]!).map(({ call, delivery }) => ({
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
    })),
  );
}
