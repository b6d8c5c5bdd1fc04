import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { LineCounter, parseDocument, type Document } from "yaml";
import type { SpecError } from "../audit-spec/errors.js";
import { locateProblem, yamlSyntaxError } from "../audit-spec/locate.js";
import { formatPath } from "../text/plain-messages.js";
import { SchemaCompiler } from "./compile.js";
import { isOwnPlan, readOwnPlan } from "./own-format.js";
import { readRudderCatalog } from "./rudderstack-catalog.js";
import { isSegmentExport, readSegmentExport } from "./segment-export.js";
import { PlanShapeError, schemaName, type PlanEntry, type PlanProblem, type PlanSource } from "./source.js";
import type { TrackingPlan, TrackingPlanFormat } from "./types.js";
import { pointerKeys, violationsOf } from "./violations.js";

/** A plan read and compiled, or every problem found in it, each at its file:line:col. */
export type TrackingPlanLoad = { ok: true; plan: TrackingPlan } | { ok: false; errors: SpecError[] };

/** A parsed YAML or JSON file, kept to place its problems. */
interface ParsedFile {
  doc: Document;
  lineCounter: LineCounter;
}

/**
 * Reads the plan at `path` (a file, or a rudder-cli catalog folder) in `format` (`auto` tells them
 * apart) and compiles each of its schemas once: the plan every page of the run is judged with.
 */
export function loadTrackingPlan(path: string, format: TrackingPlanFormat | "auto"): TrackingPlanLoad {
  const parsed = new Map<string, ParsedFile>();
  const errorAt = (problem: PlanProblem): SpecError => {
    const file = parsed.get(problem.file);
    const { line, column } = file ? locateProblem(file.doc, file.lineCounter, problem) : { line: 1, column: 1 };
    return {
      file: problem.file,
      line,
      column,
      path: formatPath(problem.key === undefined ? problem.path : [...problem.path, problem.key]),
      message: problem.message,
    };
  };
  try {
    const source = readSource(path, format, parsed);
    const compiled = compileSource(source, path);
    return "errors" in compiled
      ? { ok: false, errors: compiled.errors.map(errorAt) }
      : { ok: true, plan: compiled.plan };
  } catch (error) {
    if (error instanceof PlanShapeError) return { ok: false, errors: [errorAt(error.problem)] };
    if (error instanceof PlanTextError) return { ok: false, errors: [error.error] };
    throw error;
  }
}

/** A file that is no YAML or JSON, or cannot be read, already placed. */
class PlanTextError extends Error {
  constructor(readonly error: SpecError) {
    super(error.message);
  }
}

function readSource(path: string, format: TrackingPlanFormat | "auto", parsed: Map<string, ParsedFile>): PlanSource {
  let folder: boolean;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    throw new PlanTextError({
      file: path,
      line: 1,
      column: 1,
      path: "",
      message:
        "cannot read the tracking plan: no such file or folder (trackingPlan.file is relative to the spec's folder)",
    });
  }
  if (folder) {
    if (format !== "auto" && format !== "rudderstack")
      throw new PlanShapeError({
        file: path,
        path: [],
        message: `is a folder, which only a RudderStack catalog is (format: ${format} is a file)`,
      });
    return readRudderCatalog(
      yamlFilesIn(path).map((file) => ({ file, data: parseFile(file, parsed) })),
      path,
    );
  }
  const data = parseFile(path, parsed);
  if (format === "setup-audit" || (format === "auto" && isOwnPlan(data))) return readOwnPlan(data, path);
  if (format === "segment" || (format === "auto" && isSegmentExport(data))) return readSegmentExport(data, path);
  if (format === "rudderstack")
    throw new PlanShapeError({
      file: path,
      path: [],
      message: "a RudderStack catalog is a folder of YAML files: name the folder",
    });
  throw new PlanShapeError({
    file: path,
    path: [],
    message:
      "is not a tracking plan: expected events (setup-audit's format), rules (a Segment Protocols export), or a folder (a RudderStack rudder-cli catalog)",
  });
}

function yamlFilesIn(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => join(folder, name));
}

function parseFile(file: string, parsed: Map<string, ParsedFile>): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new PlanTextError({
      file,
      line: 1,
      column: 1,
      path: "",
      message: `cannot read the tracking plan: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const first = doc.errors[0];
  if (first !== undefined) throw new PlanTextError(yamlSyntaxError(file, doc, lineCounter, first, "YAML or JSON"));
  parsed.set(file, { doc, lineCounter });
  return doc.toJS();
}

/**
 * Every schema as written checked, each problem at its key, and every event (and identify) defined
 * once; then every entry compiled once, a schema that still does not compile a problem at its place.
 */
function compileSource(source: PlanSource, path: string): { errors: PlanProblem[] } | { plan: TrackingPlan } {
  const compiler = new SchemaCompiler();
  const written = [...writtenProblems(compiler, source), ...secondDefinitions(source.entries)];
  if (written.length > 0) return { errors: written };
  const errors: PlanProblem[] = [];
  const compile = (entry: PlanEntry) => {
    try {
      return compiler.compile(entry.schema);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      errors.push({
        file: entry.file,
        path: entry.path,
        message: `${schemaName(entry.name)} is not a valid JSON Schema: ${why}`,
      });
      return null;
    }
  };
  const events = new Map(
    source.entries.flatMap((entry) => (entry.name === null ? [] : [[entry.name, compile(entry)] as const])),
  );
  const identifyEntry = source.entries.find(({ name }) => name === null);
  const identify = identifyEntry === undefined ? null : compile(identifyEntry);
  if (errors.length > 0) return { errors };
  const validate = (validator: ReturnType<typeof compile>, data: unknown) =>
    validator === null || validator(data) ? [] : violationsOf(validator.errors ?? [], data);
  return {
    plan: {
      file: path,
      format: source.format,
      events: [...events.keys()],
      hasIdentify: identify !== null,
      validateTrack: (name, properties) => (events.has(name) ? validate(events.get(name)!, properties ?? {}) : null),
      validateIdentify: (attributes) => (identify === null ? null : validate(identify, attributes ?? {})),
    },
  };
}

/** Each problem of the schemas as written, at the key of the keyword at fault. */
function writtenProblems(compiler: SchemaCompiler, source: PlanSource): PlanProblem[] {
  return source.written.flatMap(({ what, schema, file, path }) =>
    compiler.problemsOf(schema).map(({ pointer, reason }) => {
      const inside = pointerKeys(pointer);
      const keyword = inside.length === 0 ? "it" : `\`${inside.join(".")}\``;
      return { file, path: [...path, ...inside], message: `${what} is not a valid JSON Schema: ${keyword} ${reason}` };
    }),
  );
}

/** Each event (or identify) the plan defines again after its first definition: an error at the second, naming the first. */
function secondDefinitions(entries: readonly PlanEntry[]): PlanProblem[] {
  const first = new Map<string | null, PlanEntry>();
  return entries.flatMap((entry) => {
    const earlier = first.get(entry.name);
    if (earlier === undefined) {
      first.set(entry.name, entry);
      return [];
    }
    const file = earlier.file === entry.file ? "" : `${relative(dirname(entry.file), earlier.file)} `;
    const what = entry.name === null ? "identify" : `"${entry.name}"`;
    return [
      {
        file: entry.file,
        path: entry.namePath,
        message: `${what} is planned twice (first at ${file}${formatPath(earlier.namePath)}): a plan gives ${entry.name === null ? "identify" : "each event"} one schema, keep one`,
      },
    ];
  });
}
