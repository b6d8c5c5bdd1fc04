import { z } from "zod";
import { CHECK_IDS, type CheckId, FAMILIES, SEVERITIES } from "../findings/finding.js";
import type { RunSummary } from "./summary.js";

/** Where the generated JSON Schema of summary.json ships, relative to the package root. */
export const SUMMARY_SCHEMA_FILE = "audits/summary.schema.json";

const status = z
  .enum(["pass", "warn", "fail", "skip"])
  .describe("`skip`: the check did not apply, or the spec turned it off.");
const verdict = z.enum(["pass", "fail"]);
const nullableName = (what: string) => z.string().nullable().describe(what);
// A string to zod (the check list cannot be read while this module loads: the checks import the
// results), typed as the check ids it holds; the JSON Schema lists them (summaryJsonSchema).
const CHECK_ID_DESCRIPTION = "The check's stable id (docs/checks.md).";
const checkId = z.string().describe(CHECK_ID_DESCRIPTION) as unknown as z.ZodType<CheckId>;

const finding = z
  .object({
    check: checkId,
    status,
    title: z
      .string()
      .describe(
        "The check's title as it was when it was judged: what a pass vouches for, or, on a warn or fail, what went wrong.",
      ),
    severity: z.enum(SEVERITIES).describe("The check's severity as it was when it was judged."),
    family: z.enum(FAMILIES).describe("The check's family (the report's category) as it was when it was judged."),
    spec: z.string().describe("The spec file, as the run named it."),
    page: nullableName("The page's id; null on a finding that judges no one page."),
    viewport: nullableName("`desktop` or `mobile`; null on a finding that judges no one viewport."),
    goal: nullableName("The goal's name, on goals.match; null on every other finding."),
    experiment: nullableName("The experiment's name, on experiment.* findings; null on every other finding."),
    variation: nullableName(
      "The variation the finding judges (experiment.variation, .exposure, .flicker), by its name; null on every other finding.",
    ),
    message: z.string().describe("One sentence a person can act on."),
    evidence: z
      .record(z.string(), z.unknown())
      .describe("Plain data that backs the message; never a raw secret or personal value."),
  })
  .strict()
  .describe("One judgement of one check, on one page × viewport, goal, experiment or spec.");

const call = z
  .object({
    spec: z.string().describe("The spec whose page made the call."),
    environment: z.string().describe("The environment whose page made the call."),
    kind: z
      .enum(["track", "identify", "page"])
      .describe(
        "`page` for a page view: an `sdk.page` call or a track named `sdk.pageEvent`, the page's or the SDK's own.",
      ),
    name: nullableName(
      "The event's name (a track or a page view), as recorded; null for an identify, and when it could not be recovered.",
    ),
    page: z.string(),
    viewport: z.string(),
    experiment: nullableName("The experiment whose preview made the call; null for the page as it is."),
    variation: nullableName("The variation whose preview made the call; null for the page as it is."),
    unit: z
      .enum(["page", "reload", "reject", "gpc"])
      .describe(
        "The page (or a variation's preview) as loaded, its reload for experiment.exposure, or a consent unit that refused (`reject`) or had Global Privacy Control on (`gpc`).",
      ),
    atMs: z.number().describe("When the page made the call, in milliseconds on the page's clock."),
    beforeSdk: z.boolean().describe("True for a call lost before the SDK existed."),
    step: z
      .number()
      .int()
      .nullable()
      .describe("The 0-based index of the journey step during which the call was made; null before the first step."),
    route: z
      .string()
      .describe(
        "The route current when the call was made: the path and query, and a hash router's route after them (/app/#/pricing).",
      ),
    delivery: z
      .enum(["accepted", "rejected", "dropped", "intercepted"])
      .describe("What happened to the call: docs/checks.md, events.delivered."),
    seenOn: z
      .enum(["global", "network"])
      .describe(
        "`global`: watched on the SDK's global as it was made; `network`: read from the collect request that carried it, at that request's time (a call on the SDK's own instance, an SDK without a global or that could not be watched, a page view the SDK made on its own).",
      ),
    sdk: z
      .enum(["analytics", "experiment"])
      .optional()
      .describe(
        "The SDK the call was made to: `analytics` (the spec's `sdk`) or `experiment` (its `experimentSdk`); absent from a summary written before it was kept.",
      ),
  })
  .strict()
  .describe("One call the page made to the SDK.");

const checklist = z
  .object({
    workspace: status,
    projectKeyOrDomain: status,
    goalEventMatch: status,
    mobileAndDesktop: status,
    noWarnings: status,
  })
  .strict()
  .describe("The service's five checks before a setup is trusted: each the worst status of the checks that feed it.");

const specRun = z
  .object({
    spec: z.string(),
    project: z.string(),
    environment: z.string(),
    verdict,
    collect: z
      .enum(["send", "intercept"])
      .describe(
        "`send`: collect requests went to the service; `intercept`: the audit answered them inside the browser.",
      ),
    checklist,
  })
  .strict()
  .describe("One spec audited in one environment.");

const changedFinding = z
  .object({
    check: checkId,
    spec: z.string().describe("The spec file, as the run named it."),
    environment: z.string().describe("The environment the spec was audited in."),
    page: nullableName("As on the finding."),
    viewport: nullableName("As on the finding."),
    goal: nullableName("As on the finding."),
    experiment: nullableName("As on the finding."),
    variation: nullableName("As on the finding."),
    status: status.describe("The finding's status in this run."),
  })
  .strict()
  .describe(
    "A finding's key (check, spec, environment, page, viewport, goal, experiment, variation) and its status now.",
  );

const changes = z
  .object({
    comparedWith: z
      .object({
        startedAt: z.string().describe("ISO-8601: when the run compared with started."),
        verdict: verdict.describe("That run's verdict."),
      })
      .strict()
      .describe(
        "The run compared with: the last of the same spec × environment in the history, or the one `--compare DIR` holds.",
      ),
    new: z.array(changedFinding).describe("Warn or fail now; pass or skip then, or absent from that run."),
    worse: z.array(changedFinding).describe("Warn then, fail now."),
    resolved: z.array(changedFinding).describe("Warn or fail then, pass now."),
    persisting: z.number().int().describe("How many findings warn or fail in both runs and are not worse."),
    persistingWarnings: z
      .number()
      .int()
      .optional()
      .describe(
        "How many of `persisting` warn now (the rest fail); absent in a summary written before they were told apart.",
      ),
  })
  .strict()
  .nullable()
  .describe(
    "What changed since the run compared with; null when there is nothing to compare with. A key skipped then and warn or fail now is new; a key skipped now, or not audited now, counts in none.",
  );

const runSummary = z
  .object({
    version: z.literal(1).describe("Changes only when a field is renamed or removed."),
    verdict,
    startedAt: z.string().describe("ISO-8601."),
    durationMs: z.number(),
    runs: z.array(specRun),
    findings: z.array(finding),
    checks: z
      .record(z.string(), z.object({ why: z.string() }).strict())
      .optional()
      .describe(
        "Why each check of `findings` matters, by check id, as it was when the run judged it: every report shows it beside the findings.",
      ),
    calls: z.array(call),
    changes,
  })
  .strict();

/** The schema's type is summary.json's type: a field added to one and not the other fails type checking here. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameShape: Same<z.infer<typeof runSummary>, RunSummary> = true;
void _sameShape;

/** The JSON Schema of summary.json, generated from its zod schema, with every check id the run may name. */
export function summaryJsonSchema(): Record<string, unknown> {
  const generated = withCheckIds(z.toJSONSchema(runSummary)) as Record<string, unknown>;
  return {
    $schema: generated.$schema,
    title: "setup-audit summary.json",
    description:
      "What a setup-audit run found: the verdict, each spec run's checklist, every finding and every captured call.",
    ...generated,
  };
}

/** The schema with every `check` property (a finding's, a changed finding's) listing the check ids. */
function withCheckIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withCheckIds);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (key !== "properties" || value === null || typeof value !== "object" || !("check" in value))
        return [key, withCheckIds(value)];
      const properties = withCheckIds(value) as Record<string, unknown>;
      return [
        key,
        { ...properties, check: { type: "string", enum: [...CHECK_IDS], description: CHECK_ID_DESCRIPTION } },
      ];
    }),
  );
}

/** The schema as the shipped file holds it: two-space JSON and a final newline. */
export function summaryJsonSchemaText(): string {
  return `${JSON.stringify(summaryJsonSchema(), null, 2)}\n`;
}
