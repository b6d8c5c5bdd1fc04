import type { z } from "zod";
import { formatPath, plainErrorMap } from "./plain-messages.js";

/** Parsed JSON text, or what is wrong with it in plain words (`data[2].domains: must be a list, …`). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

const MAX_ISSUES_SHOWN = 3;

/** JSON text checked against `schema`; `subject` names the whole text in problems (`the body`, `the file`). */
export function parseJsonWith<T>(schema: z.ZodType<T>, text: string, subject: string): Parsed<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `${subject} is not JSON (${(error as Error).message})` };
  }
  const result = schema.safeParse(json, { error: plainErrorMap });
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues.map((issue) => `${formatPath(issue.path) || subject} ${issue.message}`);
  const more = issues.length > MAX_ISSUES_SHOWN ? ` (and ${issues.length - MAX_ISSUES_SHOWN} more)` : "";
  return { ok: false, problem: `${issues.slice(0, MAX_ISSUES_SHOWN).join("; ")}${more}` };
}

/** A JSON object or array inside a string (a stored value, a property that holds JSON); undefined for anything else. */
export function jsonObjectIn(text: string): object | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** True for a plain object (a JSON mapping), not null or an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
