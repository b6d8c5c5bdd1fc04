import { existsSync } from "node:fs";
import { knownViewports } from "../browser/viewports.js";
import { formatSpecError, loadSpecs, type LoadedSpec, type SpecLoadResult } from "../audit-spec/load.js";
import { CliError, EXIT, usageError } from "../runner/errors.js";
import { annotateSpecErrors } from "./github.js";
import { discoverSpecs, plansLeftOutLine } from "./spec-discovery.js";
import { trackingPlanErrors } from "./tracking-plans.js";

/** The spec files named on the command line; each must exist. */
function namedSpecFiles(named: readonly string[]): string[] {
  const missing = named.filter((file) => !existsSync(file));
  if (missing.length > 0)
    throw usageError(
      `No such spec file: ${missing.join(", ")}`,
      "Name YAML files that exist, or run without arguments to audit every spec in audits/.",
    );
  return [...named];
}

/**
 * The specs named, else every spec among `audits/*.yaml` (the tracking plans there left out, said
 * in one line), each loaded with its tracking plan.
 */
async function loadNamedOrFound(named: readonly string[]): Promise<SpecLoadResult[]> {
  if (named.length > 0) return loadSpecs(namedSpecFiles(named), knownViewports());
  const { results, plans } = await discoverSpecs("audits");
  if (plans.length > 0) process.stdout.write(`${plansLeftOutLine(plans)}\n`);
  if (results.length === 0)
    throw usageError(
      plans.length > 0
        ? "No spec to audit: audits/ holds only tracking plans"
        : "No spec to audit: audits/ holds no .yaml file",
      "Write a spec in audits/ (see the README), or name one on the command line.",
    );
  return results;
}

/** Loads every spec and its tracking plan, printing each error with file:line:col; throws (exit 2) when any is invalid. */
export async function loadValidSpecs(named: readonly string[]): Promise<LoadedSpec[]> {
  const results = await loadNamedOrFound(named);
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
