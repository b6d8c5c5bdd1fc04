import { SPLIT_FIELDS, VISITOR_FIELDS } from "../../api/match.js";
import type { ReportExperiment, ReportVariation, ReportWarning } from "../../artifacts/types.js";
import type { Judgement, Status } from "../../findings/finding.js";
import { worstStatus } from "../../findings/finding.js";
import { failedExchange, judgeableApi } from "../api/answers.js";
import { defineCheck, finding, specWideFinding, type AuditContext, type CheckContext, type Verdict } from "../check.js";
import { needed, type Requirement } from "../inputs.js";
import { sampleRatioMismatch, type SrmOptions, type SrmResult } from "./srm.js";

/**
 * report.warnings: what the service's own report says about each experiment — its bot, SRM and
 * dropped-event warnings — and a sample-ratio-mismatch test of its visitor counts against the
 * planned split. One finding per experiment the report lists (`experiment` set to its name),
 * or one per spec × environment when there is no report to judge.
 */

/** What a reported warning is about; the words differ on purpose, since a bot filter is not a drop. */
type WarningKind = "srm" | "bot" | "dropped" | "other";

/** First match wins: "SRM, maybe from bot traffic" is an SRM warning, "bot events dropped" a bot one. */
const WARNING_KINDS: readonly [WarningKind, RegExp][] = [
  ["srm", /(^|[^a-z])srm([^a-z]|$)|sample[\s_-]*ratio|ratio[\s_-]*mismatch/i],
  ["bot", /(^|[^a-z])bots?([^a-z]|$)|crawler|spider|headless|automated traffic/i],
  ["dropped", /drop|discard|lost|reject/i],
];

/** Where a sample-ratio mismatch usually comes from, whoever found it. */
const SRM_CAUSES = "look for a variation that redirects, loads slower or breaks on one viewport";

const WARNING_SENTENCES: Record<WarningKind, (quoted: string) => string> = {
  srm: (quoted) =>
    `the service reports a sample-ratio mismatch (${quoted}): visitors do not reach the variations in the planned split, so its results cannot be trusted — ${SRM_CAUSES}`,
  bot: (quoted) =>
    `the service flags bot traffic (${quoted}): visitors it took for bots are filtered out of the results, not dropped — ` +
    "make sure audit and QA traffic is tagged so the service excludes it, and look for crawlers on the experiment's pages",
  dropped: (quoted) =>
    `the service reports dropped events (${quoted}): events were lost and never counted, so conversions are missing — this is not bot filtering; ` +
    "check events.delivered on the audited pages and the events' payloads",
  other: (quoted) =>
    `the service shows a warning setup-audit does not know (${quoted}) — read it in the service's report`,
};

/** report.warnings: the service's report shows no bot, SRM or dropped-event warning, and the visitors match the planned split. */
export const reportWarnings = defineCheck({
  id: "report.warnings",
  scope: "run",
  title: "The service's report shows no bot, SRM or dropped-event warning",
  failureTitle: "The service's report warns of bot traffic, a sample-ratio mismatch or dropped events",
  family: "Delivery",
  severity: "normal",
  failsWhen:
    "with a `report` section, per experiment the report lists: the service reports a bot-traffic, " +
    "sample-ratio-mismatch or dropped-events warning (each named as what it is), or the visitor counts " +
    "fail the SRM test against the planned split (counts, split, χ² and p named); **warn** on a warning " +
    "setup-audit does not know; **skip** without a `report` section or below the minimum visitors. See " +
    "[Report warnings](report-warnings.md)",
  why:
    "An experiment whose visitors are not split as planned (a sample-ratio mismatch), whose traffic is " +
    "partly bots, or whose events are dropped produces numbers that look fine and are wrong; the " +
    "service says so in its report, and the visitor counts show a broken split before anyone reads a result.",
  // The report data comes from the exported file, or from the service API.
  requires: ({ spec }): Requirement[] =>
    spec.report?.file !== undefined ? ["reportFile"] : spec.report?.path !== undefined ? ["api"] : [],
  evaluate(context): Judgement[] {
    const read = reportExperiments(context);
    if ("status" in read) return specWideFinding(context, read);
    if (read.experiments.length === 0) {
      return specWideFinding(context, {
        status: "skip",
        message: `Not judged: the report (${read.source}) lists no experiments.`,
        evidence: { source: read.source },
      });
    }
    return read.experiments.map((experiment, index) =>
      judgeExperiment(context, experiment, index, read.srm, read.source),
    );
  },
});

/** The report's experiments, or the one finding that says why there are none to judge. */
function reportExperiments(
  context: AuditContext,
): { experiments: ReportExperiment[]; source: string; srm: SrmOptions } | Verdict {
  const { report } = context.spec;
  if (!report) {
    return {
      status: "skip",
      message:
        "The spec has no report section, so the service's report warnings are not checked. Add report.path (an API path, like " +
        "/v1/projects/{project}/report) or report.file (an exported JSON file) to check for bot, SRM and dropped-event warnings.",
    };
  }
  if (report.file !== undefined) {
    const read = needed(context, "reportFile");
    if (read.experiments === null) {
      return {
        status: "fail",
        message: `Could not use the report file ${read.file}: ${read.problem}. Fix report.file (relative to the spec file), or export the report again as JSON: a list of experiments with their name, warnings and variations.`,
        evidence: { file: read.file, problem: read.problem },
      };
    }
    return { experiments: read.experiments, source: read.file, srm: report.srm };
  }
  const judgeable = judgeableApi(context);
  if ("blocked" in judgeable) return { status: "skip", message: judgeable.blocked };
  const exchange = judgeable.api.report;
  if (exchange === null)
    return {
      status: "skip",
      message:
        "Not judged: the report was not asked for, because the service's project list could not be read or does not list the project (see api.project).",
    };
  if (exchange.data === null) return failedExchange(exchange, "the report data", "report.path");
  return { experiments: exchange.data, source: `GET ${exchange.url}`, srm: report.srm };
}

/** A variation the SRM test counts: its label for messages, its visitors and its planned weight. */
interface CountedVariation {
  label: string;
  visitors: number;
  weight: number;
}

/** The SRM test's result on the variations it counted, or why it could not be run on this experiment's variations. */
type SrmOutcome = { result: SrmResult; variations: CountedVariation[] } | { notComputed: string };

function judgeExperiment(
  context: CheckContext,
  experiment: ReportExperiment,
  index: number,
  options: SrmOptions,
  source: string,
): Judgement {
  const handle = experiment.name;
  const label = handle === null ? `Experiment #${index + 1} of the report` : `Experiment "${handle}"`;
  const warnings = experiment.warnings.map((warning) => ({ kind: warningKind(warning), text: warning.text }));
  const srm = srmOf(experiment.variations, options);
  const problems: { status: Status; sentence: string }[] = warnings.map((warning) => ({
    status: warning.kind === "other" ? "warn" : "fail",
    sentence: WARNING_SENTENCES[warning.kind](JSON.stringify(warning.text)),
  }));
  if ("result" in srm && srm.result.verdict === "srm")
    problems.push({ status: "fail", sentence: srmSentence(srm.result, srm.variations, options.alpha) });
  const evidence = {
    source,
    warnings,
    srm:
      "result" in srm
        ? { ...srm.result, variations: srm.variations.map((variation) => variation.label), alpha: options.alpha }
        : srm,
  };
  const scope = { experiment: handle };
  if (problems.length > 0) {
    const message = `${label}: ${problems.map((problem) => problem.sentence).join("; ")}.`;
    return finding(context, worstStatus(problems.map((problem) => problem.status)), message, scope, evidence);
  }
  if ("notComputed" in srm)
    return finding(
      context,
      "pass",
      `${label}: the service reports no warning; SRM not computed: ${srm.notComputed}.`,
      scope,
      evidence,
    );
  const { result, variations } = srm;
  if (result.verdict === "insufficient") {
    const message =
      `${label}: not judged yet: ${formatCount(result.total)} visitors, needs ${result.requiredTotal} (${options.minimumVisitors} per variation at the planned split) ` +
      "before a sample-ratio mismatch can be told from chance; the service reports no warning.";
    return finding(context, "skip", message, scope, evidence);
  }
  const figures = `${splitFigures(result, variations)}; ${testFigures(result)}`;
  return finding(
    context,
    "pass",
    `${label}: the service reports no warning, and the visitors match the planned split (${figures}).`,
    scope,
    evidence,
  );
}

function warningKind(warning: ReportWarning): WarningKind {
  return WARNING_KINDS.find(([, pattern]) => pattern.test(warning.words))?.[0] ?? "other";
}

/** Runs the SRM test when every variation names its visitors and planned share. */
function srmOf(variations: readonly ReportVariation[], options: SrmOptions): SrmOutcome {
  if (variations.length < 2)
    return {
      notComputed: variations.length === 0 ? "the report lists no variations" : "the report lists only one variation",
    };
  const labelled = variations.map((variation, index) => ({ ...variation, label: variation.name ?? `#${index + 1}` }));
  const noCount = labelled.filter((variation) => variation.visitors === null).map((variation) => variation.label);
  if (noCount.length > 0)
    return { notComputed: `${variationsNamed(noCount)} no visitor count (${VISITOR_FIELDS.join(", ")})` };
  const noSplit = labelled.filter((variation) => variation.weight === null).map((variation) => variation.label);
  if (noSplit.length > 0)
    return { notComputed: `${variationsNamed(noSplit)} no planned split (${SPLIT_FIELDS.join(", ")})` };
  const counted = labelled.flatMap(({ label, visitors, weight }) =>
    visitors === null || weight === null ? [] : [{ label, visitors, weight }],
  );
  if (counted.every((variation) => variation.weight === 0)) return { notComputed: "the planned weights add up to 0" };
  const result = sampleRatioMismatch(
    counted.map((variation) => variation.visitors),
    counted.map((variation) => variation.weight),
    options,
  );
  return { result, variations: counted };
}

function srmSentence(result: SrmResult, variations: readonly CountedVariation[], alpha: number): string {
  // A planned weight of 0 is a planned share of 0: the weights add up to more than 0.
  const unplanned = variations
    .filter((variation) => variation.weight === 0 && variation.visitors > 0)
    .map((variation) => variation.label);
  const cause =
    unplanned.length > 0
      ? `${variationsNamed(unplanned, "was", "were")} planned to get no traffic but got visitors`
      : `${testFigures(result)}, below alpha ${alpha}`;
  return (
    `a sample-ratio mismatch — its visitors do not match the planned split (${splitFigures(result, variations)}; ${cause}): ` +
    `some visitors are lost or miscounted in one variation, so its results cannot be trusted — ${SRM_CAUSES}`
  );
}

/** `observed A 5150, B 4850; expected 5000, 5000 for the planned 50% / 50%`. */
function splitFigures(result: SrmResult, variations: readonly CountedVariation[]): string {
  const observed = variations.map((variation) => `${variation.label} ${formatCount(variation.visitors)}`).join(", ");
  const planned = result.shares.map((share) => `${formatCount(share * 100)}%`).join(" / ");
  return `observed ${observed}; expected ${result.expected.map(formatCount).join(", ")} for the planned ${planned}`;
}

/** `χ² = 9.00, df = 1, p = 0.0027`. */
function testFigures(result: SrmResult): string {
  return `χ² = ${result.chiSquare.toFixed(2)}, df = ${result.degreesOfFreedom}, p = ${formatP(result.pValue)}`;
}

function formatCount(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** Two significant digits, in exponent form below 0.001 so that tiny p-values stay readable. */
function formatP(p: number): string {
  if (p === 0) return "0";
  return p < 0.001 ? p.toExponential(1) : String(Number(p.toPrecision(2)));
}

/** `variation "A" has` or `variations "A", "B" have` (or another verb pair). */
function variationsNamed(names: readonly string[], singular = "has", plural = "have"): string {
  const quoted = names.map((name) => `"${name}"`).join(", ");
  return names.length === 1 ? `variation ${quoted} ${singular}` : `variations ${quoted} ${plural}`;
}
