import { keptOut } from "../artifacts/site-entry.js";
import type { ApiArtifacts, CapturedCall, ConsentArtifacts, PageArtifacts, ReportFile } from "../artifacts/types.js";
import type { CallBaseline } from "../artifacts/baseline.js";
import type { JudgedPage } from "../artifacts/delivery.js";
import type { CheckId, Family, Judgement, Severity, Status } from "../findings/finding.js";
import { environmentOf } from "../audit-spec/environment.js";
import type { AuditSpec, AuthSpec, Environment } from "../audit-spec/schema.js";
import type { AuditUnit } from "../schedule/plan.js";
import type { TrackingPlan } from "../tracking-plan/types.js";
import type { Requirement } from "./inputs.js";

/** Everything the checks of one spec × environment may read. */
export interface AuditContext {
  spec: AuditSpec;
  specFile: string;
  environment: string;
  /** The domain every audited URL stays on, as the plan has it. */
  domain: string;
  /** The plan's units of this spec and environment: its pages and variations' previews. */
  units: readonly AuditUnit[];
  /** Every page × viewport gathered for this spec and environment, as it is, each call with its delivery. */
  pages: readonly JudgedPage[];
  /** Every variation's preview gathered, each a page × viewport of its own; only experiment.variation judges them. */
  variations: readonly JudgedPage[];
  /** With `consent`: the reject and GPC units gathered, each a page × viewport of its own; only consent.reject (and consent.banner, for a refusal) judges them. */
  refusals?: readonly JudgedPage[];
  /** What the service API said, gathered once for this spec and environment; null without an `api` section. */
  api: ApiArtifacts | null;
  /** The exported report file the spec's `report.file` names, read once; absent without one (`report.path` data is in `api`). */
  reportFile?: ReportFile | null;
  /** What fired in a known-good run of this spec and environment (`run --baseline`); absent when no comparison was asked for. */
  baseline?: CallBaseline;
  /** The spec's tracking plan, read and compiled once for the run; absent without `trackingPlan`. */
  trackingPlan?: TrackingPlan | null;
}

/** The context of one check's evaluation: the audit's, and the id its findings carry. */
export interface CheckContext extends AuditContext {
  check: CheckId;
}

/**
 * What a check is: the one record the registry, the findings' titles, severity and family, and
 * the checks page (docs/checks.md) are built from. Which checklist item it feeds is the
 * checklist's to say (results/checklist.ts).
 */
export interface CheckDefinition<Id extends string = string> {
  /** The stable id of the public contract (docs/checks.md); never changed once published. */
  id: Id;
  /**
   * `page` checks judge each page × viewport from its own artifacts alone; `run` checks need the
   * whole run (every page, the API, the spec). Merging shards keeps the shards' page findings and
   * runs the `run` checks again on everything.
   */
  scope: "page" | "run";
  /** What a passing check vouches for, as the report's step title. */
  title: string;
  /** What went wrong, as the report's step title of a failing or warning finding. */
  failureTitle: string;
  /** The report category its failures are filed under. */
  family: Family;
  /**
   * How much a failure costs: `blocker` when nothing else can be trusted, `critical` when
   * conversions are lost or counted wrongly, `normal` for setup hygiene, `minor` for noise.
   */
  severity: Severity;
  /** When it fails or warns, in markdown, with links relative to docs/: the checks page's "Fails when". */
  failsWhen: string;
  /** Why it matters, one paragraph of markdown: the report's description of its results and the checks page's "Why it matters". */
  why: string;
  /**
   * What it reads (checks/inputs.ts): the inputs a run may lack (the API's answers, a report file,
   * a baseline) and the keys of the pages' artifacts, or a function of the context that says which
   * (the spec's `report` section picks a file or the API). When one is missing, the runner gives
   * the check's finding instead, saying which.
   */
  requires: readonly Requirement[] | ((context: AuditContext) => readonly Requirement[]);
}

/** What `notOpenedReason` reads of a page: whether the site let the audit in, and whether it loaded. */
export const OPENED_PAGE = ["access", "documentStatus", "loadError"] as const satisfies readonly Requirement[];

/** What `notJudgedReason` and `perLoadedPage` read of a page: whether it was opened, and whether consent was given. */
export const LOADED_PAGE = [...OPENED_PAGE, "consent", "variation"] as const satisfies readonly Requirement[];

/** A check: what it is, and a pure evaluation. */
export interface Check<Id extends string = CheckId> extends CheckDefinition<Id> {
  evaluate(context: AuditContext): Judgement[];
}

/**
 * A check from its definition and its judging, whose findings carry the definition's id through
 * the context (`finding(context, …)`), so the id is written once; the id must be one of CHECK_IDS.
 */
export function defineCheck<const Id extends CheckId>(
  check: CheckDefinition<Id> & { evaluate(context: CheckContext): Judgement[] },
): Check<Id> {
  const { evaluate, ...definition } = check;
  const id: CheckId = definition.id;
  return { ...definition, evaluate: (context) => evaluate({ ...context, check: id }) };
}

/** Where a finding applies; null fields do not apply. */
export interface FindingScope {
  page?: string | null;
  viewport?: string | null;
  goal?: string | null;
  experiment?: string | null;
  variation?: string | null;
}

/** Builds a finding of the context's check. */
export function finding(
  context: CheckContext,
  status: Status,
  message: string,
  scope: FindingScope = {},
  evidence: Record<string, unknown> = {},
): Judgement {
  return {
    check: context.check,
    status,
    spec: context.specFile,
    page: scope.page ?? null,
    viewport: scope.viewport ?? null,
    goal: scope.goal ?? null,
    experiment: scope.experiment ?? null,
    variation: scope.variation ?? null,
    message,
    evidence,
  };
}

/** A check's verdict on one subject (a page × viewport, the spec), before it becomes a finding. */
export interface Verdict {
  status: Status;
  message: string;
  evidence?: Record<string, unknown>;
}

/** The one finding of a check judged once per spec × environment: no page, viewport, goal or experiment. */
export function specWideFinding(context: CheckContext, verdict: Verdict): Judgement[] {
  return [finding(context, verdict.status, verdict.message, {}, verdict.evidence)];
}

/**
 * Runs a page-level judgement on every page × viewport that loaded and let the audit in; any
 * other gets a `skip` saying why, since page.load or page.access already reports it.
 */
export function perLoadedPage(context: CheckContext, judge: (page: JudgedPage) => Verdict): Judgement[] {
  return context.pages.map((page) => {
    const scope = { page: page.page, viewport: page.viewport };
    const notJudged = notJudgedReason(page, auditedEnvironment(context).auth);
    if (notJudged !== null) return finding(context, "skip", notJudged, scope);
    const verdict = judge(page);
    return finding(context, verdict.status, verdict.message, scope, verdict.evidence);
  });
}

/**
 * Why a unit × viewport cannot be judged by the checks of what happens once consent is given:
 * the site kept the audit out, the page did not load, or consent was never given; null when it
 * can.
 */
export function notJudgedReason(page: PageArtifacts, auth: AuthSpec | undefined): string | null {
  return notOpenedReason(page, auth) ?? notConsentedReason(page);
}

/** Why a unit × viewport was not seen at all (kept out, or not loaded), as the checks that judge the banner itself say it; null when it was. */
export function notOpenedReason(page: PageArtifacts, auth: AuthSpec | undefined): string | null {
  if (keptOut(page, auth) !== null) return "Not judged: the site kept the audit out (page.access says why).";
  if (page.loadError !== null) return "Not judged: the page did not load.";
  return null;
}

/** True when a consent unit's banner was there and answered. */
export function consentGiven(consent: ConsentArtifacts): boolean {
  return consent.answeredAtMs !== null && consent.answerError === null;
}

/**
 * Why a unit's checks after its banner are not judged: consent was never given (on the page as it
 * is consent.banner says why; a variation's preview says it here); null when it was, on a refusal's
 * or GPC's unit, or without `consent`.
 */
export function notConsentedReason(page: PageArtifacts): string | null {
  const consent = page.consent;
  if (consent === undefined || consent.unit !== "page" || consentGiven(consent)) return null;
  if (page.variation === null) return "Not judged: consent was never given on this page (consent.banner says why).";
  const cause =
    consent.answerError ??
    (consent.bannerAtMs === null
      ? `its banner was not found within ${consent.timeoutMs} ms`
      : "its banner was not answered");
  return `Not judged: consent was never given on this preview (${cause}).`;
}

/** The page spec for an artifact's page id. */
export function pageSpecOf(context: AuditContext, pageId: string) {
  return context.spec.pages.find((page) => page.id === pageId);
}

/** The environment audited, as the spec defines it. */
export function auditedEnvironment(context: AuditContext): Environment {
  return environmentOf(context.spec, context.environment);
}

/** A call in words for messages, by the method the page called: `capture("signup_success")`, `identify(…)`; an identify's user id is never shown. */
export function describeCall(call: Pick<CapturedCall, "kind" | "method" | "name">): string {
  if (call.kind === "identify") return `${call.method}(…)`;
  return `${call.method}(${call.name === null ? "?" : `"${call.name}"`})`;
}

/** The calls the page made: every call but those lost before the SDK existed, which never happened for the service. */
export function madeCalls<Call extends CapturedCall>(page: { calls: readonly Call[] }): Call[] {
  return page.calls.filter((call) => call.state !== "lost");
}
