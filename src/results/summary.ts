import {
  worstStatus,
  type CallSdk,
  type CheckId,
  type Checklist,
  type CheckReasons,
  type Finding,
  type Status,
} from "../findings/finding.js";
import type { Delivery } from "../artifacts/types.js";

/** One call as reported in summary.json. */
export interface CallRecord {
  /** The spec and environment whose page made the call. */
  spec: string;
  environment: string;
  /** `page` for a page view (docs/single-page-apps.md). */
  kind: "track" | "identify" | "page";
  name: string | null;
  page: string;
  viewport: string;
  /** The experiment and variation whose preview made the call; null for the page as it is. */
  experiment: string | null;
  variation: string | null;
  /**
   * The unit that made it: the page (or a variation's preview) as loaded, its reload in the same
   * context for experiment.exposure, or a consent unit that refused (`reject`) or had Global
   * Privacy Control on (`gpc`).
   */
  unit: "page" | "reload" | "reject" | "gpc";
  atMs: number;
  beforeSdk: boolean;
  /** The 0-based index of the journey step during which the call was made; null before the first step (or when the artifacts did not say). */
  step: number | null;
  /** The route current when the call was made: the path and query, and a hash router's route after them (`/app/#/pricing`). */
  route: string;
  delivery: Delivery;
  /**
   * `global`: watched on the SDK's global as it was made; `network`: read from the collect request
   * that carried it, at that request's time (a call made on the SDK's own instance, an SDK without
   * a global or that could not be watched, a page view the SDK made on its own).
   */
  seenOn: "global" | "network";
  /**
   * The SDK the call was made to: the analytics SDK (`sdk`), or the experimentation SDK
   * (`experimentSdk`) where its calls are gathered; absent from a summary written before it was kept.
   */
  sdk?: CallSdk;
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
  /** Why each check of `findings` matters, as it was when the run judged it; absent from a summary written before it was kept. */
  checks?: CheckReasons;
  calls: CallRecord[];
  /** What changed since the run compared with (results/changes.ts); null when there is nothing to compare with. */
  changes: Changes | null;
}

/** A finding's key and its status in this run, as `changes` lists it. */
export interface ChangedFinding {
  check: CheckId;
  spec: string;
  environment: string;
  page: string | null;
  viewport: string | null;
  goal: string | null;
  experiment: string | null;
  variation: string | null;
  status: Status;
}

/** summary.json's `changes`: what differs from the run compared with. */
export interface Changes {
  /** The run compared with: with several spec runs, the latest start among theirs, and `fail` when any of them failed. */
  comparedWith: { startedAt: string; verdict: "pass" | "fail" };
  new: ChangedFinding[];
  worse: ChangedFinding[];
  resolved: ChangedFinding[];
  /** How many findings warn or fail in both runs and are not worse. */
  persisting: number;
  /** How many of `persisting` warn now (the rest fail); absent in a summary written before they were told apart. */
  persistingWarnings?: number;
}

/** A run's verdict: fail on any failed finding, and on any warning when strict. */
export function verdictOf(findings: readonly Finding[], strict: boolean): "pass" | "fail" {
  const worst = worstStatus(findings.map((finding) => finding.status));
  return worst === "fail" || (strict && worst === "warn") ? "fail" : "pass";
}
