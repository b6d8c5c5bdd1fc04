import { environmentDomain } from "../domain.js";
import type { ApiGoal, ApiProject, ApiRecentEvent, ApiWorkspaceRef } from "../artifacts.js";

/**
 * How setup-audit reads the service's elements, whose shape is not published: project elements
 * are matched on whichever identifying field they carry, workspaces and goal conditions are read
 * from the forms services commonly use. Pure functions, shared by the API gatherer and the checks.
 */

/** What identifies an environment's project: its key and its domain. */
export interface ProjectWanted {
  /** The environment's project key at the service (`projectKey`, else `key`). */
  key: string;
  /** Lower-case host name. */
  domain: string;
}

/** The service's key of an environment's project: `projectKey` when the page's SDK key is a vendor's, else `key`. */
export function serviceProjectKey(env: { key: string; projectKey?: string | undefined }): string {
  return env.projectKey ?? env.key;
}

/** What names an environment's project in the service's list. */
export function wantedProject(env: { key: string; projectKey?: string | undefined; baseUrl: string; domain?: string | undefined }): ProjectWanted {
  return { key: serviceProjectKey(env), domain: environmentDomain(env) };
}

/** A project element that names the environment, and which of its fields did. */
export interface ProjectMatch {
  /** The element as the service listed it. */
  element: ApiProject;
  /** Position in the service's list. */
  index: number;
  /** The field that matched, like `projectKey` or `domains`. */
  field: string;
  /** True when the field held the key; false when it held the domain. */
  byKey: boolean;
}

/** The element fields compared with the key and the domain, in the order they are tried. */
const IDENTIFYING_FIELDS = ["key", "projectKey", "id", "domain", "domains", "url", "name"] as const;

/**
 * The element that names the environment: one holding the key wins over one holding only the
 * domain (a domain may host several projects); among equals, the first listed. Null when none.
 */
export function findProject(elements: readonly ApiProject[], wanted: ProjectWanted): ProjectMatch | null {
  const matches = matchingProjects(elements, wanted);
  return matches.find((match) => match.byKey) ?? matches[0] ?? null;
}

/** Every element that names the key or the domain, with the first field that does. */
export function matchingProjects(elements: readonly ApiProject[], wanted: ProjectWanted): ProjectMatch[] {
  return elements.flatMap((element, index) => {
    const values = IDENTIFYING_FIELDS.flatMap((field) => fieldValues(element, field).map((value) => ({ field, value })));
    const byKey = values.find(({ value }) => value === wanted.key);
    const byDomain = values.find(({ value }) => hostOf(value) === wanted.domain);
    const found = byKey ?? byDomain;
    return found ? [{ element, index, field: found.field, byKey: byKey !== undefined }] : [];
  });
}

/** The key-like values an element carries (`key`, `projectKey`), for near misses and mix-ups. */
export function projectKeysOf(element: ApiProject): string[] {
  return [...fieldValues(element, "key"), ...fieldValues(element, "projectKey")];
}

function fieldValues(element: ApiProject, field: (typeof IDENTIFYING_FIELDS)[number]): string[] {
  const value: unknown = element[field];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  if (typeof value === "number") return [String(value)];
  return typeof value === "string" ? [value] : [];
}

/** The lower-case host of `example.com`, `Example.com.`, `example.com:8080` or `https://example.com/x`. */
export function hostOf(value: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  return URL.canParse(withScheme) ? new URL(withScheme).hostname.toLowerCase().replace(/\.$/, "") : value.toLowerCase();
}

/** A workspace as an element names it; either part may be unknown. */
export interface WorkspaceNamed {
  /** The workspace's id, as text. */
  id: string | null;
  /** The workspace's name. */
  name: string | null;
  /** Where it was found, like `workspace` or `settings.workspace.name`. */
  field: string;
}

/**
 * The workspace a project element names: `workspace` (a name, or `{ id, name }`),
 * `workspaceName`, `workspaceId` — on the element itself, or else on an object it nests
 * (`settings: { workspace: … }`). Null when it names none.
 */
export function workspaceOf(element: ApiProject): WorkspaceNamed | null {
  const own = workspaceFields(element, "");
  if (own) return own;
  for (const [field, value] of Object.entries(element)) {
    if (isPlainObject(value) && field !== "workspace") {
      const nested = workspaceFields(value, `${field}.`);
      if (nested) return nested;
    }
  }
  return null;
}

function workspaceFields(holder: Record<string, unknown>, prefix: string): WorkspaceNamed | null {
  const { workspace, workspaceName, workspaceId } = holder;
  if (typeof workspace === "string") return { id: null, name: workspace, field: `${prefix}workspace` };
  if (isPlainObject(workspace)) {
    const ref = workspace as ApiWorkspaceRef;
    const named = { id: idText(ref.id), name: typeof ref.name === "string" ? ref.name : null, field: `${prefix}workspace` };
    if (named.id !== null || named.name !== null) return named;
  }
  const name = typeof workspaceName === "string" ? workspaceName : null;
  const id = idText(workspaceId);
  if (name === null && id === null) return null;
  return { id, name, field: `${prefix}${name !== null ? "workspaceName" : "workspaceId"}` };
}

/** True when the named workspace is `wanted`, by name or by id; a bare string counts as either. */
export function isWorkspace(named: WorkspaceNamed, wanted: string): boolean {
  return named.name === wanted || named.id === wanted;
}

/** The event a goal's condition names: the condition itself, or its `equals`, `value` or `event`. Null when unreadable. */
export function goalCondition(goal: ApiGoal): string | null {
  const { condition } = goal;
  if (typeof condition === "string") return condition;
  if (!isPlainObject(condition)) return null;
  const named = [condition.equals, condition.value, condition.event].find((value) => typeof value === "string");
  return named ?? null;
}

/** An event the service lists as received, in the terms of a captured call. */
export interface ListedEvent {
  /** The kind of call it records. */
  kind: "track" | "identify";
  /** The event name of a `track`, the user id of an `identify`; null when absent. */
  name: string | null;
  /** When the service received it (ms since the epoch); null when it does not say. */
  receivedAtMs: number | null;
}

/** Reads one recent event (`kind`/`type`, `name`/`event`, `userId`/`user_id`, `receivedAt`/…); null when it is neither a track nor an identify. */
export function listedEvent(event: ApiRecentEvent): ListedEvent | null {
  const kind = event.kind ?? event.type;
  if (kind !== "track" && kind !== "identify") return null;
  const name = kind === "track" ? (event.name ?? event.event ?? null) : idText(event.userId ?? event.user_id);
  const time = event.receivedAt ?? event.received_at ?? event.timestamp;
  return { kind, name, receivedAtMs: timeMs(time) };
}

/** Milliseconds since the epoch from an ISO date or a Unix time (seconds or milliseconds); null when unreadable. */
function timeMs(time: string | number | undefined): number | null {
  // Unix times in seconds stay below 1e11 until the year 5138; in milliseconds they passed it in 1973.
  const ms = typeof time === "number" ? (time < 1e11 ? time * 1000 : time) : typeof time === "string" ? Date.parse(time) : Number.NaN;
  return Number.isNaN(ms) ? null : ms;
}

function idText(value: unknown): string | null {
  if (typeof value === "string") return value;
  return typeof value === "number" ? String(value) : null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
