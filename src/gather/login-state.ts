import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext } from "playwright";
import type { LoginOutcome } from "../artifacts/types.js";
import { LOGIN_FILES } from "../schedule/plan.js";

/**
 * A viewport's login, handed from the login test to its pages' tests: how it went, and the
 * storage state it ended with. That state is a secret (a signed-in session): it lives only in the
 * run's work folder, a private temporary folder (0700) outside the project and the output folder
 * that the run deletes when it ends, in files only their owner can read.
 */

/** What the pages of a viewport start from. */
export interface LoginRecord {
  outcome: LoginOutcome;
  /** The storage state file the login ended with; null when the login did not get in. */
  storageState: string | null;
}

/** What names a viewport's login: its spec × environment and the viewport. */
export interface LoginKey {
  slug: string;
  environment: string;
  viewport: string;
}

const folderOf = (workDir: string) => join(workDir, LOGIN_FILES.folder);
const fileName = (key: LoginKey, kind: "outcome" | "state") =>
  `${key.slug}.${key.environment}.${key.viewport}`.replace(/[^\w.@-]+/g, "_") +
  (kind === "state" ? LOGIN_FILES.stateSuffix : ".outcome.json");

/** Records a login; with `context`, when it got in, its storage state too. */
export async function saveLogin(
  workDir: string,
  key: LoginKey,
  outcome: LoginOutcome,
  context: BrowserContext | null,
): Promise<void> {
  const folder = folderOf(workDir);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  if (context !== null)
    writeFileSync(join(folder, fileName(key, "state")), JSON.stringify(await context.storageState()), { mode: 0o600 });
  writeFileSync(join(folder, fileName(key, "outcome")), JSON.stringify(outcome), { mode: 0o600 });
}

/** The login a viewport's pages start from; a login that left no record (its test crashed or timed out) did not get in. */
export function readLogin(workDir: string, key: LoginKey, requestedUrl: string): LoginRecord {
  const outcomeFile = join(folderOf(workDir), fileName(key, "outcome"));
  const stateFile = join(folderOf(workDir), fileName(key, "state"));
  if (!existsSync(outcomeFile)) {
    const outcome: LoginOutcome = {
      requestedUrl,
      documentStatus: null,
      loadError: "the login's audit crashed or timed out (see the output above)",
      stepError: null,
      blockedHost: null,
      finalUrl: null,
    };
    return { outcome, storageState: null };
  }
  return {
    outcome: JSON.parse(readFileSync(outcomeFile, "utf8")) as LoginOutcome,
    storageState: existsSync(stateFile) ? stateFile : null,
  };
}
