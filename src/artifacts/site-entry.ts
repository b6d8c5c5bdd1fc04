import type { LoginOutcome } from "./types.js";

/**
 * Whether a closed site let the audit in: the rules the gatherer needs to go on after a login,
 * and page.access words for the reader. Pure functions of what was gathered.
 */

/** True when two URLs name the same path on their site; a trailing slash makes no other page. */
export function samePath(url: string, other: string): boolean {
  const pathOf = (text: string) => (URL.canParse(text) ? new URL(text).pathname.replace(/(.)\/$/, "$1") : text);
  return pathOf(url) === pathOf(other);
}

/** Why a login did not get in. */
export type LoginFailure =
  | { kind: "load"; error: string }
  | { kind: "status"; status: number }
  | { kind: "blocked"; host: string }
  | { kind: "step"; step: number; message: string }
  | { kind: "stayed"; url: string };

/** Why the login did not get in, or null when it did: it loaded, was let through, walked every step and left the login's path. */
export function loginFailure(outcome: LoginOutcome): LoginFailure | null {
  if (outcome.blockedHost !== null) return { kind: "blocked", host: outcome.blockedHost };
  if (outcome.loadError !== null) return { kind: "load", error: outcome.loadError };
  if (outcome.documentStatus !== null && outcome.documentStatus >= 400) return { kind: "status", status: outcome.documentStatus };
  if (outcome.stepError !== null) return { kind: "step", ...outcome.stepError };
  if (outcome.finalUrl === null || samePath(outcome.finalUrl, outcome.requestedUrl)) return { kind: "stayed", url: outcome.finalUrl ?? outcome.requestedUrl };
  return null;
}
