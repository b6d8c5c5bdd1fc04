import { findProject, goalCondition, isWorkspace, projectKeysOf, serviceProjectKey, wantedProject, workspaceOf, type ProjectMatch } from "../api/match.js";
import type { ApiExchange, ApiGoal, ApiProject } from "../artifacts.js";
import type { CheckId } from "../check-ids.js";
import type { Finding } from "../results.js";
import { capitalised, formatDuration, nearMisses, orList } from "../text.js";
import { finding, type AuditContext, type Check, type Verdict } from "./check.js";

/**
 * The API checks: the service's own view of the project, read once per spec × environment.
 * Each gives one finding per spec × environment; when an earlier API step failed, the later
 * checks skip and point at the check that reports it, so one cause is reported once.
 */

function apiFinding(context: AuditContext, check: CheckId, verdict: Verdict): Finding[] {
  return [finding(context, check, verdict.status, verdict.message, {}, verdict.evidence ?? {})];
}

/** Why no API check can judge anything (no `api` section, no key, key refused); null when they can. */
export function blockedReason(context: AuditContext): string | null {
  const { api } = context;
  if (!context.spec.api || !api) return "The spec has no api section, so the service API is not cross-checked. Add one (baseUrl, keyEnv) to check the workspace, project and goals.";
  if (!api.keySet) return `Not judged: no API key in ${api.keyEnv} (see api.auth).`;
  if (isRefused(api.projects)) return "Not judged: the service refused the API key (see api.auth).";
  return null;
}

function isRefused(exchange: ApiExchange<unknown> | null): boolean {
  return exchange?.status === 401 || exchange?.status === 403;
}

/** The environment's project in the service's list, or why a check that needs it must skip. */
function matchedProject(context: AuditContext): { match: ProjectMatch } | { skip: string } {
  const blocked = blockedReason(context);
  if (blocked !== null) return { skip: blocked };
  const projects = context.api!.projects!.data;
  if (projects === null) return { skip: "Not judged: the service's project list could not be read (see api.project)." };
  const match = findProject(projects, wantedProjectOf(context));
  if (match === null) return { skip: "Not judged: the project is not in the service's project list (see api.project)." };
  return { match };
}

function wantedProjectOf(context: AuditContext) {
  return wantedProject(context.spec.environments[context.environment]!);
}

/** The spec field that holds an environment's key at the service, for messages. */
function keyField(context: AuditContext): string {
  const environment = context.environment;
  return `environments.${environment}.${context.spec.environments[environment]!.projectKey === undefined ? "key" : "projectKey"}`;
}

/** A finding's evidence of an exchange: what was asked, how often, how long, and how it ended. */
export function exchangeEvidence(exchange: ApiExchange<unknown>): Record<string, unknown> {
  return { url: exchange.url, attempts: exchange.attempts, durationMs: Math.round(exchange.durationMs), status: exchange.status, failure: exchange.failure };
}

/**
 * A failed exchange in words: what was asked, what went wrong (key redacted), how hard the
 * client tried, and what to do. `pathSetting` names the spec field that chose the URL.
 */
export function exchangeProblem(exchange: ApiExchange<unknown>, what: string, pathSetting: string): string {
  const failure = exchange.failure!;
  const asked = `Could not read ${what} (GET ${exchange.url})`;
  const tried = exchange.attempts > 1 ? `, after ${exchange.attempts} attempts in ${formatDuration(exchange.durationMs)}` : "";
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
      if (failure.status === 404) return `${asked}: ${failure.detail} — the service has no such endpoint. Fix ${pathSetting}.`;
      if (failure.status !== null && (failure.status === 429 || failure.status >= 500)) {
        return `${asked}: ${failure.detail}${tried}. The service is having trouble: run the audit later.`;
      }
      return `${asked}: ${failure.detail}. Check ${pathSetting}.`;
  }
}

/** api.auth: the service accepts the key named by `api.keyEnv`. */
export const apiAuth: Check = {
  id: "api.auth",
  scope: "run",
  title: "The service accepts the API key",
  failureTitle: "The API key is missing or refused",
  why:
    "Without a valid key the service's own view of the project — its workspace, key and goal " +
    "conditions — cannot be compared with the site, and every number-trusting check rests on guesses.",
  evaluate(context) {
    const { api } = context;
    if (!context.spec.api || !api) return apiFinding(context, "api.auth", { status: "skip", message: blockedReason(context)! });
    if (!api.keySet) {
      return apiFinding(context, "api.auth", {
        status: "fail",
        message: `No API key: set ${api.keyEnv} to the service's API key (the spec's api.keyEnv names that variable). The other API checks were skipped.`,
        evidence: { keyEnv: api.keyEnv },
      });
    }
    const exchange = api.projects!;
    const evidence = { keyEnv: api.keyEnv, ...exchangeEvidence(exchange) };
    if (exchange.status === 401) {
      const message = `The service rejected the key in ${api.keyEnv} (GET ${exchange.url}: ${exchange.failure!.detail}). Set ${api.keyEnv} to a valid API key of workspace "${context.spec.workspace}".`;
      return apiFinding(context, "api.auth", { status: "fail", message, evidence });
    }
    if (exchange.status === 403) {
      const message = `The service knows the key in ${api.keyEnv} but refused it the project list (GET ${exchange.url}: ${exchange.failure!.detail}). Use a key with access to workspace "${context.spec.workspace}".`;
      return apiFinding(context, "api.auth", { status: "fail", message, evidence });
    }
    if (exchange.status !== null && exchange.status >= 200 && exchange.status < 300) {
      return apiFinding(context, "api.auth", { status: "pass", message: `The service accepted the key in ${api.keyEnv}.`, evidence });
    }
    return apiFinding(context, "api.auth", { status: "skip", message: "Not judged: the service gave no answer that tells whether the key is valid (see api.project).", evidence });
  },
};

/** api.project: the environment's key or domain is among the projects the service lists. */
export const apiProject: Check = {
  id: "api.project",
  scope: "run",
  title: "The service lists the environment's project",
  failureTitle: "The service does not list the environment's project",
  why:
    "A key the service does not know, or the production key on staging, sends every event to a " +
    "project nobody looks at — or mixes test traffic into real results.",
  evaluate(context) {
    const blocked = blockedReason(context);
    if (blocked !== null) return apiFinding(context, "api.project", { status: "skip", message: blocked });
    const exchange = context.api!.projects!;
    if (exchange.data === null) {
      return apiFinding(context, "api.project", { status: "fail", message: exchangeProblem(exchange, "the project list", "api.baseUrl"), evidence: exchangeEvidence(exchange) });
    }
    return apiFinding(context, "api.project", judgeProject(context, exchange.data));
  },
};

function judgeProject(context: AuditContext, projects: readonly ApiProject[]): Verdict {
  const wanted = wantedProjectOf(context);
  const env = context.environment;
  const match = findProject(projects, wanted);
  if (match === null) {
    const keys = projects.flatMap(projectKeysOf);
    const close = nearMisses(wanted.key, keys);
    const hint = close.length > 0 ? ` — did you mean ${orList(close)}?` : "";
    return {
      status: "fail",
      message:
        `Neither the key \`${wanted.key}\` nor the domain \`${wanted.domain}\` of environment ${env} is among the ${projects.length} project(s) the service lists${hint} ` +
        `Fix ${keyField(context)} (or its domain), or use an API key of the workspace that holds the project.`,
      evidence: { key: wanted.key, domain: wanted.domain, listed: projects.length, nearMisses: close },
    };
  }
  const label = projectLabel(match);
  const evidence = { key: wanted.key, domain: wanted.domain, index: match.index, field: match.field, project: label };
  if (match.byKey) return { status: "pass", message: `The service lists the project: ${label} has ${match.field} \`${wanted.key}\`.`, evidence };
  const listedKeys = projectKeysOf(match.element);
  const otherEnv = Object.entries(context.spec.environments).find(([name, other]) => name !== env && listedKeys.includes(serviceProjectKey(other)));
  if (otherEnv) {
    return {
      status: "fail",
      message:
        `The service lists the domain \`${wanted.domain}\` under \`${serviceProjectKey(otherEnv[1])}\`, the spec's ${otherEnv[0]} key, while environment ${env} uses \`${wanted.key}\`: ` +
        `staging and production are mixed up. Fix ${keyField(context)} or environments.${otherEnv[0]}.domain.`,
      evidence,
    };
  }
  if (listedKeys.length > 0) {
    return {
      status: "warn",
      message: `The service lists the domain \`${wanted.domain}\` (${label}), but under the key ${orList(listedKeys)}, not \`${wanted.key}\`. If that is this environment's project, fix ${keyField(context)}.`,
      evidence,
    };
  }
  return { status: "pass", message: `The service lists the project by its domain: ${label} has ${match.field} \`${wanted.domain}\`.`, evidence };
}

/** `project "Demo shop (staging)"`, `project p_1001`, `project prj_demo` or `project #3`, for messages. */
function projectLabel(match: ProjectMatch): string {
  const { name, id } = match.element;
  if (typeof name === "string") return `project "${name}"`;
  const handle = id ?? projectKeysOf(match.element)[0];
  return handle !== undefined ? `project ${String(handle)}` : `project #${match.index + 1}`;
}

/** api.workspace: the listed project belongs to the spec's workspace, by name or id. */
export const apiWorkspace: Check = {
  id: "api.workspace",
  scope: "run",
  title: "The project is in the spec's workspace",
  failureTitle: "The project belongs to another workspace",
  why:
    "Experiments, goals and reports live in a workspace: a project in the wrong one is audited, " +
    "configured and read by the wrong team.",
  evaluate(context) {
    const found = matchedProject(context);
    if ("skip" in found) return apiFinding(context, "api.workspace", { status: "skip", message: found.skip });
    const named = workspaceOf(found.match.element);
    const label = projectLabel(found.match);
    if (named === null) {
      return apiFinding(context, "api.workspace", {
        status: "skip",
        message: `Not judged: the service's element for ${label} names no workspace (no workspace, workspaceName or workspaceId field, nor one nested), so the workspace cannot be checked.`,
      });
    }
    const wanted = context.spec.workspace;
    const evidence = { workspace: wanted, listed: { id: named.id, name: named.name }, field: named.field };
    if (isWorkspace(named, wanted)) {
      return apiFinding(context, "api.workspace", { status: "pass", message: `${capitalised(label)} is in workspace "${wanted}".`, evidence });
    }
    const shown = [named.name === null ? null : `"${named.name}"`, named.id === null ? null : `id ${named.id}`].filter(Boolean).join(", ");
    const close = nearMisses(wanted, [named.name, named.id].filter((value): value is string => value !== null));
    const hint = close.length > 0 ? ` — did you mean ${orList(close)}?` : ".";
    return apiFinding(context, "api.workspace", {
      status: "fail",
      message: `${capitalised(label)} belongs to workspace ${shown} in the service, not "${wanted}"${hint} Fix the spec's workspace, or move the project to the right workspace.`,
      evidence,
    });
  },
};

/** api.goals: each spec goal exists in the service by name, and its condition equals the spec's event exactly. */
export const apiGoals: Check = {
  id: "api.goals",
  scope: "run",
  title: "The service's goals match the spec's",
  failureTitle: "A goal is missing in the service or its condition differs",
  why:
    "A goal counts only events whose name equals its condition exactly: a goal missing in the " +
    "service, or a condition of `Signup Success` for an event `signup_success`, shows zero conversions without any error.",
  evaluate(context) {
    const skip = (message: string) => apiFinding(context, "api.goals", { status: "skip", message });
    const goalsPath = context.spec.api?.goalsPath;
    const blocked = blockedReason(context);
    if (blocked !== null) return skip(blocked);
    if (!goalsPath) return skip("The spec's api section has no goalsPath, so goal conditions are not cross-checked with the service. Add one, like /v1/projects/{project}/goals.");
    if (context.spec.goals.length === 0) return skip("The spec defines no goals.");
    const found = matchedProject(context);
    if ("skip" in found) return skip(found.skip);
    const exchange = context.api!.goals;
    if (exchange === null) return skip("Not judged: the goals were not read.");
    if (exchange.data === null) {
      return apiFinding(context, "api.goals", { status: "fail", message: exchangeProblem(exchange, "the service's goals", "api.goalsPath"), evidence: exchangeEvidence(exchange) });
    }
    return apiFinding(context, "api.goals", judgeGoals(context, exchange.data));
  },
};

function judgeGoals(context: AuditContext, listed: readonly ApiGoal[]): Verdict {
  const names = listed.map((goal) => goal.name).filter((name): name is string => typeof name === "string");
  const judged = context.spec.goals.map((goal) => {
    const conditions = listed.filter((candidate) => candidate.name === goal.name).map(goalCondition);
    const problem = goalProblem(goal, conditions, names);
    return { name: goal.name, event: goal.event, found: conditions.length > 0, conditions, problem };
  });
  const evidence = { goals: judged.map(({ problem: _problem, ...rest }) => rest), listed: names };
  const problems = judged.flatMap((goal) => (goal.problem === null ? [] : [goal.problem]));
  if (problems.length > 0) {
    return {
      status: "fail",
      message: `${problems.join("; ")}. Make each goal's condition in the service equal the event the page sends, exactly, or fix the spec's goals.`,
      evidence,
    };
  }
  const pairs = judged.map((goal) => `"${goal.name}" = \`${goal.event}\``).join(", ");
  return { status: "pass", message: `Every goal exists in the service with the spec's event as its condition (${pairs}).`, evidence };
}

function goalProblem(goal: { name: string; event: string }, conditions: readonly (string | null)[], names: readonly string[]): string | null {
  if (conditions.length === 0) {
    const close = nearMisses(goal.name, names);
    return `goal "${goal.name}" is not in the service${close.length > 0 ? ` (did you mean ${orList(close)}?)` : ""}`;
  }
  if (conditions.includes(goal.event)) return null;
  const readable = conditions.filter((condition): condition is string => condition !== null);
  if (readable.length === 0) return `goal "${goal.name}" has no condition setup-audit can read (a string, or an object with equals, value or event)`;
  const near = readable.some((condition) => nearMisses(goal.event, [condition]).length > 0);
  const nearHint = near ? ` (a near miss: did you mean \`${goal.event}\`?)` : "";
  return `goal "${goal.name}" has the condition ${orList(readable)} in the service, but the spec's event is \`${goal.event}\`${nearHint}`;
}
