import { gatherApi, gatherRecentEvents, type ApiGatherOptions, type ApiSettings } from "../api/gather.js";
import { wantedProject } from "../api/match.js";
import type { ApiArtifacts, ApiExchange } from "../artifacts/types.js";
import type { AuditTarget } from "../schedule/plan.js";
import { environmentOf } from "../audit-spec/environment.js";

/**
 * The API phases of a run, as the CLI drives them: before the browsers, every spec ×
 * environment's project list, goals and report data; after them, the recent events — one
 * target after the other, so the service never sees more than one of our requests at a time.
 */

/** What to ask the service about a spec's environment, whose domain the plan gave; null when the spec has no `api` section. */
export function apiSettings({
  spec,
  environment,
  domain,
}: Pick<AuditTarget, "spec" | "environment" | "domain">): ApiSettings | null {
  if (!spec.api) return null;
  const { baseUrl, keyEnv, retry, goalsPath, recentEventsPath } = spec.api;
  return {
    baseUrl,
    keyEnv,
    retry,
    goalsPath,
    recentEventsPath,
    reportPath: spec.report?.path,
    project: wantedProject(environmentOf(spec, environment), domain),
  };
}

/** Gathers the API of every target before the browsers start; null for a target without `api`. */
export async function gatherApiBeforeBrowsers(
  targets: readonly AuditTarget[],
  report: (line: string) => void,
  options: ApiGatherOptions = {},
): Promise<(ApiArtifacts | null)[]> {
  const gathered: (ApiArtifacts | null)[] = [];
  for (const target of targets) {
    const settings = apiSettings(target);
    const api = settings && (await gatherApi(settings, options));
    if (api) report(progressLine(target, api, { projects: api.projects, goals: api.goals, report: api.report }));
    gathered.push(api);
  }
  return gathered;
}

/** Reads each target's recent events once, after the browsers finished (where configured). */
export async function gatherApiAfterBrowsers(
  targets: readonly AuditTarget[],
  before: readonly (ApiArtifacts | null)[],
  report: (line: string) => void,
  options: ApiGatherOptions = {},
): Promise<(ApiArtifacts | null)[]> {
  const gathered: (ApiArtifacts | null)[] = [];
  for (const [index, target] of targets.entries()) {
    const api = before[index] ?? null;
    const settings = apiSettings(target);
    // With traffic.collect: intercept nothing reached the service, so there is nothing to read back.
    const after =
      api && settings && target.spec.traffic.collect === "send"
        ? await gatherRecentEvents(settings, api, options)
        : api;
    if (after?.recentEvents) report(progressLine(target, after, { "recent events": after.recentEvents }));
    gathered.push(after);
  }
  return gathered;
}

/** `API demo-shop › staging  projects 200 · goals 200  2 request(s)  0.1 s`. */
function progressLine(
  target: AuditTarget,
  api: ApiArtifacts,
  exchanges: Record<string, ApiExchange<unknown> | null>,
): string {
  const where = `API ${target.slug} › ${target.environment}`;
  if (!api.keySet) return `${where}  not asked: ${api.keyEnv} is not set\n`;
  const done = Object.entries(exchanges).filter((entry): entry is [string, ApiExchange<unknown>] => entry[1] !== null);
  const outcomes = done.map(
    ([name, exchange]) =>
      `${name} ${exchange.failure === null ? exchange.status : `failed (${exchange.failure.kind})`}`,
  );
  const requests = done.reduce((sum, [, exchange]) => sum + exchange.attempts, 0);
  const duration = done.reduce((sum, [, exchange]) => sum + exchange.durationMs, 0);
  return `${where}  ${outcomes.join(" · ")}  ${requests} request(s)  ${(duration / 1000).toFixed(1)} s\n`;
}
