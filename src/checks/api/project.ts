import { CONDITION_FIELDS, findProject, isWorkspace, serviceProjectKey, wantedProject, WORKSPACE_FIELDS, type ProjectMatch } from "../api/match.js";
import type { ApiArtifacts, ApiExchange, ApiFailure, ApiGoal, ApiProject } from "../artifacts/types.js";
import type { Finding } from "../results/summary.js";
import { capitalised, formatDuration, nearMisses, orJoined, orList } from "../text/wording.js";
import { auditedEnvironment, defineCheck, specWideFinding, type AuditContext, type Verdict } from "./check.js";
import { needed } from "./inputs.js";

/**
 * The API checks: the service's own view of the project, read once per spec × environment.
 * Each needs the API's answers (without an `api` section the runner skips it, saying so) and gives
 * one finding per spec × environment; when an earlier API step failed, the later checks skip and
 * point at the check that reports it, so one cause is reported once.
 */

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
  if (!api.keySet || api.projects === null) return { blocked: `Not judged: no API key in ${api.keyEnv} (see api.auth).` };
  if (api.projects.status === 401 || api.projects.status === 403) return { blocked: "Not judged: the service refused the API key (see api.auth)." };
  return { api, projects: api.projects };
}

/** The environment's project in the service's list, or why a check that needs it must skip. */
function matchedProject(context: AuditContext): { api: ApiArtifacts; match: ProjectMatch<ApiProject> } | { skip: string } {
  const judgeable = judgeableApi(context);
  if ("blocked" in judgeable) return { skip: judgeable.blocked };
  const projects = judgeable.projects.data;
  if (projects === null) return { skip: "Not judged: the service's project list could not be read (see api.project)." };
  const match = findProject(projects, wantedProjectOf(context));
  if (match === null) return { skip: "Not judged: the project is not in the service's project list (see api.project)." };
  return { api: judgeable.api, match };
}

function wantedProjectOf(context: AuditContext) {
  return wantedProject(auditedEnvironment(context));
}

/** The spec field that holds an environment's key at the service, for messages. */
function keyField(context: AuditContext): string {
  return `environments.${context.environment}.${auditedEnvironment(context).projectKey === undefined ? "key" : "projectKey"}`;
}

/** A finding's evidence of an exchange: what was asked, how often, how long, and how it ended. */
export function exchangeEvidence(exchange: ApiExchange<unknown>): Record<string, unknown> {
  return { url: exchange.url, attempts: exchange.attempts, durationMs: Math.round(exchange.durationMs), status: exchange.status, failure: exchange.failure };
}

/**
 * A failed exchange in words: what was asked, what went wrong (key redacted), how hard the
 * client tried, and what to do. `pathSetting` names the spec field that chose the URL.
 */
export function exchangeProblem(exchange: ApiExchange<unknown> & { failure: ApiFailure }, what: string, pathSetting: string): string {
  const { failure } = exchange;
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
export const apiAuth = defineCheck({
  id: "api.auth",
  scope: "run",
  title: "The service accepts the API key",
  failureTitle: "The API key is missing or refused",
  family: "API",
  severity: "blocker",
  checklist: "workspace",
  failsWhen:
    "`api` is configured and the variable `api.keyEnv` names is unset or empty, or the service refuses " +
    "the key (401, 403)",
  why:
    "Without a valid key the service's own view of the project — its workspace, key and goal " +
    "conditions — cannot be compared with the site, and every number-trusting check rests on guesses.",
  needs: ["api"],
  evaluate(context): Finding[] {
    const api = needed(context, "api");
    if (!api.keySet || api.projects === null) {
      return specWideFinding(context, {
        status: "fail",
        message: `No API key: set ${api.keyEnv} to the service's API key (the spec's api.keyEnv names that variable). The other API checks were skipped.`,
        evidence: { keyEnv: api.keyEnv },
      });
    }
    const exchange = api.projects;
    const evidence = { keyEnv: api.keyEnv, ...exchangeEvidence(exchange) };
    const { failure } = exchange;
    if (failure?.status === 401) {
      const message = `The service rejected the key in ${api.keyEnv} (GET ${exchange.url}: ${failure.detail}). Set ${api.keyEnv} to a valid API key of workspace "${context.spec.workspace}".`;
      return specWideFinding(context, { status: "fail", message, evidence });
    }
    if (failure?.status === 403) {
      const message = `The service knows the key in ${api.keyEnv} but refused it the project list (GET ${exchange.url}: ${failure.detail}). Use a key with access to workspace "${context.spec.workspace}".`;
      return specWideFinding(context, { status: "fail", message, evidence });
    }
    if (exchange.status !== null && exchange.status >= 200 && exchange.status < 300) {
      return specWideFinding(context, { status: "pass", message: `The service accepted the key in ${api.keyEnv}.`, evidence });
    }
    return specWideFinding(context, { status: "skip", message: "Not judged: the service gave no answer that tells whether the key is valid (see api.project).", evidence });
  },
});

/** api.project: the environment's key or domain is among the projects the service lists. */
export const apiProject = defineCheck({
  id: "api.project",
  scope: "run",
  title: "The service lists the environment's project",
  failureTitle: "The service does not list the environment's project",
  family: "API",
  severity: "critical",
  checklist: "projectKeyOrDomain",
  failsWhen:
    "the project list could not be read (the cause, the attempts and the time are named), or neither the " +
    "environment's key nor its domain is in it (near misses named); **warn** when the domain is listed " +
    "under another key, **fail** when that key is another environment's",
  why:
    "A key the service does not know, or the production key on staging, sends every event to a " +
    "project nobody looks at — or mixes test traffic into real results.",
  needs: ["api"],
  evaluate(context): Finding[] {
    const judgeable = judgeableApi(context);
    if ("blocked" in judgeable) return specWideFinding(context, { status: "skip", message: judgeable.blocked });
    const exchange = judgeable.projects;
    if (exchange.data === null) {
      return specWideFinding(context, { status: "fail", message: exchangeProblem(exchange, "the project list", "api.baseUrl"), evidence: exchangeEvidence(exchange) });
    }
    return specWideFinding(context, judgeProject(context, exchange.data));
  },
});

function judgeProject(context: AuditContext, projects: readonly ApiProject[]): Verdict {
  const wanted = wantedProjectOf(context);
  const env = context.environment;
  const match = findProject(projects, wanted);
  if (match === null) {
    const keys = projects.flatMap((project) => project.keys);
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
  const listedKeys = match.element.keys;
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
function projectLabel(match: ProjectMatch<ApiProject>): string {
  const { name, id, keys } = match.element;
  if (name !== null) return `project "${name}"`;
  const handle = id ?? keys[0];
  return handle !== undefined ? `project ${handle}` : `project #${match.index + 1}`;
}

/** api.workspace: the listed project belongs to the spec's workspace, by name or id. */
export const apiWorkspace = defineCheck({
  id: "api.workspace",
  scope: "run",
  title: "The project is in the spec's workspace",
  failureTitle: "The project belongs to another workspace",
  family: "API",
  severity: "critical",
  checklist: "workspace",
  failsWhen: "the listed project names another workspace (by name and id); **skip** when the element names none",
  why:
    "Experiments, goals and reports live in a workspace: a project in the wrong one is audited, " +
    "configured and read by the wrong team.",
  needs: ["api"],
  evaluate(context): Finding[] {
    const found = matchedProject(context);
    if ("skip" in found) return specWideFinding(context, { status: "skip", message: found.skip });
    const named = found.match.element.workspace;
    const label = projectLabel(found.match);
    if (named === null) {
      return specWideFinding(context, {
        status: "skip",
        message: `Not judged: the service's element for ${label} names no workspace (no ${orJoined(WORKSPACE_FIELDS)} field, nor one nested), so the workspace cannot be checked.`,
      });
    }
    const wanted = context.spec.workspace;
    const evidence = { workspace: wanted, listed: { id: named.id, name: named.name }, field: named.field };
    if (isWorkspace(named, wanted)) {
      return specWideFinding(context, { status: "pass", message: `${capitalised(label)} is in workspace "${wanted}".`, evidence });
    }
    const shown = [named.name === null ? null : `"${named.name}"`, named.id === null ? null : `id ${named.id}`].filter(Boolean).join(", ");
    const close = nearMisses(wanted, [named.name, named.id].filter((value): value is string => value !== null));
    const hint = close.length > 0 ? ` — did you mean ${orList(close)}?` : ".";
    return specWideFinding(context, {
      status: "fail",
      message: `${capitalised(label)} belongs to workspace ${shown} in the service, not "${wanted}"${hint} Fix the spec's workspace, or move the project to the right workspace.`,
      evidence,
    });
  },
});

/** api.goals: each spec goal exists in the service by name, and its condition equals the spec's event exactly. */
export const apiGoals = defineCheck({
  id: "api.goals",
  scope: "run",
  title: "The service's goals match the spec's",
  failureTitle: "A goal is missing in the service or its condition differs",
  family: "API",
  severity: "critical",
  checklist: "goalEventMatch",
  failsWhen:
    "a spec goal is not in the service (\"did you mean …\"), its condition differs from the spec's event " +
    "(near misses named), or the goals could not be read; **skip** without `api.goalsPath`",
  why:
    "A goal counts only events whose name equals its condition exactly: a goal missing in the " +
    "service, or a condition of `Signup Success` for an event `signup_success`, shows zero conversions without any error.",
  needs: ["api"],
  evaluate(context): Finding[] {
    const skip = (message: string) => specWideFinding(context, { status: "skip", message });
    const goalsPath = context.spec.api?.goalsPath;
    const judgeable = judgeableApi(context);
    if ("blocked" in judgeable) return skip(judgeable.blocked);
    if (!goalsPath) return skip("The spec's api section has no goalsPath, so goal conditions are not cross-checked with the service. Add one, like /v1/projects/{project}/goals.");
    if (context.spec.goals.length === 0) return skip("The spec defines no goals.");
    const found = matchedProject(context);
    if ("skip" in found) return skip(found.skip);
    const exchange = found.api.goals;
    if (exchange === null) return skip("Not judged: the goals were not read.");
    if (exchange.data === null) {
      return specWideFinding(context, { status: "fail", message: exchangeProblem(exchange, "the service's goals", "api.goalsPath"), evidence: exchangeEvidence(exchange) });
    }
    return specWideFinding(context, judgeGoals(context, exchange.data));
  },
});

/** The `api.*` checks, in the order the report shows them. */
export const API_CHECKS = [apiAuth, apiProject, apiWorkspace, apiGoals] as const;

function judgeGoals(context: AuditContext, listed: readonly ApiGoal[]): Verdict {
  const names = listed.flatMap((goal) => (goal.name === null ? [] : [goal.name]));
  const judged = context.spec.goals.map((goal) => {
    const conditions = listed.filter((candidate) => candidate.name === goal.name).map((candidate) => candidate.condition);
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
  if (readable.length === 0) return `goal "${goal.name}" has no condition setup-audit can read (a string, or an object with ${orJoined(CONDITION_FIELDS)})`;
  const near = readable.some((condition) => nearMisses(goal.event, [condition]).length > 0);
  const nearHint = near ? ` (a near miss: did you mean \`${goal.event}\`?)` : "";
  return `goal "${goal.name}" has the condition ${orList(readable)} in the service, but the spec's event is \`${goal.event}\`${nearHint}`;
}
