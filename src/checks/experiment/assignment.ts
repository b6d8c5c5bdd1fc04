import { type ExperimentSdkSeen, type FlagEvaluation, SEEN_ON_THE_WIRE } from "../../artifacts/types.js";
import type { JudgedPage } from "../../artifacts/delivery.js";
import type { AuditSpec, ExperimentSpec } from "../../audit-spec/schema.js";
import { variationId } from "../../audit-spec/variation-id.js";
import type { Judgement } from "../../findings/finding.js";
import { EXPERIMENT_PRESETS } from "../../vendors/experiment-presets.js";
import { type EvaluationShape, type ExperimentPreset, wasServed } from "../../vendors/experiment-vendor.js";
import { auditedEnvironment, defineCheck, finding, notJudgedReason, OPENED_PAGE, type Verdict } from "../check.js";

/** The id the control is named by when the SDK assigns it. */
const CONTROL_ID = "control";

/** What a fallback means when the client that gave it had not finished its initialisation. */
const BEFORE_READY = "it was evaluated before the client's initialisation finished";

/** experiment.assignment: on its page, the experimentation SDK was made with this environment's key and evaluated the experiment's flag to one of its variations. */
export const experimentAssignment = defineCheck({
  id: "experiment.assignment",
  scope: "page",
  title: "The experimentation SDK assigns each visitor one of the experiment's variations",
  failureTitle: "The experimentation SDK gives the experiment's flag its fallback, or runs with another key",
  family: "Experiments",
  severity: "critical",
  requires: [...OPENED_PAGE, "consent", "variation", "experimentSdk"],
  failsWhen:
    "per experiment with a `flag` × viewport, on its page: the experimentation SDK (`experimentSdk`) made no " +
    "client there; or was made with another key than the environment's `experimentKey` (naming the other " +
    "environment when it is its key); or never evaluated `flag` (saying so when its request for its flags " +
    "failed); or evaluated it only to its fallback (an " +
    "unknown flag, one not served to client SDKs, one evaluated before the SDK was ready or after its " +
    "initialisation failed), with the SDK's own reason; or served one variation, then another (a bootstrap its " +
    "flags endpoint contradicts, a new identity), naming both; or to no variation, or, when the experiment lists " +
    "variations, to one that is none of them (their `id`s, and `control`) (**fail**)",
  why:
    "A flag SDK that cannot serve the experiment still renders the page: the visitor gets the fallback, " +
    "the experiment silently has no visitors, or counts visitors of the wrong environment. Each is a known " +
    "cause of a sample-ratio mismatch, and only a browser on the page shows it before launch.",
  evaluate(context): Judgement[] {
    const flagged = context.spec.experiments.filter((experiment) => experiment.flag !== undefined);
    const { auth } = auditedEnvironment(context);
    return flagged.flatMap((experiment) =>
      context.pages
        .filter((page) => page.page === experiment.page)
        .map((page) => {
          const scope = { page: page.page, viewport: page.viewport, experiment: experiment.name };
          const notJudged = notJudgedReason(page, auth);
          if (notJudged !== null) return finding(context, "skip", notJudged, scope);
          const verdict = judgeAssignment(context.spec, context.environment, experiment, page);
          return finding(context, verdict.status, verdict.message, scope, verdict.evidence);
        }),
    );
  },
});

/** The verdict on one experiment's flag on one page × viewport. */
export function judgeAssignment(
  spec: AuditSpec,
  environment: string,
  experiment: ExperimentSpec,
  page: Pick<JudgedPage, "experimentSdk">,
): Verdict {
  const seen = page.experimentSdk;
  const sdk = spec.experimentSdk!;
  const vendor = EXPERIMENT_PRESETS[sdk.preset];
  const flag = experiment.flag!;
  if (seen === undefined)
    return {
      status: "skip",
      message: "Not judged: these artifacts were saved before the experimentation SDK was recorded.",
    };
  if (seen === null)
    return { status: "skip", message: "Not judged: the page was gathered without the spec's experimentSdk." };
  const keyVerdict = judgeKey(spec, environment, seen, vendor);
  if (keyVerdict !== null) return keyVerdict;
  const evaluations = seen.evaluations.filter((evaluation) => evaluation.flag === flag);
  // The environment's key when a client had it (judgeKey passed), else the only key there is to name.
  const key = experimentKeyOf(spec, environment, vendor.logged !== undefined) ?? seen.inits[0]!.key;
  const failed = seen.inits.find((init) => init.valuesFailed !== undefined);
  const served = evaluations.filter((evaluation) => wasServed(evaluation, vendor.result));
  // Whether the SDK logged its fallback once the request failed depends on when the page asked: the failure is the finding.
  if (served.length === 0 && failed !== undefined) {
    const fallback = evaluations.at(-1);
    const then =
      fallback === undefined
        ? `"${flag}" was never evaluated`
        : `"${flag}" got the SDK's fallback (reason ${fallback.reason ?? "none given"})`;
    return {
      status: "fail",
      message: `${vendor.vendor} never got its flags: its request for them failed (${failed.valuesFailed}, ${failed.readyAtMs} ms into the page), so ${then} and no visitor is assigned to the experiment here. Make sure the SDK's flags endpoint (its host, or the site's path that proxies it) answers within the SDK's timeout.`,
      evidence: { key, valuesFailed: failed.valuesFailed },
    };
  }
  if (evaluations.length === 0) {
    const unready = seen.inits.every((init) => init.readyAtMs === null) ? " (its initialisation never finished)" : "";
    // An SDK that logs its evaluations logs none it makes too early, and one read from the wire none
    // it could not serve: what the page did is unseen.
    const unseen =
      vendor.logged !== undefined
        ? `; ${vendor.logged.unseen}`
        : readFromTheWire(seen)
          ? `; the SDK is bundled into the site's code, so the audit reads its evaluations from the exposures it sends, and it sends none for a flag it could not serve (one it does not know, or one evaluated before its flags came)`
          : "";
    return {
      status: "fail",
      message: `${vendor.vendor} never evaluated "${flag}" on this page${unready}: no visitor is assigned to the experiment here. Evaluate the flag where the experiment runs (${sdk.evaluate.join(", ")})${unseen}.`,
      evidence: { key },
    };
  }
  const assigned = served[0];
  if (assigned === undefined) return fallbackVerdict(flag, evaluations.at(-1)!, vendor.result, key);
  const switched = served.find((evaluation) => evaluation.variation !== assigned.variation);
  if (switched !== undefined) return switchedVerdict(flag, assigned, switched, key);
  const ids = [CONTROL_ID, ...experiment.variations.map(variationId)];
  const evidence = { key, value: assigned.variation, reason: assigned.reason, atMs: assigned.atMs };
  const why = servedWhy(assigned);
  // An experiment that lists no variation names none the SDK's could differ from.
  const listed = experiment.variations.length > 0;
  if (assigned.variation === null || (listed && !ids.includes(assigned.variation)))
    return {
      status: "fail",
      message: `"${flag}" evaluated to ${assigned.variation === null ? "no variation" : `\`${assigned.variation}\``} (${why}), which is none of the experiment's variations (${ids.join(", ")}). Give each variation the id the SDK names it by, or point flag at the experiment's key.`,
      evidence,
    };
  return {
    status: "pass",
    message: `"${flag}" evaluated to \`${assigned.variation}\` (${why}) at ${assigned.atMs} ms, with the key ${key}.`,
    evidence,
  };
}

/** Why a served value was served, in words: the SDK's reason, or where the value came from. */
function servedWhy(evaluation: FlagEvaluation): string {
  if (evaluation.reason !== null) return evaluation.reason;
  return evaluation.bootstrapped ? "from the page's bootstrap" : "served; the SDK gave no reason";
}

/** The fail for a flag served one variation, then another, on the same page: the visitor is counted in both. */
function switchedVerdict(flag: string, first: FlagEvaluation, then: FlagEvaluation, key: string | null): Verdict {
  const fix = first.bootstrapped
    ? "Bootstrap the SDK with the values its flags endpoint gives the visitor's final identity, or keep the flag's value across identify (PostHog: persist it across authentication steps)."
    : "Evaluate the flag once the visitor's identity is final, and keep the same id for them.";
  return {
    status: "fail",
    message: `"${flag}" was served \`${first.variation}\` (${servedWhy(first)}) at ${first.atMs} ms, then \`${then.variation}\` (${servedWhy(then)}) at ${then.atMs} ms: the visitor changes variation on this page and is counted in both, a cause of a sample-ratio mismatch. ${fix}`,
    evidence: {
      key,
      values: [first.variation, then.variation],
      reasons: [servedWhy(first), servedWhy(then)],
      atMs: [first.atMs, then.atMs],
    },
  };
}

/** Whether the SDK's clients were seen on the wire alone (bundled, with no global or registry to watch). */
function readFromTheWire(seen: ExperimentSdkSeen): boolean {
  const wire: readonly string[] = [SEEN_ON_THE_WIRE.init, SEEN_ON_THE_WIRE.bootstrapped];
  return seen.inits.length > 0 && seen.inits.every((init) => wire.includes(init.method));
}

/** A fail when no client was made, or none with the environment's key; null when one was. */
function judgeKey(
  spec: AuditSpec,
  environment: string,
  seen: ExperimentSdkSeen,
  { vendor, logged }: ExperimentPreset,
): Verdict | null {
  if (seen.inits.length === 0)
    return {
      status: "fail",
      message: `${vendor} made no client on this page (${spec.experimentSdk!.init.join(", ")} never called): no flag is evaluated and the experiment has no visitors here. Initialise the SDK on this page.`,
    };
  // An SDK that logs through the analytics SDK is that SDK: its key is the environment's.
  const expected = experimentKeyOf(spec, environment, logged !== undefined);
  const keys = seen.inits.map((init) => init.key);
  if (expected === undefined || keys.includes(expected)) return null;
  const wrong = keys.find((key) => key !== null) ?? null;
  const owner = Object.keys(spec.environments).find(
    (name) => wrong !== null && experimentKeyOf(spec, name, logged !== undefined) === wrong,
  );
  const message =
    owner !== undefined
      ? `${vendor} was initialised with ${owner}'s key ${wrong} instead of ${environment}'s ${expected}: this environment's visitors are counted in ${owner}'s experiments. Use the environment's own key.`
      : `${vendor} was initialised with ${wrong === null ? "no key" : `the key ${wrong}`}, not ${environment}'s experimentKey ${expected}. Use the environment's key, or correct experimentKey.`;
  return { status: "fail", message, evidence: { key: wrong, expected } };
}

/** An environment's key of the experimentation SDK: its experimentKey, or its key where the SDK is the analytics SDK itself. */
function experimentKeyOf(spec: AuditSpec, environment: string, isAnalyticsSdk: boolean): string | undefined {
  const env = spec.environments[environment];
  return env?.experimentKey ?? (isAnalyticsSdk ? env?.key : undefined);
}

/** The fail for a flag that got only the SDK's fallback, with the SDK's reason and what it means. */
function fallbackVerdict(
  flag: string,
  evaluation: FlagEvaluation,
  shape: EvaluationShape,
  key: string | null,
): Verdict {
  const { reason } = evaluation;
  // Some SDKs give the same reason before their values arrive as for an unknown flag (LaunchDarkly's FLAG_NOT_FOUND).
  const means =
    evaluation.clientReady === false
      ? BEFORE_READY
      : reason === null
        ? shape.unexplained
        : shape.fallbacks.find((fallback) => fallback.reason.test(reason))?.means;
  return {
    status: "fail",
    message: `"${flag}" got the SDK's fallback, not a variation (reason ${reason ?? "none given"})${means === undefined ? "" : `: ${means}`}. Every visitor sees the fallback and none is counted in the experiment.`,
    evidence: { key, value: evaluation.variation, reason, atMs: evaluation.atMs },
  };
}
