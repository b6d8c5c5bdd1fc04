import type { CheckId } from "../check-ids.js";
import type { ApiArtifacts, CapturedCall, PageArtifacts, ReportFile } from "../artifacts.js";
import type { CallBaseline } from "../baseline.js";
import type { RecordedDelivery } from "../delivery.js";
import type { Finding, Status } from "../results.js";
import type { AuditSpec, Environment } from "../spec/schema.js";

/** Everything the checks of one spec × environment may read. */
export interface AuditContext {
  spec: AuditSpec;
  specFile: string;
  environment: string;
  /** Every page × viewport gathered for this spec and environment. */
  pages: readonly PageArtifacts[];
  /** What the service API said, gathered once for this spec and environment; null without an `api` section. */
  api: ApiArtifacts | null;
  /** Each page's calls' deliveries (same order as `pages`), reconciled once with what the service ingested. */
  deliveries: readonly (readonly RecordedDelivery[])[];
  /** The exported report file the spec's `report.file` names, read once; absent without one (`report.path` data is in `api`). */
  reportFile?: ReportFile | null;
  /** What fired in a known-good run of this spec and environment (`run --baseline`); absent when no comparison was asked for. */
  baseline?: CallBaseline;
}

/** A check: what it is, why it matters, and a pure evaluation. */
export interface Check {
  id: CheckId;
  /**
   * `page` checks judge each page × viewport from its own artifacts alone; `run` checks need the
   * whole run (every page, the API, the spec). Merging shards keeps the shards' page findings and
   * runs the `run` checks again on everything.
   */
  scope: "page" | "run";
  title: string;
  failureTitle: string;
  /** One paragraph on why this matters; it becomes the Allure description and the README table. */
  why: string;
  evaluate(context: AuditContext): Finding[];
}

/** Where a finding applies; null fields do not apply. */
export interface FindingScope {
  page?: string | null;
  viewport?: string | null;
  goal?: string | null;
  experiment?: string | null;
}

/** Builds a finding of `check` for this context. */
export function finding(
  context: AuditContext,
  check: CheckId,
  status: Status,
  message: string,
  scope: FindingScope = {},
  evidence: Record<string, unknown> = {},
): Finding {
  return {
    check,
    status,
    spec: context.specFile,
    page: scope.page ?? null,
    viewport: scope.viewport ?? null,
    goal: scope.goal ?? null,
    experiment: scope.experiment ?? null,
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

/**
 * Runs a page-level judgement on every page × viewport that loaded; a page that did not load
 * gets a `skip`, since page.load already reports it.
 */
export function perLoadedPage(
  context: AuditContext,
  check: CheckId,
  judge: (page: PageArtifacts) => Verdict,
): Finding[] {
  return context.pages.map((page) => {
    const scope = { page: page.page, viewport: page.viewport };
    if (page.loadError !== null) return finding(context, check, "skip", "Not judged: the page did not load.", scope);
    const verdict = judge(page);
    return finding(context, check, verdict.status, verdict.message, scope, verdict.evidence);
  });
}

/** The page spec for an artifact's page id. */
export function pageSpecOf(context: AuditContext, pageId: string) {
  return context.spec.pages.find((page) => page.id === pageId);
}

/** The environment audited, as the spec defines it. */
export function auditedEnvironment(context: AuditContext): Environment {
  const env = context.spec.environments[context.environment];
  if (!env) throw new Error(`the spec has no environment "${context.environment}"`);
  return env;
}

/** A call in words for messages, by the method the page called: `capture("signup_success")`, `identify(…)`; an identify's user id is never shown. */
export function describeCall(call: Pick<CapturedCall, "kind" | "method" | "name">): string {
  if (call.kind === "identify") return `${call.method}(…)`;
  return `${call.method}(${call.name === null ? "?" : `"${call.name}"`})`;
}

/** The calls the page made: every call but those lost before the SDK existed, which never happened for the service. */
export function madeCalls(page: PageArtifacts): CapturedCall[] {
  return page.calls.filter((call) => call.state !== "lost");
}
