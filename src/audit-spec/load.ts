import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { LineCounter, parseDocument, type Document } from "yaml";
import type { SpecError } from "./errors.js";
import { locateProblem, yamlSyntaxError } from "./locate.js";
import { formatPath, plainErrorMap } from "../text/plain-messages.js";
import { problemsFromIssues, type SpecProblem } from "./problems.js";
import { auditSpecSchema, type AuditSpec } from "./schema.js";
import { unknownViewportProblems } from "./viewport-names.js";

export { formatSpecError, type SpecError } from "./errors.js";

/** Spec text validated: the typed spec, or every error found in it. */
export type SpecParseResult = { ok: true; spec: AuditSpec; file: string } | SpecLoadFailure;

/** A valid spec, the file it came from and the SHA-256 of that file's bytes (what `sha256sum` prints). */
export interface LoadedSpec {
  file: string;
  spec: AuditSpec;
  sha256: string;
}

/** A spec file read and validated: the loaded spec, or every error found in it. */
export type SpecLoadResult = ({ ok: true } & LoadedSpec) | SpecLoadFailure;

type SpecLoadFailure = { ok: false; file: string; errors: SpecError[] };

const EMPTY_SPEC = "the spec is empty: it needs at least workspace, project, environments, sdk and pages";

function failure(file: string, doc: Document, lineCounter: LineCounter, problems: SpecProblem[]): SpecLoadFailure {
  const errors = problems.map((problem): SpecError => {
    const { line, column } = locateProblem(doc, lineCounter, problem);
    return { file, line, column, path: formatPath(problem.path), message: problem.message };
  });
  // Zod reports in schema order; the user reads the file top to bottom.
  errors.sort((a, b) => a.line - b.line || a.column - b.column);
  return { ok: false, file, errors };
}

/**
 * Parses and validates spec text; `file` names it in the errors and is where a variation's
 * `{ file }` code is read from (relative to the spec's folder), unless `readCode` is given.
 * `knownViewports` are the names `viewports` may use: the browser side knows them (desktop,
 * mobile and Playwright's device names), and the loader needs no browser.
 */
export function parseSpec(
  text: string,
  file: string,
  knownViewports: readonly string[],
  readCode: (path: string) => string = (path) => readFileSync(resolve(dirname(file), path), "utf8"),
): SpecParseResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      file,
      errors: doc.errors.map((error) => yamlSyntaxError(file, doc, lineCounter, error, "YAML")),
    };
  }
  const data: unknown = doc.toJS();
  // Comments only, a lone "---" or "~": nothing was written yet.
  if (data === null || data === undefined) {
    return { ok: false, file, errors: [{ file, line: 1, column: 1, path: "", message: EMPTY_SPEC }] };
  }
  const parsed = auditSpecSchema.safeParse(data, { error: plainErrorMap });
  if (!parsed.success) {
    return failure(file, doc, lineCounter, problemsFromIssues(parsed.error.issues, { data, schema: auditSpecSchema }));
  }
  const viewportProblems = unknownViewportProblems(parsed.data.viewports, knownViewports);
  if (viewportProblems.length > 0) return failure(file, doc, lineCounter, viewportProblems);
  const codeProblems = readVariationCode(parsed.data, readCode);
  if (codeProblems.length > 0) return failure(file, doc, lineCounter, codeProblems);
  resolveStorageStates(parsed.data, file);
  return { ok: true, spec: parsed.data, file };
}

/**
 * Turns each `auth.storageState` into an absolute path, relative to the spec's folder as written:
 * the browsers do not run in the user's folder. The file is read when a run needs it, not here:
 * like the secrets' variables, it need not be there for the spec to be valid.
 */
function resolveStorageStates(spec: AuditSpec, file: string): void {
  for (const environment of Object.values(spec.environments)) {
    if (environment.auth?.storageState !== undefined)
      environment.auth.storageState = resolve(dirname(file), environment.auth.storageState);
  }
}

/** Fills in the code of every variation's `{ file }` js and css; a file that cannot be read is a problem at its path. */
function readVariationCode(spec: AuditSpec, readCode: (path: string) => string): SpecProblem[] {
  const problems: SpecProblem[] = [];
  spec.experiments.forEach((experiment, experimentIndex) => {
    experiment.variations.forEach((variation, variationIndex) => {
      for (const kind of ["js", "css"] as const) {
        const source = variation[kind];
        if (source?.file == null) continue;
        const path = ["experiments", experimentIndex, "variations", variationIndex, kind, "file"];
        try {
          source.code = readCode(source.file);
        } catch (error) {
          problems.push({
            path,
            message: `${readFailure(error, `the variation's ${kind} file "${source.file}"`)} (paths are relative to the spec's folder)`,
          });
          continue;
        }
        if (source.code.trim() === "")
          problems.push({ path, message: `the variation's ${kind} file "${source.file}" is empty` });
      }
    });
  });
  return problems;
}

/** Why `what` (the spec, or a file it names) could not be read, in words. */
function readFailure(error: unknown, what = "the spec"): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return `cannot read ${what}: no such file`;
  if (code === "EISDIR") return `cannot read ${what}: it is a folder, not a file`;
  if (code === "EACCES") return `cannot read ${what}: permission denied`;
  return `cannot read ${what}: ${error instanceof Error ? error.message : String(error)}`;
}

/** Reads, parses and validates one spec file (see parseSpec for `knownViewports`). */
export async function loadSpec(file: string, knownViewports: readonly string[]): Promise<SpecLoadResult> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    return { ok: false, file, errors: [{ file, line: 1, column: 1, path: "", message: readFailure(error) }] };
  }
  const parsed = parseSpec(bytes.toString("utf8"), file, knownViewports);
  // The digest of the bytes, as `sha256sum` prints it, tells which version of the file was audited.
  return parsed.ok ? { ...parsed, sha256: createHash("sha256").update(bytes).digest("hex") } : parsed;
}

/** Loads every spec file, in the order given. */
export function loadSpecs(files: readonly string[], knownViewports: readonly string[]): Promise<SpecLoadResult[]> {
  return Promise.all(files.map((file) => loadSpec(file, knownViewports)));
}
