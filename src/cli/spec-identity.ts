import { existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { SpecIdentity } from "../results/changes.js";

/**
 * Which spec a run audited, however its path was typed (`audits/x.yaml`, `./audits/x.yaml`, an
 * absolute path, from another folder): the spec's path from the repository's root (its git top
 * level), `/`-separated; outside git, from the working directory `cwd`. A path in an earlier
 * summary is read as typed in `cwd` too.
 */
export function specIdentity(cwd: string = process.cwd()): SpecIdentity {
  const root = gitTopLevel(cwd) ?? cwd;
  return (spec) => relative(root, resolve(cwd, spec)).split(sep).join("/");
}

/** The nearest folder at or above `dir` that holds `.git` (a folder, or a file in a worktree or submodule), as `git rev-parse --show-toplevel` finds it. */
function gitTopLevel(dir: string): string | null {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, ".git"))) return at;
    if (dirname(at) === at) return null;
  }
}
