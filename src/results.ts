import type { CheckId } from "./check-ids.js";
import type { Delivery } from "./artifacts.js";

/** The status of one finding; `skip` when the check did not apply or was turned off. */
export type Status = "pass" | "warn" | "fail" | "skip";

/** One judgement of one check, on one page × viewport, goal, experiment or spec. */
export interface Finding {
  check: CheckId;
  status: Status;
  spec: string;
  page: string | null;
  viewport: string | null;
  goal: string | null;
  experiment: string | null;
  /** One sentence a person can act on. */
  message: string;
  /** Plain data that backs the message; never a raw secret or personal value. */
  evidence: Record<string, unknown>;
}

/** One call as reported in summary.json. */
export interface CallRecord {
  /** The spec and environment whose page made the call (an extension of DESIGN.md's shape). */
  spec: string;
  environment: string;
  kind: "track" | "identify";
  name: string | null;
  page: string;
  viewport: string;
  atMs: number;
  beforeSdk: boolean;
  delivery: Delivery;
}

/** The five checks the service asks for before a setup is trusted. */
export interface Checklist {
  workspace: Status;
  projectKeyOrDomain: Status;
  goalEventMatch: Status;
  mobileAndDesktop: Status;
  noWarnings: Status;
}

/** Where a run's collect requests went: to the service, or answered by the audit inside the browser. */
export type CollectMode = "send" | "intercept";

/** One spec audited in one environment. */
export interface SpecRun {
  spec: string;
  project: string;
  environment: string;
  verdict: "pass" | "fail";
  /** `send`: collect requests went to the service; `intercept`: the audit answered them inside the browser (`traffic.collect`). */
  collect: CollectMode;
  checklist: Checklist;
}

/** summary.json, version 1. */
export interface RunSummary {
  version: 1;
  verdict: "pass" | "fail";
  startedAt: string;
  durationMs: number;
  runs: SpecRun[];
  findings: Finding[];
  calls: CallRecord[];
}

/** Which checks feed each checklist item (DESIGN.md). */
export const CHECKLIST_SOURCES: Record<keyof Checklist, readonly CheckId[]> = {
  workspace: ["api.auth", "api.workspace"],
  projectKeyOrDomain: ["api.project", "sdk.key", "page.domain"],
  goalEventMatch: ["goals.match", "api.goals", "events.expected"],
  mobileAndDesktop: ["viewports.coverage"],
  noWarnings: ["events.delivered", "report.warnings"],
};

const SEVERITY: Record<Status, number> = { skip: 0, pass: 1, warn: 2, fail: 3 };

/** The worst of several statuses; `skip` when there are none or all are skipped. */
export function worstStatus(statuses: Iterable<Status>): Status {
  let worst: Status = "skip";
  for (const status of statuses) {
    if (SEVERITY[status] > SEVERITY[worst]) worst = status;
  }
  return worst;
}

/** Rolls one spec run's findings up into the checklist: the worst status of the feeding checks. */
export function rollUpChecklist(findings: readonly Finding[]): Checklist {
  const item = (sources: readonly CheckId[]) =>
    worstStatus(findings.filter((finding) => sources.includes(finding.check)).map((finding) => finding.status));
  return {
    workspace: item(CHECKLIST_SOURCES.workspace),
    projectKeyOrDomain: item(CHECKLIST_SOURCES.projectKeyOrDomain),
    goalEventMatch: item(CHECKLIST_SOURCES.goalEventMatch),
    mobileAndDesktop: item(CHECKLIST_SOURCES.mobileAndDesktop),
    noWarnings: item(CHECKLIST_SOURCES.noWarnings),
  };
}

/** A run's verdict: fail on any failed finding, and on any warning when strict. */
export function verdictOf(findings: readonly Finding[], strict: boolean): "pass" | "fail" {
  const worst = worstStatus(findings.map((finding) => finding.status));
  return worst === "fail" || (strict && worst === "warn") ? "fail" : "pass";
}
