import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { z } from "zod";
import { SPLIT_FIELDS, VISITOR_FIELDS } from "./match.js";
import { aliasFields, firstOf, idText, idValue, parseList, type ParsedList } from "./schemas.js";

/**
 * The service's report data, from its API (`report.path`) or an exported file (`report.file`),
 * validated leniently and normalised like every API answer (schemas.ts): a list of experiments
 * whose known fields are typed, unknown fields allowed, any of them missing. Its element shape is
 * not published, so counts and weights may also come as text ("5150", "50%"), and the list may
 * stand under `data` (as every API answer), under `experiments`, or alone.
 */

/** A count or weight: a number, or text holding one (an optional `%` is dropped). */
const amount = z.union(
  [
    z.number().nonnegative(),
    z
      .string()
      .regex(/^\s*\d+(\.\d+)?\s*%?\s*$/)
      .transform((text) => Number.parseFloat(text)),
  ],
  { error: 'must be a number of at least 0, like 5150 or "50%"' },
);

/** What names an experiment or a variation: its `name`, `key` or `id`, first found wins. */
const handle = {
  name: z.string().optional(),
  key: z.string().optional(),
  id: idValue.optional(),
};

const HANDLE_FIELDS = Object.keys(handle) as (keyof typeof handle)[];

/** The first of an element's handles, as text; null when it has none. */
function handleOf(element: { name?: string; key?: string; id?: string | number }): string | null {
  return idText(firstOf(element, HANDLE_FIELDS));
}

/** The fields whose words tell what a warning object is about. */
const WARNING_WORD_FIELDS = ["type", "code", "kind", "name", "title", "message"] as const;

const warningSchema = z
  .union(
    [
      z.string(),
      z.looseObject({ type: z.string().optional(), code: z.string().optional(), message: z.string().optional() }),
    ],
    {
      error: "must be text, or a mapping with type, code or message",
    },
  )
  .transform((warning) => ({
    /** The warning as the report words it: its text, or an object's `message`, `type` or `code` (else the whole object). */
    text:
      typeof warning === "string"
        ? warning
        : (warning.message ?? warning.type ?? warning.code ?? JSON.stringify(warning)),
    /** Every word it is described with (its text, or an object's type, code, kind, name, title and message), to tell what it is about. */
    words:
      typeof warning === "string"
        ? warning
        : WARNING_WORD_FIELDS.map((field) => warning[field])
            .filter((value) => typeof value === "string")
            .join(" "),
  }));

/** A warning the service's report shows, normalised. */
export type ReportWarning = z.infer<typeof warningSchema>;

const variationSchema = z
  .object({ ...handle, ...aliasFields(VISITOR_FIELDS, amount), ...aliasFields(SPLIT_FIELDS, amount) })
  .transform((variation) => ({
    /** Its name (`name`, `key` or `id`), for messages; null when it has none. */
    name: handleOf(variation),
    /** Visitors bucketed into it (`visitors`, `users` or `participants`); null when the report does not say. */
    visitors: firstOf(variation, VISITOR_FIELDS),
    /** Its planned share of the traffic, as a weight, percentage or fraction (`weight`, `split`, …); null when the report does not say. */
    weight: firstOf(variation, SPLIT_FIELDS),
  }));

/** One variation of an experiment in the service's report, normalised. */
export type ReportVariation = z.infer<typeof variationSchema>;

const experimentSchema = z
  .object({
    ...handle,
    warnings: z.array(warningSchema).optional(),
    variations: z.array(variationSchema).optional(),
    variants: z.array(variationSchema).optional(),
  })
  .transform((experiment) => ({
    /** Its name (`name`, `key` or `id`), for messages and findings' `experiment`; null when it has none. */
    name: handleOf(experiment),
    /** The warnings the service shows for it: bot traffic, sample-ratio mismatch, dropped events, … */
    warnings: experiment.warnings ?? [],
    /** Its variations (`variations` or `variants`) with their visitors and planned split. */
    variations: experiment.variations ?? experiment.variants ?? [],
  }));

/** One experiment in the service's report data, normalised. */
export type ReportExperiment = z.infer<typeof experimentSchema>;

/** An exported report file (the spec's `report.file`), read once per spec × environment. */
export interface ReportFile {
  /** The file as read: the spec's `report.file` resolved against the spec's folder. */
  file: string;
  /** Its experiments, validated leniently and normalised; null when it could not be read or understood. */
  experiments: ReportExperiment[] | null;
  /** Why not: the file system's error, or what in the content was wrong with a quote of its start; null when read. */
  problem: string | null;
}

/** The list under `data`, whichever of the accepted places it stood in. */
function listUnderData(body: unknown): unknown {
  if (Array.isArray(body)) return { data: body };
  if (typeof body === "object" && body !== null && !("data" in body) && "experiments" in body)
    return { ...body, data: body.experiments };
  return body;
}

/** The report's answer or file content: `{ "data": [experiment, …] }`, `{ "experiments": […] }` or `[…]`. */
export const reportListSchema = z.preprocess(listUnderData, z.object({ data: z.array(experimentSchema) }));

/** Parses report data: JSON, then the lenient shape; a problem names what was wrong (`data[1].variations[0].visitors: …`). */
export function parseReport(text: string): ParsedList<ReportExperiment> {
  return parseList(reportListSchema, text);
}

const QUOTE_CHARS = 200;

/**
 * Reads the spec's `report.file`, relative to the spec file's folder (and shown that way, so no
 * machine's own folders reach a shareable report); null when the spec names none. Never throws.
 */
export function readReportFile(file: string | undefined, specFile: string): ReportFile | null {
  if (file === undefined) return null;
  const path = isAbsolute(file) ? file : join(dirname(specFile), file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return { file: path, experiments: null, problem: `it could not be read (${(error as Error).message})` };
  }
  const parsed = parseReport(text);
  if (parsed.ok) return { file: path, experiments: parsed.data, problem: null };
  const flat = text.replace(/\s+/g, " ").trim();
  const quoted = flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS)}…` : flat;
  return {
    file: path,
    experiments: null,
    problem: `${parsed.problem}; it starts with ${quoted || "nothing (it is empty)"}`,
  };
}
