import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { LOGIN_FILES, type AuditTarget } from "../schedule/plan.js";
import { credentialsOf, runSecrets } from "../privacy/redact.js";
import { MIN_SCRUBBED_LENGTH, shortSecretVariables } from "../privacy/secrets.js";
import { storedSecretsIn } from "../privacy/stored-secrets.js";
import { environmentOf } from "../audit-spec/environment.js";

/**
 * The one list of a run's secrets that every output is scrubbed of: the values of the variables
 * its specs name, and what its logins and storage states yield.
 */

/** A run's secrets: all of them, and the credentials among them (what the saved artifacts hide; a journey's literal values stay there, for the replay's detectors). */
export interface RunSecretLists {
  secrets: string[];
  credentials: string[];
}

/** The run's secrets, with those of the storage states its logins ended with in `workDir` so far (none without one: a replay, a merge) and those of its specs' `storageState` files. */
export function runSecretLists(
  targets: readonly AuditTarget[],
  env: NodeJS.ProcessEnv,
  workDir: string | null,
): RunSecretLists {
  const stateFiles = [
    ...(workDir === null ? [] : loginStateFiles(workDir)),
    ...targets.flatMap((target) => environmentOf(target.spec, target.environment).auth?.storageState ?? []),
  ];
  const projectKeys = new Set(
    targets.flatMap((target) => Object.values(target.spec.environments).map((environment) => environment.key)),
  );
  const yielded = [...new Set(stateFiles.flatMap((file) => storedSecretsIn(readState(file), projectKeys)))];
  return {
    secrets: [...new Set([...runSecrets(targets, env), ...yielded])],
    credentials: [...new Set([...targets.flatMap((target) => credentialsOf(target.spec, env)), ...yielded])],
  };
}

/**
 * The run's secrets as they stand while it gathers, for its progress lines: read again only when a
 * login has ended since (its storage state is a new file), not for every line.
 */
export function gatheringSecrets(
  targets: readonly AuditTarget[],
  env: NodeJS.ProcessEnv,
  workDir: string,
): () => readonly string[] {
  let known: { states: string; secrets: string[] } | null = null;
  return () => {
    const states = loginStateFiles(workDir).join("\n");
    if (known?.states !== states) known = { states, secrets: runSecretLists(targets, env, workDir).secrets };
    return known.secrets;
  };
}

/** The storage states the run's logins have ended with so far, by file. */
function loginStateFiles(workDir: string): string[] {
  const folder = join(workDir, LOGIN_FILES.folder);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith(LOGIN_FILES.stateSuffix))
    .map((name) => join(folder, name));
}

/** A storage-state file's text; none when it is gone (the run refused a spec's unreadable one before it started). */
function readState(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** The warnings a run starts with: one per variable whose secret is too short to hide from the outputs, named, never shown. */
export function shortSecretWarnings(targets: readonly AuditTarget[], env: NodeJS.ProcessEnv): string[] {
  const short = targets.flatMap((target) =>
    shortSecretVariables(target.spec, target.environment, env).map((variable) => ({
      ...variable,
      spec: target.specFile,
    })),
  );
  return [...new Set(short.map((variable) => variable.name))].map((name) => {
    const where = short
      .filter((variable) => variable.name === name)
      .map((variable) => `${variable.spec}: ${variable.where}`)
      .join("; ");
    return `setup-audit: warning: ${name} holds fewer than ${MIN_SCRUBBED_LENGTH} characters, too few to hide from the outputs without hiding ordinary text: they may show it (${where}). Use a longer secret.`;
  });
}
