import { z } from "zod";
import { parseJsonWith } from "../text/parse-json.js";
import { CONDITION_FIELDS, WORKSPACE_FIELDS, type ProjectIdentifier, type WorkspaceNamed } from "./match.js";

/**
 * The shapes setup-audit reads from the service API: `{ "data": [...] }` whose elements are
 * objects. Each element is validated leniently — the fields read must have their expected type,
 * unknown fields are allowed, any may be missing — and then normalised, once, into one typed
 * shape whichever of the common field names the service used. Validation comes first, so a
 * problem names the service's own fields (`data[2].domains must be a list, …`).
 */

/** An id: services use text or numbers. */
export const idValue = z.union([z.string(), z.number()]);

/** `{ field: schema, … }`, each optional: the names one fact may stand under, all of one type. */
export function aliasFields<const F extends string, S extends z.ZodType>(
  fields: readonly F[],
  schema: S,
): { [K in F]: z.ZodOptional<S> } {
  return Object.fromEntries(fields.map((field) => [field, schema.optional()])) as { [K in F]: z.ZodOptional<S> };
}

/** The value of the first of `fields` that the element has; null when it has none. */
export function firstOf<E extends object, F extends keyof E>(
  element: E,
  fields: readonly F[],
): NonNullable<E[F]> | null {
  for (const field of fields) {
    const value = element[field];
    if (value !== undefined && value !== null) return value;
  }
  return null;
}

/** An id or a name as text; null when it is neither text nor a number. */
export function idText(value: unknown): string | null {
  if (typeof value === "string") return value;
  return typeof value === "number" ? String(value) : null;
}

const workspaceRef = z.object({ id: idValue.optional(), name: z.string().optional() });

const workspaceShape = {
  workspace: z.union([z.string(), workspaceRef]).optional(),
  workspaceName: z.string().optional(),
  workspaceId: idValue.optional(),
} satisfies Record<(typeof WORKSPACE_FIELDS)[number], z.ZodType>;

/** The fields compared with the environment's key and domain, in the order they are tried. */
const identifyingShape = {
  key: z.string().optional(),
  projectKey: z.string().optional(),
  id: idValue.optional(),
  domain: z.string().optional(),
  domains: z.array(z.string()).optional(),
  url: z.string().optional(),
  name: z.string().optional(),
};

const IDENTIFYING_FIELDS = Object.keys(identifyingShape) as (keyof typeof identifyingShape)[];

// Loose, because the workspace may stand on any object the element nests.
const projectSchema = z.looseObject({ ...identifyingShape, ...workspaceShape }).transform((element) => ({
  /** The service's id of the project, as text; fills `{projectId}`; null when it has none. */
  id: idText(element.id),
  /** Its display name; null when it has none. */
  name: element.name ?? null,
  /** The project keys it carries (`key`, then `projectKey`), for near misses and mix-ups. */
  keys: [element.key, element.projectKey].filter((key) => key !== undefined),
  /** Every value that may name the environment's project (`key`, `projectKey`, `id`, `domain`, `domains`, `url`, `name`), in that order. */
  identifiers: IDENTIFYING_FIELDS.flatMap((field): ProjectIdentifier[] => {
    const value = element[field];
    const values = Array.isArray(value) ? value : value === undefined ? [] : [String(value)];
    return values.map((item) => ({ field, value: item }));
  }),
  /** The workspace it names, and where; null when it names none. */
  workspace: workspaceOf(element),
}));

/** One element of `GET /v1/projects`, normalised. */
export type ApiProject = z.infer<typeof projectSchema>;

/**
 * The workspace a project element names: `workspace` (a name, or `{ id, name }`),
 * `workspaceName`, `workspaceId` — on the element itself, or else on an object it nests
 * (`settings: { workspace: … }`). Null when it names none.
 */
function workspaceOf(element: Record<string, unknown>): WorkspaceNamed | null {
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
    const named = {
      id: idText(workspace.id),
      name: typeof workspace.name === "string" ? workspace.name : null,
      field: `${prefix}workspace`,
    };
    if (named.id !== null || named.name !== null) return named;
  }
  const name = typeof workspaceName === "string" ? workspaceName : null;
  const id = idText(workspaceId);
  if (name === null && id === null) return null;
  return { id, name, field: `${prefix}${name !== null ? "workspaceName" : "workspaceId"}` };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const goalSchema = z
  .object({
    name: z.string().optional(),
    condition: z.union([z.string(), z.object(aliasFields(CONDITION_FIELDS, z.string()))]).optional(),
  })
  .transform((goal) => ({
    /** The goal's name, as the spec's goals name it; null when it has none. */
    name: goal.name ?? null,
    /** The event its condition counts: the condition itself, or its `equals`, `value` or `event`; null when it names none. */
    condition:
      typeof goal.condition === "object" ? firstOf(goal.condition, CONDITION_FIELDS) : (goal.condition ?? null),
  }));

/** One goal the service lists, normalised. */
export type ApiGoal = z.infer<typeof goalSchema>;

const recentEventSchema = z
  .object({
    kind: z.string().optional(),
    type: z.string().optional(),
    name: z.string().optional(),
    event: z.string().optional(),
    userId: z.unknown().optional(),
    user_id: z.unknown().optional(),
    receivedAt: z.string().optional(),
    received_at: z.string().optional(),
    timestamp: z.union([z.string(), z.number()]).optional(),
  })
  .transform((event) => {
    const kind = callKind(event.kind ?? event.type);
    return {
      /** The kind of call it records (from `kind` or `type`); null for any other kind, like a page view. */
      kind,
      /** The user id of an identify (`userId`, `user_id`), else the event name (`name`, `event`); null when absent. */
      name: kind === "identify" ? idText(event.userId ?? event.user_id) : (event.name ?? event.event ?? null),
      /** When the service received it (`receivedAt`, `received_at`, `timestamp`), in ms since the epoch; null when it does not say. */
      receivedAtMs: timeMs(event.receivedAt ?? event.received_at ?? event.timestamp),
    };
  });

/** One event the service lists among a project's recent events, normalised. */
export type ApiRecentEvent = z.infer<typeof recentEventSchema>;

function callKind(kind: string | undefined): "track" | "identify" | null {
  return kind === "track" || kind === "identify" ? kind : null;
}

/** Milliseconds since the epoch from an ISO date or a Unix time (seconds or milliseconds); null when unreadable. */
function timeMs(time: string | number | undefined): number | null {
  // Unix times in seconds stay below 1e11 until the year 5138; in milliseconds they passed it in 1973.
  const ms =
    typeof time === "number"
      ? time < 1e11
        ? time * 1000
        : time
      : typeof time === "string"
        ? Date.parse(time)
        : Number.NaN;
  return Number.isNaN(ms) ? null : ms;
}

/** A list answer: `{ "data": [element, …] }`. */
function listOf<T extends z.ZodType>(element: T) {
  return z.object({ data: z.array(element) });
}

/** The answer of `GET /v1/projects`. */
export const projectListSchema = listOf(projectSchema);
/** The answer of the goals endpoint. */
export const goalListSchema = listOf(goalSchema);
/** The answer of the recent-events endpoint. */
export const recentEventListSchema = listOf(recentEventSchema);

/** A list answer's elements, or why its body could not be understood (in plain words, body not quoted). */
export type ParsedList<T> = { ok: true; data: T[] } | { ok: false; problem: string };

/** Parses a list answer's body: JSON, then the lenient shape (`data[2].domains: must be a list, …`). */
export function parseList<T>(schema: z.ZodType<{ data: T[] }>, body: string): ParsedList<T> {
  const parsed = parseJsonWith(schema, body, "the body");
  return parsed.ok ? { ok: true, data: parsed.value.data } : parsed;
}
