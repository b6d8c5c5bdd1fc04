import type { ApiArtifacts, ApiExchange } from "../artifacts.js";
import type { AuditSpec } from "../spec/schema.js";
import { ApiClient, systemClock, type Clock } from "./client.js";
import { findProject, serviceProjectKey, wantedProject } from "./match.js";
import { redactDeep } from "../redact.js";
import type { z } from "zod";
import { reportListSchema } from "./report.js";
import { goalListSchema, parseList, projectListSchema, recentEventListSchema } from "./schemas.js";

/**
 * The API gatherer: once per spec × environment, the project list, the goals and the report
 * data before the browsers start, the recent events once after they finish. It records what
 * the service said and never judges it; the key is redacted from everything it returns.
 */

/** The path of the only published endpoint. */
const PROJECTS_PATH = "/v1/projects";

/** What the gatherer may be handed instead of the real world. */
export interface ApiGatherOptions {
  /** Where the key's variable is looked up; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The clock of the client's waits and of the run's start; default the real one. */
  clock?: Clock;
  /** Random numbers in [0, 1) for the backoff jitter; default `Math.random`. */
  random?: () => number;
}

/** A list answer's schema: `{ "data": [T, …] }`. */
type ListSchema<T> = z.ZodType<{ data: T[] }>;

type ApiSpec = NonNullable<AuditSpec["api"]>;

/** Reads the project list, then the goals and the report data; null when the spec has no `api` section. */
export async function gatherApi(spec: AuditSpec, environment: string, options: ApiGatherOptions = {}): Promise<ApiArtifacts | null> {
  if (!spec.api) return null;
  const clock = options.clock ?? systemClock;
  const key = keyOf(spec.api, options);
  const artifacts: ApiArtifacts = {
    keyEnv: spec.api.keyEnv,
    keySet: key !== "",
    startedAt: new Date(clock.now()).toISOString(),
    projects: null,
    goals: null,
    recentEvents: null,
    report: null,
  };
  if (key === "") return artifacts;
  const client = clientFor(spec.api, key, options);
  const projects = await exchange(client, PROJECTS_PATH, projectListSchema);
  if (projects.date !== null) artifacts.startedAt = new Date(projects.date).toISOString();
  artifacts.projects = projects.exchange;
  if (projects.exchange.data !== null && spec.api.goalsPath) {
    artifacts.goals = await projectExchange(client, spec.api.goalsPath, spec, environment, artifacts, goalListSchema);
  }
  if (projects.exchange.data !== null && spec.report?.path) {
    artifacts.report = await projectExchange(client, spec.report.path, spec, environment, artifacts, reportListSchema);
  }
  return redactDeep(artifacts, key);
}

/**
 * Reads the recent events once, after the browsers finished, when `recentEventsPath` is set and
 * the project list was read; returns the artifacts with them added.
 */
export async function gatherRecentEvents(spec: AuditSpec, environment: string, artifacts: ApiArtifacts, options: ApiGatherOptions = {}): Promise<ApiArtifacts> {
  const key = spec.api ? keyOf(spec.api, options) : "";
  if (!spec.api?.recentEventsPath || key === "" || !artifacts.projects?.data) return artifacts;
  const client = clientFor(spec.api, key, options);
  const recentEvents = await projectExchange(client, spec.api.recentEventsPath, spec, environment, artifacts, recentEventListSchema);
  return redactDeep({ ...artifacts, recentEvents }, key);
}

function keyOf(api: ApiSpec, options: ApiGatherOptions): string {
  return ((options.env ?? process.env)[api.keyEnv] ?? "").trim();
}

function clientFor(api: ApiSpec, key: string, options: ApiGatherOptions): ApiClient {
  return new ApiClient({ baseUrl: api.baseUrl, key, policy: api.retry, clock: options.clock, random: options.random });
}

/** A configured path filled in, or why it cannot be; null when there is nothing to ask about. */
type FilledPath = { path: string } | { failure: ApiExchange<never> } | null;

/**
 * A configured path with `{project}` (the environment's key) and `{projectId}` (the matched
 * element's id) filled in, URL-encoded. Null when the project is not in the list (api.project
 * reports that), since asking about it would only cost a request.
 */
function projectPath(client: ApiClient, template: string, spec: AuditSpec, environment: string, artifacts: ApiArtifacts): FilledPath {
  const env = spec.environments[environment]!;
  const match = findProject(artifacts.projects?.data ?? [], wantedProject(env));
  if (match === null) return null;
  const id = match.element.id;
  if (template.includes("{projectId}") && id === undefined) {
    const detail = `${template} needs {projectId}, but the service's project element has no id field`;
    return { failure: { url: client.urlOf(template), attempts: 0, durationMs: 0, status: null, data: null, failure: { kind: "path", status: null, detail } } };
  }
  return { path: template.replaceAll("{project}", encodeURIComponent(serviceProjectKey(env))).replaceAll("{projectId}", encodeURIComponent(String(id))) };
}

/** The exchange with a configured project endpoint, or null when there was nothing to ask. */
async function projectExchange<T>(
  client: ApiClient,
  template: string,
  spec: AuditSpec,
  environment: string,
  artifacts: ApiArtifacts,
  schema: ListSchema<T>,
): Promise<ApiExchange<T> | null> {
  const filled = projectPath(client, template, spec, environment, artifacts);
  if (filled === null) return null;
  if ("failure" in filled) return filled.failure;
  return (await exchange(client, filled.path, schema)).exchange;
}

/** One GET, retries included, its body parsed and validated. */
async function exchange<T>(client: ApiClient, path: string, schema: ListSchema<T>): Promise<{ exchange: ApiExchange<T>; date: number | null }> {
  const answer = await client.get(path);
  const base = { url: answer.url, attempts: answer.attempts, durationMs: answer.durationMs };
  if (!answer.ok) return { exchange: { ...base, status: answer.failure.status, data: null, failure: answer.failure }, date: null };
  const date = answer.date === null ? Number.NaN : Date.parse(answer.date);
  const parsed = parseList(schema, answer.body);
  const exchanged: ApiExchange<T> = parsed.ok
    ? { ...base, status: answer.status, data: parsed.data, failure: null }
    : { ...base, status: answer.status, data: null, failure: { kind: "malformed", status: answer.status, detail: `${parsed.problem}; the body was ${client.excerpt(answer.body) || "empty"}` } };
  return { exchange: exchanged, date: Number.isNaN(date) ? null : date };
}
