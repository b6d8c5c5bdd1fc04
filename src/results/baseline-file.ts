import { basename, dirname, extname, join } from "node:path";
import { z } from "zod";
import { parseJsonWith, type Parsed } from "../text/parse-json.js";
import { firedCalls, type CallBaseline } from "../artifacts/baseline.js";

/** The baseline file (`setup-audit baseline` writes it, `run --baseline` reads it): its format, where it lives, and how a run's summary becomes one. */

/** A baseline file: `version` 1 and one baseline per spec × environment. */
export interface BaselineFile {
  /** The file format's version. */
  version: 1;
  /** One per spec × environment, sorted by spec, then environment. */
  baselines: CallBaseline[];
}

const firedCallsSchema = z.strictObject({ identify: z.boolean(), track: z.array(z.string().min(1)) });

const baselineFileSchema = z.strictObject({
  version: z.literal(1),
  baselines: z
    .array(
      z.strictObject({
        spec: z.string().min(1),
        environment: z.string().min(1),
        project: z.string(),
        pages: z.record(z.string().min(1), z.record(z.string().min(1), firedCallsSchema)),
      }),
    )
    .min(1),
});

/** The parts of summary.json a baseline is made from; other fields are ignored. */
const summarySchema = z.object({
  version: z.literal(1),
  verdict: z.enum(["pass", "fail"]),
  runs: z.array(z.object({ spec: z.string(), project: z.string(), environment: z.string() })),
  findings: z.array(
    z.object({ check: z.string(), spec: z.string(), page: z.string().nullable(), viewport: z.string().nullable() }),
  ),
  calls: z.array(
    z.object({
      spec: z.string(),
      environment: z.string(),
      kind: z.enum(["track", "identify", "page"]),
      name: z.string().nullable(),
      page: z.string(),
      viewport: z.string(),
      // Absent from summaries written before variations were previewed.
      variation: z.string().nullable().optional(),
      // Absent from summaries written before the exposure's reload and the consent units.
      unit: z.string().optional(),
    }),
  ),
});

/** What a baseline is made from: the runs, findings and calls of a summary.json. */
export type SummaryForBaseline = z.infer<typeof summarySchema>;

/** Parses a baseline file's text. */
export function parseBaselineFile(text: string): Parsed<BaselineFile> {
  return parseJsonWith(baselineFileSchema, text, "the file");
}

/** Parses the summary.json a baseline is made from. */
export function parseSummaryForBaseline(text: string): Parsed<SummaryForBaseline> {
  return parseJsonWith(summarySchema, text, "the file");
}

/** Where a spec × environment's baseline lives by default: beside the spec, `audits/shop.staging.baseline.json`. */
export function defaultBaselinePath(specFile: string, environment: string): string {
  return join(dirname(specFile), `${basename(specFile, extname(specFile))}.${environment}.baseline.json`);
}

/**
 * One baseline per run of the summary: the calls of its spec and environment, on every page ×
 * viewport it audited (each has a `page.load` finding), so pages where nothing fired are kept too.
 */
export function baselinesFromSummary(summary: SummaryForBaseline): CallBaseline[] {
  return summary.runs.map((run) => {
    const pages: CallBaseline["pages"] = {};
    for (const finding of summary.findings) {
      if (
        finding.check !== "page.load" ||
        finding.spec !== run.spec ||
        finding.page === null ||
        finding.viewport === null
      )
        continue;
      const { page, viewport } = finding;
      // A variation's calls are the preview's, not the page's; a reload's or a refusal's are not the page's either.
      const calls = summary.calls.filter(
        (call) =>
          call.spec === run.spec &&
          call.environment === run.environment &&
          call.page === page &&
          call.viewport === viewport &&
          !call.variation &&
          (call.unit ?? "page") === "page",
      );
      (pages[page] ??= {})[viewport] = firedCalls(calls);
    }
    return { spec: run.spec, environment: run.environment, project: run.project, pages };
  });
}

/**
 * The file's text: sorted (baselines by spec and environment, pages, viewports, event names) and
 * pretty, with no timestamp, so that refreshing an unchanged baseline changes nothing and a
 * review diff shows exactly which events came or went.
 */
export function formatBaselineFile(baselines: readonly CallBaseline[]): string {
  const byName = <T>(record: Record<string, T>, map: (value: T) => unknown) =>
    Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, map(record[key]!)]),
    );
  const sorted = [...baselines]
    // Code-unit order, not the locale's: the file must not change with the machine that wrote it.
    .sort((a, b) => compareText(a.spec, b.spec) || compareText(a.environment, b.environment))
    .map((baseline) => ({
      spec: baseline.spec,
      environment: baseline.environment,
      project: baseline.project,
      pages: byName(baseline.pages, (viewports) =>
        byName(viewports, (fired) => ({ identify: fired.identify, track: [...new Set(fired.track)].sort() })),
      ),
    }));
  return `${JSON.stringify({ version: 1, baselines: sorted }, null, 2)}\n`;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
