/**
 * What a judgement is, below every layer that judges or reports: the check ids of the public
 * contract, a finding and its status, and the checklist the findings roll up into. It imports
 * nothing, so the checks, the results, the spec and the reporters all read it downwards.
 */

/**
 * Every check id of the public contract (docs/checks.md), in the order the report shows them; the
 * registry (checks/index.ts) defines one check for each, in this order. Ids never change once
 * published: retire one and add another.
 */
export const CHECK_IDS = [
  "api.auth",
  "api.project",
  "api.workspace",
  "api.goals",
  "page.load",
  "page.access",
  "page.domain",
  "page.errors",
  "sdk.present",
  "sdk.order",
  "sdk.key",
  "events.expected",
  "events.delivered",
  "events.pageviews",
  "events.duplicate",
  "goals.match",
  "identify.attributes",
  "identify.pii",
  "plan.properties",
  "plan.events",
  "plan.coverage",
  "experiment.name",
  "experiment.goals",
  "experiment.selector",
  "experiment.assignment",
  "experiment.exposure",
  "experiment.flicker",
  "experiment.variation",
  "viewports.coverage",
  "report.warnings",
  "baseline.calls",
  "consent.banner",
  "consent.before",
  "consent.reject",
] as const;

/** A stable check id. */
export type CheckId = (typeof CHECK_IDS)[number];

/** The status of one finding; `skip` when the check did not apply or was turned off. */
export type Status = "pass" | "warn" | "fail" | "skip";

/**
 * Check families: how the report's categories group failures, so a reader sees "three pages lose
 * calls to the SDK load order" before reading any single page. In the order a failure is filed:
 * a result failing several is filed under the first.
 */
export const FAMILIES = [
  "SDK installation and load order",
  "Goal/event mismatch",
  "Delivery",
  "Personal data",
  "Tracking plan",
  "Experiments",
  "API",
  "Pages and viewports",
] as const;

/** One family of checks. */
export type Family = (typeof FAMILIES)[number];

/** Allure's severities, most severe first. */
export const SEVERITIES = ["blocker", "critical", "normal", "minor", "trivial"] as const;

/** One Allure severity. */
export type Severity = (typeof SEVERITIES)[number];

/** Which of the spec's SDKs a call or a finding is about: `sdk` (analytics) or `experimentSdk` (experiment). */
export type CallSdk = "analytics" | "experiment";

/** One judgement of one check, on one page × viewport, goal, experiment or spec, as the check gives it. */
export interface Judgement {
  check: CheckId;
  status: Status;
  spec: string;
  page: string | null;
  viewport: string | null;
  goal: string | null;
  experiment: string | null;
  /** The experiment's variation the finding judges (experiment.variation, experiment.exposure, experiment.flicker), by its name; null on every other finding. */
  variation: string | null;
  /** One sentence a person can act on. */
  message: string;
  /** Plain data that backs the message; never a raw secret or personal value. */
  evidence: Record<string, unknown>;
}

/**
 * A judgement as the run reports it (summary.json, the history, every report): with its check's
 * title, severity and family as they were when it was judged, so that a report rendered from it
 * later, or by another version, shows what the run said, whatever the checks say today.
 */
export interface Finding extends Judgement {
  /** The check's title for this status: what a pass vouches for, or what went wrong (a warn or fail). */
  title: string;
  severity: Severity;
  family: Family;
}

/**
 * Why each check a run judged matters, by check id, as it was when the run judged it: the
 * paragraph every report shows beside its findings (summary.json's `checks`).
 */
export type CheckReasons = Record<string, { why: string }>;

/** The five checks the service asks for before a setup is trusted, in the order they are shown. */
export const CHECKLIST_ITEMS = [
  "workspace",
  "projectKeyOrDomain",
  "goalEventMatch",
  "mobileAndDesktop",
  "noWarnings",
] as const;

/** The status of each checklist item. */
export type Checklist = Record<(typeof CHECKLIST_ITEMS)[number], Status>;

const SEVERITY: Record<Status, number> = { skip: 0, pass: 1, warn: 2, fail: 3 };

/** True for a checklist as summary.json and the history write it: each of the five items with a status. */
export function isChecklist(value: unknown): value is Checklist {
  if (value === null || typeof value !== "object") return false;
  const items = value as Record<string, unknown>;
  return CHECKLIST_ITEMS.every((item) => typeof items[item] === "string" && items[item] in SEVERITY);
}

/** Whether a finding with this status is one to act on: it failed or warned. */
export function isProblem(status: Status | null): boolean {
  return status === "fail" || status === "warn";
}

/** The findings to act on: those that failed or warned, in their order. */
export function problemsOf<Found extends { status: Status }>(findings: readonly Found[]): Found[] {
  return findings.filter((finding) => isProblem(finding.status));
}

/** The worst of several statuses; `skip` when there are none or all are skipped. */
export function worstStatus(statuses: Iterable<Status>): Status {
  let worst: Status = "skip";
  for (const status of statuses) {
    if (SEVERITY[status] > SEVERITY[worst]) worst = status;
  }
  return worst;
}
