import { findProject, wantedProject, type ProjectMatch } from "../../api/match.js";
import type { ApiArtifacts, ApiExchange, ApiFailure, ApiProject } from "../../artifacts/types.js";
import { formatDuration } from "../../text/wording.js";
import { auditedEnvironment, type AuditContext, type Verdict } from "../check.js";
import { needed } from "../inputs.js";

/** The service's answers as the API checks (and report.warnings) read them, and how a failed exchange is told. */

/** The service's answers once the API checks can judge them: a key was set and the service did not refuse it. */
export interface JudgeableApi {
  /** Everything the API gather recorded. */
  api: ApiArtifacts;
  /** The exchange of `GET /v1/projects`. */
  projects: ApiExchange<ApiProject>;
}

/** The service's answers, or why no API check can judge anything (no key, key refused); for checks that need `api`. */
export function judgeableApi(context: AuditContext): JudgeableApi | { blocked: string } {
  const api = needed(context, "api");
  // The project list is asked whenever a key is set.
  if (!api.keySet || api.projects === null)
    return { blocked: `Not judged: no API key in ${api.keyEnv} (see api.auth).` };
  if (api.projects.status === 401 || api.projects.status === 403)
    return { blocked: "Not judged: the service refused the API key (see api.auth)." };
  return { api, projects: api.projects };
}

/** The environment's project in the service's list, or why a check that needs it must skip. */
export function matchedProject(
  context: AuditContext,
): { api: ApiArtifacts; match: ProjectMatch<ApiProject> } | { skip: string } {
  const judgeable = judgeableApi(context);
  if ("blocked" in judgeable) return { skip: judgeable.blocked };
  const projects = judgeable.projects.data;
  if (projects === null) return { skip: "Not judged: the service's project list could not be read (see api.project)." };
  const match = findProject(projects, wantedProjectOf(context));
  if (match === null)
    return { skip: "Not judged: the project is not in the service's project list (see api.project)." };
  return { api: judgeable.api, match };
}

export function wantedProjectOf(context: AuditContext) {
  return wantedProject(auditedEnvironment(context), context.domain);
}

/** The spec field that holds an environment's key at the service, for messages. */
export function keyField(context: AuditContext): string {
  return `environments.${context.environment}.${auditedEnvironment(context).projectKey === undefined ? "key" : "projectKey"}`;
}

/** A finding's evidence of an exchange: what was asked, how often, how long, and how it ended. */
export function exchangeEvidence(exchange: ApiExchange<unknown>): Record<string, unknown> {
  return {
    url: exchange.url,
    attempts: exchange.attempts,
    durationMs: Math.round(exchange.durationMs),
    status: exchange.status,
    failure: exchange.failure,
  };
}

/** The failure of an exchange the check needed: what went wrong in words, and the exchange as evidence. */
export function failedExchange(
  exchange: ApiExchange<unknown> & { failure: ApiFailure },
  what: string,
  pathSetting: string,
): Verdict {
  return {
    status: "fail",
    message: exchangeProblem(exchange, what, pathSetting),
    evidence: exchangeEvidence(exchange),
  };
}

/**
 * A failed exchange in words: what was asked, what went wrong (key redacted), how hard the
 * client tried, and what to do. `pathSetting` names the spec field that chose the URL.
 */
function exchangeProblem(
  exchange: ApiExchange<unknown> & { failure: ApiFailure },
  what: string,
  pathSetting: string,
): string {
  const { failure } = exchange;
  const asked = `Could not read ${what} (GET ${exchange.url})`;
  const tried =
    exchange.attempts > 1 ? `, after ${exchange.attempts} attempts in ${formatDuration(exchange.durationMs)}` : "";
  switch (failure.kind) {
    case "network":
      return `${asked}: ${failure.detail}${tried}. Check api.baseUrl and that the service is up, then run the audit again.`;
    case "timeout":
      return `${asked}: ${failure.detail}${tried}. The service is slow or down: run the audit later, or raise api.retry.timeoutMs.`;
    case "retry-after":
      return `${asked}: it is rate limited — ${failure.detail}${tried}. Run the audit later, or raise api.retry.totalTimeoutMs.`;
    case "malformed":
      return `${asked}: it answered HTTP ${failure.status}, but the body could not be understood: ${failure.detail}. Check that ${pathSetting} points at the service's API; if it does, its answer changed shape — report it.`;
    case "path":
      return `${asked}: ${failure.detail}. Use {project} (the environment's key) in ${pathSetting} instead.`;
    case "http":
      if (failure.status === 404)
        return `${asked}: ${failure.detail} — the service has no such endpoint. Fix ${pathSetting}.`;
      if (failure.status !== null && (failure.status === 429 || failure.status >= 500)) {
        return `${asked}: ${failure.detail}${tried}. The service is having trouble: run the audit later.`;
      }
      return `${asked}: ${failure.detail}. Check ${pathSetting}.`;
  }
}

/** `project "Demo shop (staging)"`, `project p_1001`, `project prj_demo` or `project #3`, for messages. */
export function projectLabel(match: ProjectMatch<ApiProject>): string {
  const { name, id, keys } = match.element;
  if (name !== null) return `project "${name}"`;
  const handle = id ?? keys[0];
  return handle !== undefined ? `project ${handle}` : `project #${match.index + 1}`;
}
