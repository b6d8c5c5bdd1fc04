import { gatherApi, gatherRecentEvents, type ApiSettings } from "../api/gather.js";
import { findProject, wantedProject } from "../api/match.js";
import type { ApiExchange } from "../artifacts/types.js";
import { environmentDomain } from "../url/domain.js";
import type { ServiceFacts } from "./spec-draft.js";

/**
 * What the service's API says about the project the installed key names (`init --api`), asked
 * through the same client, retries and matching rules as `run`: its workspace, its name and its
 * goals, and which of the usual endpoint paths answer.
 */

/** Where services like the bundled one list a project's goals and recent events; written only when they answer. */
export const USUAL_PATHS = {
  goalsPath: "/v1/projects/{project}/goals",
  recentEventsPath: "/v1/projects/{project}/events",
} as const;

/** The service to ask, and the project to ask it about. */
export interface ServiceQuestion {
  api: { baseUrl: string; keyEnv: string };
  /** The key the pages install, and the site's base URL (its host is the project's domain). */
  key: string;
  baseUrl: string;
}

/** Asks the service; never throws for what the service answers, which becomes `problem`. */
export async function askService(question: ServiceQuestion): Promise<ServiceFacts> {
  const first = await gatherFor(question, undefined);
  const facts: ServiceFacts = {
    ...question.api,
    workspace: null,
    project: null,
    projectKey: null,
    goals: null,
    goalsPath: null,
    recentEventsPath: null,
    problem: null,
  };
  const projects = first.api.projects;
  if (projects === null || projects.data === null)
    return { ...facts, problem: `the project list could not be read (${failureOf(projects)})` };
  const match = findProject(
    projects.data,
    wantedProject({ key: question.key }, environmentDomain({ baseUrl: question.baseUrl })),
  );
  if (match === null)
    return {
      ...facts,
      problem: `no project in its list names the key ${question.key} or the domain ${new URL(question.baseUrl).hostname}`,
    };
  const serviceKey = match.byKey ? null : (match.element.keys.find((key) => key !== question.key) ?? null);
  // Found by its domain under another key: the goals and events are that key's.
  const { api, settings } = serviceKey === null ? first : await gatherFor(question, serviceKey);
  const named = match.element.workspace;
  const withEvents = await gatherRecentEvents(settings, api);
  return {
    ...facts,
    workspace: named?.name ?? named?.id ?? null,
    project: match.element.name,
    projectKey: serviceKey,
    goals:
      api.goals?.data?.flatMap((goal) =>
        goal.name !== null && goal.condition !== null ? [{ name: goal.name, event: goal.condition }] : [],
      ) ?? null,
    goalsPath: answered(api.goals) ? USUAL_PATHS.goalsPath : null,
    recentEventsPath: answered(withEvents.recentEvents) ? USUAL_PATHS.recentEventsPath : null,
  };
}

async function gatherFor(question: ServiceQuestion, projectKey: string | undefined) {
  const settings: ApiSettings = {
    ...question.api,
    ...USUAL_PATHS,
    project: wantedProject({ key: question.key, projectKey }, environmentDomain({ baseUrl: question.baseUrl })),
  };
  return { settings, api: await gatherApi(settings) };
}

function answered(exchange: ApiExchange<unknown> | null): boolean {
  return exchange !== null && exchange.failure === null;
}

function failureOf(exchange: ApiExchange<unknown> | null): string {
  if (exchange === null) return "nothing was asked";
  return exchange.failure?.detail ?? `HTTP ${exchange.status}`;
}
