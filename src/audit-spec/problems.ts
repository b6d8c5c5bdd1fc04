import { isRecord } from "../text/parse-json.js";
import type { z } from "zod";
import { describeValue } from "../text/plain-messages.js";
import { PRESET_NAMES } from "../vendors/presets.js";
import { allowedKeys, schemasAt } from "./schema-walk.js";
import { closestMatch, quoteList } from "../text/wording.js";

/** A spec problem before it is positioned in the YAML text. */
export interface SpecProblem {
  /** Path of the value at fault, or of the mapping that holds the key at fault. */
  path: PropertyKey[];
  /** The key at fault inside the mapping at `path`, when the problem is a key rather than a value. */
  key?: string;
  /** What is wrong, in plain words. */
  message: string;
  /** For a misspelled key: the key it most likely meant. */
  meant?: string;
  /** For missing required fields: their names. */
  missing?: string[];
}

/** What a spec's issues are judged against. */
interface IssueContext {
  /** The spec as plain data, before validation. */
  data: unknown;
  /** The schema the data was validated with. */
  schema: z.core.$ZodType;
}

const API_KEY_NAMES = new Set(["apikey", "apitoken", "apisecret"]);
const API_SECRET_NAMES = new Set(["key", "token", "secret", "password"]);

const NO_KEY_IN_SPEC =
  "never put the API key in the spec: put it in an environment variable and name that variable in api.keyEnv";

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let current = data;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function looksLikeApiKey(parent: readonly PropertyKey[], key: string): boolean {
  const name = key.toLowerCase().replace(/[-_]/g, "");
  return API_KEY_NAMES.has(name) || (parent.length === 1 && parent[0] === "api" && API_SECRET_NAMES.has(name));
}

function unknownKey(parent: PropertyKey[], key: string, allowed: readonly string[]): SpecProblem {
  if (looksLikeApiKey(parent, key)) return { path: parent, key, message: `unknown key "${key}" — ${NO_KEY_IN_SPEC}` };
  // `password:` where `passwordEnv:` belongs is a secret written into the spec.
  const variableKey = `${key}Env`;
  if (allowed.includes(variableKey))
    return {
      path: parent,
      key,
      meant: variableKey,
      message: `unknown key "${key}" — never put a secret in the spec: put it in an environment variable and name that variable in ${variableKey}`,
    };
  const isCheckId = parent.length === 1 && parent[0] === "checks";
  const what = isCheckId ? "check id" : "key";
  const meant = closestMatch(key, allowed);
  if (meant !== undefined)
    return { path: parent, key, meant, message: `unknown ${what} "${key}" — did you mean "${meant}"?` };
  const listed = isCheckId ? "known ids" : "allowed keys";
  return { path: parent, key, message: `unknown ${what} "${key}" — ${listed}: ${allowed.join(", ")}` };
}

// A union of mappings (a journey step) fails as a whole: find the option the user was writing.
function unionProblems(issue: z.core.$ZodIssueInvalidUnion, context: IssueContext): SpecProblem[] {
  const fitting = issue.errors.filter(
    (optionIssues) =>
      !optionIssues.some(
        (inner) => inner.path.length === 0 && (inner.code === "unrecognized_keys" || inner.code === "invalid_type"),
      ),
  );
  if (fitting.length === 1) {
    return fitting[0]!.flatMap((inner) => problemsFor({ ...inner, path: [...issue.path, ...inner.path] }, context));
  }
  const value = valueAt(context.data, issue.path);
  const keys = allowedKeys(schemasAt(context.schema, issue.path));
  if (keys.length === 0)
    return [{ path: issue.path, message: `matches none of the allowed forms: ${describeValue(value)}` }];
  if (isRecord(value)) {
    const unknown = Object.keys(value).filter((key) => !keys.includes(key));
    if (unknown.length > 0) return unknown.map((key) => unknownKey(issue.path, key, keys));
    return [{ path: issue.path, message: `must have exactly one of the keys ${quoteList(keys)}` }];
  }
  return [
    {
      path: issue.path,
      message: `must be a mapping with one of the keys ${quoteList(keys)}, not ${describeValue(value)}`,
    },
  ];
}

/** What else fills a mapping's required fields, by the mapping's path. */
const OTHER_WAYS: Record<string, (names: readonly string[]) => string> = {
  '["sdk"]': (names) =>
    `: give ${names.length === 1 ? "it" : "them"}, or name a vendor in sdk.preset (${PRESET_NAMES.join(" | ")}) to fill ${names.length === 1 ? "it" : "them"}`,
};

function missingMessage(path: readonly PropertyKey[], names: readonly string[]): string {
  const missing =
    names.length === 1 ? `missing required field "${names[0]}"` : `missing required fields ${quoteList(names)}`;
  return missing + (OTHER_WAYS[JSON.stringify(path)]?.(names) ?? "");
}

function problemsFor(issue: z.core.$ZodIssue, context: IssueContext): SpecProblem[] {
  const path = [...issue.path];
  switch (issue.code) {
    case "unrecognized_keys": {
      const allowed = allowedKeys(schemasAt(context.schema, path));
      return issue.keys.map((key) => unknownKey(path, key, allowed));
    }
    case "invalid_key": {
      const key = String(path.pop());
      const reason = issue.issues.map((inner) => inner.message).join("; ");
      return [{ path, key, message: `"${key}" is not a valid name: ${reason}` }];
    }
    case "invalid_union":
      return unionProblems(issue, context);
    case "invalid_type": {
      const key = path.at(-1);
      const parent = path.slice(0, -1);
      const holder = valueAt(context.data, parent);
      if (key !== undefined && isRecord(holder) && !Object.hasOwn(holder, key)) {
        return [{ path: parent, missing: [String(key)], message: missingMessage(parent, [String(key)]) }];
      }
      return [{ path, message: path.length === 0 ? `the spec ${issue.message}` : issue.message }];
    }
    default:
      return [{ path, message: issue.message }];
  }
}

function samePath(a: SpecProblem, b: SpecProblem): boolean {
  return a.path.length === b.path.length && a.path.every((segment, index) => segment === b.path[index]);
}

/** Zod's issues as problems a user can fix: one per unknown key, one per mapping that lacks fields. */
export function problemsFromIssues(issues: readonly z.core.$ZodIssue[], context: IssueContext): SpecProblem[] {
  const problems = issues.flatMap((issue) => problemsFor(issue, context));
  const missingByPath = new Map<string, SpecProblem>();
  for (const problem of problems) {
    if (problem.missing === undefined) continue;
    // "pgaes: did you mean pages?" already says what "missing pages" would: say it once.
    const unexplained = problem.missing.filter(
      (name) => !problems.some((other) => other.meant === name && samePath(other, problem)),
    );
    const where = JSON.stringify(problem.path);
    const names = [...(missingByPath.get(where)?.missing ?? []), ...unexplained];
    missingByPath.set(where, { path: problem.path, missing: names, message: missingMessage(problem.path, names) });
  }
  const merged = [...missingByPath.values()].filter((problem) => problem.missing!.length > 0);
  return [...problems.filter((problem) => problem.missing === undefined), ...merged];
}
