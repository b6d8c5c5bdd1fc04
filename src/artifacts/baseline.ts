/**
 * Baselines: which calls fired on which page × viewport in a good run, per spec × environment, so
 * a later run can say what stopped firing. A baseline names events only — `track` names, and
 * `identify` as a kind — never a user id, an attribute or a property.
 */

/** What fired on one page × viewport. */
export interface FiredCalls {
  /** Whether `identify` was called at least once (its user id and attributes are never stored). */
  identify: boolean;
  /** The names of the `track` calls, sorted, each once. */
  track: string[];
}

/** The baseline of one spec × environment. */
export interface CallBaseline {
  /** The spec file, relative to the folder setup-audit runs in, with `/` separators. */
  spec: string;
  /** The environment audited, as named in the spec. */
  environment: string;
  /** The spec's project, for a reader of the file. */
  project: string;
  /** What fired, by page id, then by viewport; a page × viewport that fired nothing is listed too. */
  pages: Record<string, Record<string, FiredCalls>>;
}

/** What a list of calls fired; a `track` whose name could not be read names nothing and is left out. */
export function firedCalls(calls: readonly { kind: "track" | "identify" | "page"; name: string | null }[]): FiredCalls {
  const names = calls.flatMap((call) => (call.kind === "track" && call.name !== null ? [call.name] : []));
  return { identify: calls.some((call) => call.kind === "identify"), track: [...new Set(names)].sort() };
}

/** What fired in `before` but not in `after`. */
export function firedOnlyIn(before: FiredCalls, after: FiredCalls): FiredCalls {
  return {
    identify: before.identify && !after.identify,
    track: before.track.filter((name) => !after.track.includes(name)),
  };
}

/** True when nothing fired. */
export function firedNothing(fired: FiredCalls): boolean {
  return !fired.identify && fired.track.length === 0;
}
