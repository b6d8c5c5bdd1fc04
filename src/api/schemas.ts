import { z } from "zod";
import type { ApiGoal, ApiProject, ApiRecentEvent } from "../artifacts.js";
import { parseJsonWith } from "../parse-json.js";

/**
 * The shapes setup-audit reads from the service API, validated leniently: `{ "data": [...] }`
 * whose elements are objects; the fields the matching reads are typed, every other field is kept,
 * and any of them may be missing.
 */

const idValue = z.union([z.string(), z.number()]);

const workspaceRef = z.looseObject({ id: idValue.optional(), name: z.string().optional() });

const projectSchema = z.looseObject({
  id: idValue.optional(),
  key: z.string().optional(),
  projectKey: z.string().optional(),
  name: z.string().optional(),
  domain: z.string().optional(),
  domains: z.array(z.string()).optional(),
  url: z.string().optional(),
  workspace: z.union([z.string(), workspaceRef]).optional(),
  workspaceName: z.string().optional(),
  workspaceId: idValue.optional(),
}) satisfies z.ZodType<ApiProject>;

const goalSchema = z.looseObject({
  name: z.string().optional(),
  condition: z
    .union([z.string(), z.looseObject({ equals: z.string().optional(), value: z.string().optional(), event: z.string().optional() })])
    .optional(),
}) satisfies z.ZodType<ApiGoal>;

const recentEventSchema = z.looseObject({
  kind: z.string().optional(),
  type: z.string().optional(),
  name: z.string().optional(),
  event: z.string().optional(),
  receivedAt: z.string().optional(),
  received_at: z.string().optional(),
  timestamp: z.union([z.string(), z.number()]).optional(),
}) satisfies z.ZodType<ApiRecentEvent>;

/** A list answer: `{ "data": [element, …] }`, other top-level fields kept. */
function listOf<T extends z.ZodType>(element: T) {
  return z.looseObject({ data: z.array(element) });
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
