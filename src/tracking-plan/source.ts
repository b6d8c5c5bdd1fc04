import { isRecord } from "../text/parse-json.js";
import type { TrackingPlanFormat } from "./types.js";

/** A JSON Schema as the plan wrote it: an object (or a boolean schema). */
export type JsonSchema = Record<string, unknown> | boolean;

/** One schema of a plan, before it is compiled, with where it is written. */
export interface PlanEntry {
  /** The event's exact name; null for the identify schema. */
  name: string | null;
  schema: JsonSchema;
  /** The file it is written in. */
  file: string;
  /** Its key path in that file, to place a compile error at file:line:col. */
  path: PropertyKey[];
  /** Where its name (or identify's key) is written, to place a second definition of it. */
  namePath: PropertyKey[];
}

/** A schema as its file writes it, checked against its draft's meta-schema so that each problem is placed at its exact key. */
export interface WrittenSchema {
  /** What it is, for the message: `the schema of "Order Completed"`, `the config of property order_id`. */
  what: string;
  schema: JsonSchema;
  file: string;
  /** Its key path in that file. */
  path: PropertyKey[];
}

/** A plan read from its format into schemas, before compiling. */
export interface PlanSource {
  format: TrackingPlanFormat;
  /** The events' schemas and the identify schema (name null), in the plan's order, each as often as the plan defines it. */
  entries: PlanEntry[];
  /** Every schema as written, to check before any is compiled. */
  written: WrittenSchema[];
}

/** What an entry's schema is, for a message: `the schema of "Order Completed"`, `the identify schema`. */
export function schemaName(name: string | null): string {
  return name === null ? "the identify schema" : `the schema of "${name}"`;
}

/** A problem in a plan file, before it is positioned in its text. */
export interface PlanProblem {
  /** The file it is in. */
  file: string;
  /** Key path of the value at fault, or of the mapping that holds the key at fault. */
  path: PropertyKey[];
  /** The key at fault inside the mapping at `path`, when the problem is a key rather than a value. */
  key?: string;
  message: string;
}

/** Thrown by a format's reader at the first problem of shape it meets. */
export class PlanShapeError extends Error {
  constructor(readonly problem: PlanProblem) {
    super(problem.message);
  }
}

/** True for a value JSON Schema accepts as a schema: an object or a boolean. */
export function isSchema(value: unknown): value is JsonSchema {
  return isRecord(value) || typeof value === "boolean";
}
