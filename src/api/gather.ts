import type { z } from "zod";
import type { ApiArtifacts, ApiExchange } from "./artifacts.js";
import { ApiClient, systemClock, type Clock } from "./client.js";
import { findProject, type ProjectWanted } from "./match.js";
import { redactDeep } from "../privacy/redact.js";
import { reportListSchema } from "./service-report.js";
import type { RetryPolicy } from "./retry.js";
import { goalListSchema, parseList, projectListSchema, recentEventListSchema } from "./schemas.js";

/**
 * The API gatherer: once per spec × environment, the project list, the goals and the report
 * data before the browsers start, the recent events once after they finish. It records what
 * the service said and never judges it; the key is redacted from everything it returns.
 */

/** The path of the only published endpoint. */
const PROJECTS_PATH = "/v1/projects";

/** What to ask the service about one spec × environment: plain values, read from the spec by the CLI. */
export interface ApiSettings {
  /** The service's base URL (`api.baseUrl`), path prefix allowed. */
  baseUrl: string;
  /** The environment variable that holds the API key (`api.keyEnv`). */
  keyEnv: string;
  /** Overrides of the client's retry policy (`api.retry`). */
  retry?: Partial<RetryPolicy>;
  /** The goals endpoint (`api.goalsPath`), when configured. */
  goalsPath?: string;
  /** The recent-events endpoint (`api.recentEventsPath`), when configured. */
  recentEventsPath?: string;
  /** The report data endpoint (`report.path`), when configured. */
  reportPath?: string;
  /** The environment's project as the service names it: its key (which fills `{project}`) and its domain. */
  project: ProjectWanted;
}

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

/** Reads the project list, then the goals and the report data. */
export async function gatherApi(settings: ApiSettings, options: ApiGatherOptions = {}): Promise<ApiArtifacts> {
  const clock = options.clock ?? systemClock;
  const key = keyOf(settings, options);
  const artifacts: ApiArtifacts = {
    keyEnv: settings.keyEnv,
    keySet: key !== "",
    startedAt: new Date(clock.now()).toISOString(),
    projects: null,
    goals: null,
    recentEvents: null,
    report: null,
  };
  if (key === "") return artifacts;
  const client = clientFor(settings, key, options);
  const projects = await exchange(client, PROJECTS_PATH, projectListSchema);
  if (projects.date !== null) artifacts.startedAt = new Date(projects.date).toISOString();
  artifacts.projects = projects.exchange;
  if (projects.exchange.data !== null && settings.goalsPath) {
    artifacts.goals = await projectExchange(client, settings.goalsPath, settings.project, artifacts, goalListSchema);
  }
  if (projects.exchange.data !== null && settings.reportPath) {
    artifacts.report = await projectExchange(
      client,
      settings.reportPath,
      settings.project,
      artifacts,
      reportListSchema,
    );
  }
  return redactDeep(artifacts, key);
}

/**
 * Reads the recent events once, after the browsers finished, when `recentEventsPath` is set and
 * the project list was read; returns the artifacts with them added.
 */
export async function gatherRecentEvents(
  settings: ApiSettings,
  artifacts: ApiArtifacts,
  options: ApiGatherOptions = {},
): Promise<ApiArtifacts> {
  const key = keyOf(settings, options);
  if (!settings.recentEventsPath || key === "" || !artifacts.projects?.data) return artifacts;
  const client = clientFor(settings, key, options);
  const recentEvents = await projectExchange(
    client,
    settings.recentEventsPath,
    settings.project,
    artifacts,
    recentEventListSchema,
  );
  return redactDeep({ ...artifacts, recentEvents }, key);
}

function keyOf(settings: ApiSettings, options: ApiGatherOptions): string {
  return ((options.env ?? process.env)[settings.keyEnv] ?? "").trim();
}

function clientFor(settings: ApiSettings, key: string, options: ApiGatherOptions): ApiClient {
  return new ApiClient({
    baseUrl: settings.baseUrl,
    key,
    policy: settings.retry,
    clock: options.clock,
    random: options.random,
  });
}

/** A configured path filled in, or why it cannot be; null when there is nothing to ask about. */
type FilledPath = { path: string } | { failure: ApiExchange<never> } | null;

/**
 * A configured path with `{project}` (the environment's key) and `{projectId}` (the matched
 * element's id) filled in, URL-encoded. Null when the project is not in the list (api.project
 * reports that), since asking about it would only cost a request.
 */
function projectPath(client: ApiClient, template: string, project: ProjectWanted, artifacts: ApiArtifacts): FilledPath {
  const match = findProject(artifacts.projects?.data ?? [], project);
  if (match === null) return null;
  const id = match.element.id;
  if (template.includes("{projectId}") && id === null) {
    const detail = `${template} needs {projectId}, but the service's project element has no id field`;
    return {
      failure: {
        url: client.urlOf(template),
        attempts: 0,
        durationMs: 0,
        status: null,
        data: null,
        failure: { kind: "path", status: null, detail },
      },
    };
  }
  return {
    path: template
      .replaceAll("{project}", encodeURIComponent(project.key))
      .replaceAll("{projectId}", encodeURIComponent(String(id))),
  };
}

/** The exchange with a configured project endpoint, or null when there was nothing to ask. */
async function projectExchange<T>(
  client: ApiClient,
  template: string,
  project: ProjectWanted,
  artifacts: ApiArtifacts,
  schema: ListSchema<T>,
): Promise<ApiExchange<T> | null> {
  const filled = projectPath(client, template, project, artifacts);
  if (filled === null) return null;
  if ("failure" in filled) return filled.failure;
  return (await exchange(client, filled.path, schema)).exchange;
}

/** One GET, retries included, its body parsed and validated. */
async function exchange<T>(
  client: ApiClient,
  path: string,
  schema: ListSchema<T>,
): Promise<{ exchange: ApiExchange<T>; date: number | null }> {
  const answer = await client.get(path);
  const base = { url: answer.url, attempts: answer.attempts, durationMs: answer.durationMs };
  if (!answer.ok)
    return { exchange: { ...base, status: answer.failure.status, data: null, failure: answer.failure }, date: null };
  const date = answer.date === null ? Number.NaN : Date.parse(answer.date);
  const parsed = parseList(schema, answer.body);
  const exchanged: ApiExchange<T> = parsed.ok
    ? { ...base, status: answer.status, data: parsed.data, failure: null }
    : {
        ...base,
        status: answer.status,
        data: null,
        failure: {
          kind: "malformed",
          status: answer.status,
          detail: `${parsed.problem}; the body was ${client.excerpt(answer.body) || "empty"}`,
        },
      };
  return { exchange: exchanged, date: Number.isNaN(date) ? null : date };
}
