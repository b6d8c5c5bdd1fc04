import { readFileSync } from "node:fs";
import type { AuditTarget } from "../schedule/plan.js";
import { missingVariables, secretVariables } from "../privacy/secrets.js";
import { environmentOf } from "../audit-spec/environment.js";
import { CliError, EXIT } from "../runner/errors.js";

/**
 * Refuses a run (exit 2) that could not get into its closed sites: a variable the spec names for
 * a secret is unset or empty, or its storage-state file cannot be read. `validate` needs neither.
 */
export function requireSiteAccess(targets: readonly AuditTarget[], env: NodeJS.ProcessEnv): void {
  const missing = targets.flatMap((target) =>
    missingVariables(secretVariables(target.spec, target.environment), env).map((variable) => ({
      ...variable,
      spec: target.specFile,
    })),
  );
  if (missing.length > 0) {
    const names = [...new Set(missing.map((variable) => variable.name))];
    const where = missing.map((variable) => `${variable.spec}: ${variable.where}`).join("; ");
    throw new CliError(
      EXIT.invalid,
      `${names.join(", ")} ${names.length === 1 ? "is" : "are"} not set, or empty: the spec names ${names.length === 1 ? "it" : "them"} for its secrets (${where}).`,
      `Set ${names.length === 1 ? "it" : "each"} to the secret in the run's environment (export ${names[0]}=… in a shell, the CI's secrets in CI); a spec names the variables, never the secrets.`,
    );
  }
  for (const target of targets) {
    const file = environmentOf(target.spec, target.environment).auth?.storageState;
    const problem = file === undefined ? null : storageStateProblem(file);
    if (problem !== null) {
      throw new CliError(
        EXIT.invalid,
        `${target.specFile}: environments.${target.environment}.auth.storageState names ${file}, which ${problem}.`,
        "Save a Playwright storage state there (`await context.storageState({ path })` once signed in), or fix the path: it is relative to the spec.",
      );
    }
  }
}

/** What is wrong with a storage-state file, or null when it is one. */
function storageStateProblem(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? "does not exist" : `cannot be read (${code ?? String(error)})`;
  }
  try {
    const state = JSON.parse(text) as { cookies?: unknown; origins?: unknown };
    if (Array.isArray(state.cookies) && Array.isArray(state.origins)) return null;
  } catch {
    // Not JSON: said below, as for JSON of another shape.
  }
  return "is not a Playwright storage state (JSON with cookies and origins lists)";
}
