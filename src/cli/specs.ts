import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { knownViewports } from "../browser/viewports.js";
import { formatSpecError, loadSpecs, type LoadedSpec } from "../spec/load.js";
import { CliError, EXIT, usageError } from "../runner/errors.js";
import { annotateSpecErrors } from "./github.js";
import { trackingPlanErrors } from "./tracking-plans.js";

/** The spec files a command works on: the ones named, else every `audits/*.yaml`. */
export function specFiles(named: readonly string[]): string[] {
  if (named.length > 0) {
    const missing = named.filter((file) => !existsSync(file));
    if (missing.length > 0)
      throw usageError(
        `No such spec file: ${missing.join(", ")}`,
        "Name YAML files that exist, or run without arguments to audit every audits/*.yaml.",
      );
    return [...named];
  }
  const found = existsSync("audits")
    ? readdirSync("audits")
        .filter((name) => /\.ya?ml$/.test(name))
        .sort()
    : [];
  if (found.length === 0)
    throw usageError(
      "No spec to audit: audits/ holds no .yaml file",
      "Write a spec in audits/ (see the README), or name one on the command line.",
    );
  return found.map((name) => join("audits", name));
}

/** Loads every spec and its tracking plan, printing each error with file:line:col; throws (exit 2) when any is invalid. */
export async function loadValidSpecs(named: readonly string[]): Promise<LoadedSpec[]> {
  const results = await loadSpecs(specFiles(named), knownViewports());
  const errors = results.flatMap((result) =>
    result.ok ? trackingPlanErrors(result.spec, result.file) : result.errors,
  );
  if (errors.length > 0) {
    for (const error of errors) process.stderr.write(`${formatSpecError(error)}\n`);
    annotateSpecErrors(errors);
    throw new CliError(
      EXIT.invalid,
      `${errors.length} error(s) in the spec${results.length > 1 ? "s" : ""}; nothing was audited.`,
      "Fix each error at the file:line:col shown, then run `setup-audit validate` to check.",
    );
  }
  return results.flatMap((result) =>
    result.ok ? [{ file: result.file, spec: result.spec, sha256: result.sha256 }] : [],
  );
}
