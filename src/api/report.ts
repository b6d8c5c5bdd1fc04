import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { z } from "zod";
import type { ReportExperiment, ReportFile, ReportVariation, ReportWarning } from "../artifacts.js";
import { parseList, type ParsedList } from "./schemas.js";

/**
 * The service's report data, from its API (`report.path`) or an exported file (`report.file`),
 * validated leniently: a list of experiments whose known fields are typed, every other field
 * kept, any of them missing. Its element shape is not published, so counts and weights may also
 * come as text ("5150", "50%"), and the list may stand under `data` (as every API answer),
 * under `experiments`, or alone.
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
  { error: "must be a number of at least 0, like 5150 or \"50%\"" },
);

const handle = {
  name: z.string().optional(),
  key: z.string().optional(),
  id: z.union([z.string(), z.number()]).optional(),
};

const warningSchema = z.union(
  [z.string(), z.looseObject({ type: z.string().optional(), code: z.string().optional(), message: z.string().optional() })],
  { error: "must be text, or a mapping with type, code or message" },
) satisfies z.ZodType<ReportWarning>;

const variationSchema = z.looseObject({
  ...handle,
  visitors: amount.optional(),
  users: amount.optional(),
  participants: amount.optional(),
  weight: amount.optional(),
  split: amount.optional(),
  traffic: amount.optional(),
  allocation: amount.optional(),
  percentage: amount.optional(),
}) satisfies z.ZodType<ReportVariation>;

const experimentSchema = z.looseObject({
  ...handle,
  warnings: z.array(warningSchema).optional(),
  variations: z.array(variationSchema).optional(),
  variants: z.array(variationSchema).optional(),
}) satisfies z.ZodType<ReportExperiment>;

/** The list under `data`, whichever of the accepted places it stood in. */
function listUnderData(body: unknown): unknown {
  if (Array.isArray(body)) return { data: body };
  if (typeof body === "object" && body !== null && !("data" in body) && "experiments" in body) return { ...body, data: body.experiments };
  return body;
}

/** The report's answer or file content: `{ "data": [experiment, …] }`, `{ "experiments": […] }` or `[…]`. */
export const reportListSchema = z.preprocess(listUnderData, z.looseObject({ data: z.array(experimentSchema) }));

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
  return { file: path, experiments: null, problem: `${parsed.problem}; it starts with ${quoted || "nothing (it is empty)"}` };
}
