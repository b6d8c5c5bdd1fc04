import type { JudgedCall } from "../../artifacts/delivery.js";
import type { CapturedCall, PageArtifacts } from "../../artifacts/types.js";
import type { Judgement } from "../../findings/finding.js";
import type { ExperimentSpec, Step } from "../../audit-spec/schema.js";
import { variationId } from "../../audit-spec/variation-id.js";
import {
  auditedEnvironment,
  defineCheck,
  finding,
  madeCalls,
  notJudgedReason,
  pageSpecOf,
  type CheckContext,
  LOADED_PAGE,
} from "../check.js";
import { uncapitalised } from "../../text/wording.js";
import { appliedByAudit } from "../../schedule/target.js";
import { exposuresOnScreen } from "./exposure-screen.js";
import { EXPERIMENT_PRESETS } from "../../vendors/experiment-presets.js";
import { goalEvents, previewsOf } from "./previews.js";
import {
  exposedWithoutExperiment,
  judgeSdkExposures,
  readsExposures,
  type PageExposureVerdict,
} from "./sdk-exposure.js";

/**
 * experiment.exposure: the call that tells the service which variation a visitor saw. On the
 * page as it is, any variation may be shown: it must fire once, before the goal's event, and name
 * the same variation again after a reload in the same browser. On a variation forced by `query`,
 * it is judged only when it fires (many SDKs send none for a preview): once, naming the
 * variation's id, before the goal's event.
 */

type Exposure = NonNullable<ExperimentSpec["exposure"]>;

/** The exposures among `calls`: track calls of the exposure's event whose properties carry each of its values. */
function exposuresAmong<Call extends CapturedCall>(calls: readonly Call[], exposure: Exposure): Call[] {
  return calls.filter((call) => {
    if (call.kind !== "track" || call.name !== exposure.event) return false;
    const properties = propertiesOf(call);
    return Object.entries(exposure.properties).every(
      ([name, value]) => properties[name] !== undefined && String(properties[name]) === String(value),
    );
  });
}

/** The variation an exposure names (its `variationProperty`, as a string); null when it names none. */
function namedVariation(call: CapturedCall, exposure: Exposure): string | null {
  const value = propertiesOf(call)[exposure.variationProperty];
  return value === undefined || value === null ? null : String(value);
}

function propertiesOf(call: CapturedCall): Record<string, unknown> {
  return call.properties !== null && typeof call.properties === "object" && !Array.isArray(call.properties)
    ? (call.properties as Record<string, unknown>)
    : {};
}

/** The first call of one of `events` made before `exposure`, in the order the page made them (two calls of one task share their millisecond); null when none was. */
function goalBefore(
  calls: readonly CapturedCall[],
  events: readonly string[],
  exposure: CapturedCall,
): CapturedCall | null {
  return (
    calls
      .slice(0, calls.indexOf(exposure))
      .find((call) => call.kind === "track" && call.name !== null && events.includes(call.name)) ?? null
  );
}

/** What one unit's exposures say, before they become a finding: the failures, each a clause. */
interface ExposureVerdict {
  /** `skip` for a forced variation that fired none. */
  status: "pass" | "fail" | "skip";
  reasons: string[];
  evidence: Record<string, unknown>;
}

/**
 * Judges the page as it is: once, before the goal's event, and the same variation after the
 * reload. `reload` is null when the artifacts hold none (saved before reloads were gathered).
 */
function judgeUnforced(
  calls: readonly CapturedCall[],
  reload: PageArtifacts["reload"],
  exposure: Exposure,
  goalEvents: readonly string[],
): ExposureVerdict {
  const fired = exposuresAmong(calls, exposure);
  const shown = fired.map((call) => namedVariation(call, exposure));
  const reasons: string[] = [];
  if (fired.length === 0) reasons.push("it did not fire");
  // A journey that moves to another page loads the experiment's SDK again there: once per page it shows.
  const perPage = new Map<string, number>();
  for (const call of fired) perPage.set(call.documentUrl, (perPage.get(call.documentUrl) ?? 0) + 1);
  const mostOnOnePage = Math.max(0, ...perPage.values());
  if (mostOnOnePage > 1) reasons.push(`it fired ${mostOnOnePage} times on one page (${shown.map(quoted).join(", ")})`);
  else if (new Set(shown).size > 1)
    reasons.push(
      `it named another variation on another page of the journey (${shown.map(quoted).join(", ")}): the visitor was bucketed again`,
    );
  const goal = fired.length === 0 ? null : goalBefore(calls, goalEvents, fired[0]!);
  if (goal !== null) reasons.push(`it came after the goal's event \`${goal.name}\``);
  const evidence: Record<string, unknown> = {
    fired: fired.length,
    variations: shown,
    atMs: fired.map((call) => call.atMs),
  };
  if (reload !== null && reload !== undefined && fired.length > 0) {
    const again = exposuresAmong(reload.calls, exposure).map((call) => namedVariation(call, exposure));
    evidence.afterReload = again;
    if (reload.loadError !== null) reasons.push(`the reload did not load (${reload.loadError})`);
    else if (again.length === 0)
      reasons.push(
        `it did not fire again after a reload, so the visitor's variation (${quoted(shown[0]!)}) was not confirmed`,
      );
    else if (again.some((variation) => variation !== shown[0]))
      reasons.push(
        `it named another variation after a reload in the same browser (${quoted(shown[0]!)}, then ${again.map(quoted).join(", ")}): the visitor was bucketed again`,
      );
    else if (again.length > 1) reasons.push(`it fired ${again.length} times after a reload`);
  }
  return { status: reasons.length > 0 ? "fail" : "pass", reasons, evidence };
}

/**
 * Judges a variation forced by `query`: only when it fires; then once, naming `id`, before the
 * goal's event, and, on the unit's frames, matching the screen.
 */
function judgeForced(
  calls: readonly JudgedCall[],
  exposure: Exposure,
  id: string,
  goalEvents: readonly string[],
  unit: Pick<PageArtifacts, "flicker" | "callsFromNetwork">,
): ExposureVerdict {
  const fired = exposuresAmong(calls, exposure);
  const shown = fired.map((call) => namedVariation(call, exposure));
  const screen = exposuresOnScreen(fired, unit);
  const evidence = {
    fired: fired.length,
    variations: shown,
    expected: id,
    atMs: fired.map((call) => call.atMs),
    ...screen.evidence,
  };
  if (fired.length === 0) return { status: "skip", reasons: [], evidence };
  const reasons: string[] = [];
  if (fired.length > 1) reasons.push(`it fired ${fired.length} times`);
  const others = [...new Set(shown.filter((variation) => variation !== id))];
  if (others.length > 0)
    reasons.push(`it named ${others.map(quoted).join(", ")} instead of the variation's id ${quoted(id)}`);
  const goal = goalBefore(calls, goalEvents, fired[0]!);
  if (goal !== null) reasons.push(`it came after the goal's event \`${goal.name}\``);
  reasons.push(...screen.reasons);
  return { status: reasons.length > 0 ? "fail" : "pass", reasons, evidence };
}

function quoted(value: string | null): string {
  return value === null ? "no variation" : `"${value}"`;
}

/** experiment.exposure: one finding per experiment × unit (the page as it is, each variation) × viewport, for experiments with `exposure`. */
export const experimentExposure = defineCheck({
  id: "experiment.exposure",
  // The page as it is and the variations' previews are gathered by different tests, maybe shards.
  scope: "run",
  title: "Each experiment's exposure fires once, before the goal, for the variation shown",
  failureTitle: "An experiment's exposure is missing, doubled, late or names another variation",
  family: "Experiments",
  severity: "critical",
  requires: [...LOADED_PAGE, "calls", "reload", "flicker", "experimentSdk"],
  failsWhen:
    "with the experiment's `exposure`, per experiment × unit (the page as it is, each variation) × viewport: on " +
    "the page as it is, the exposure did not fire, fired more than once on one page (a journey that moves on " +
    "may fire it again on the next page, naming the same variation), came after one of the experiment's " +
    "goals' events, or did not name the same variation again after one reload in the same browser (no journey " +
    "there); on a variation forced by `query`, an exposure that fires more than once, names another value than " +
    "the variation's `id` (default: its 1-based position) or comes after the goal's event, and, on its frames " +
    "(a variation the site applies), one made while the target still showed the control's content (exposed " +
    "before it rendered), or one made before a client-side redirect and never delivered (lost as the page left) " +
    "(**fail**). A forced " +
    "variation that sends no exposure (many SDKs send none for a preview, GrowthBook among them), and a " +
    "variation with `js` or `css`, which the audit applies itself, get a **skip** saying why. With a `flag` and no " +
    "`exposure`, on an experimentation SDK that logs its own exposures (Statsig, LaunchDarkly, Optimizely, Amplitude " +
    "Experiment, PostHog), " +
    "on the page as it is: once the SDK served the flag a variation, the control included, it logged no exposure of " +
    "it, or one not delivered (refused, or its request failed), or exposures naming two variations (the visitor " +
    "changed groups on identify, naming both ids, or was bucketed again), or the first came after the goal's event " +
    "(sent through either SDK), or the goal's event was sent through the experimentation SDK for another id than " +
    "the exposures' (the conversion cannot be joined to them), or, on an SDK that logs the exposure again on each " +
    "load (Statsig, LaunchDarkly, Optimizely), the first exposure after one reload in the same browser named " +
    "another visitor (the id is not kept across page views) or another variation (**fail**); a flag never served a variation (experiment.assignment's fault) gets a **skip**; an exposure of the " +
    "flag on an audited page that shows none of its experiments (a page that evaluates every flag at start-up), " +
    "or on the experiment's page while its target was visible at no point the audit looked (before the journey, " +
    "and once the page was done, unless a journey step clicked it: evaluated for a component not shown) " +
    "(**warn**, one per page × viewport). Evidence: `fired` " +
    "(how many exposures), `variations` (what each named), `atMs` (when each was made), `afterReload` (what the " +
    "reload's named) and, on a forced variation, `expected` (its id), and with its frames `exposedAtMs` (each on " +
    "the page's clock), `appliedAtMs`, `documentStartsMs` and `controlFrameMs` or `lostAtMs`; from the SDK's own " +
    "exposures, `visitors`, `statuses` (their requests' answers), `conversions` (the goal's events sent through it) " +
    "`afterReload` and `visitorsAfterReload` (the reload's exposures) " +
    "and `targetShown: false` on the warn for a target never visible",
  why:
    "The exposure is how the service learns which visitor saw which variation; every result is counted from " +
    "it. Missing, it leaves the experiment without visitors; sent twice, on a page that tracks it in two " +
    "places, it inflates one variation; naming the wrong variation or a visitor bucketed again on every load " +
    "mixes the groups; sent after the goal's event, it misses the conversions that came first. Each one is a " +
    "known cause of the sample-ratio-mismatch warning, found here in a browser before launch instead of in the " +
    "data weeks later.",
  evaluate(context): Judgement[] {
    const experiments = context.spec.experiments.flatMap((experiment) => {
      const judge = unforcedJudge(context, experiment);
      if (judge === null) return [];
      const { exposure } = experiment;
      const events = goalEvents(context, experiment);
      const unforced = context.pages
        .filter((page) => page.page === experiment.page)
        .map((page) => judgePage(context, experiment, page, judge));
      const forced = previewsOf(context, experiment).map(({ variation, index, unit }) => {
        const scope = {
          page: experiment.page,
          viewport: unit.viewport,
          experiment: experiment.name,
          variation: variation.name,
        };
        const named = `The exposure of "${experiment.name}" on variation "${variation.name}" (${unit.viewport})`;
        const applied = appliedByAudit(variation);
        if (applied !== null)
          return finding(
            context,
            "skip",
            `${named}: not judged, the audit applies this variation's ${applied} itself, so the site's SDK never chose it.`,
            scope,
          );
        const notJudged = notJudgedReason(unit, auditedEnvironment(context).auth);
        if (notJudged !== null) return finding(context, "skip", `${named}: ${uncapitalised(notJudged)}`, scope);
        if (exposure === undefined)
          return finding(
            context,
            "skip",
            `${named}: not judged, the exposures ${context.spec.experimentSdk?.preset} logs for a forced preview are not its visitors'; the page as it is is judged.`,
            scope,
          );
        const id = variationId(variation, index);
        const verdict = judgeForced(madeCalls(unit), exposure, id, events, unit);
        if (verdict.status === "skip") {
          return finding(
            context,
            "skip",
            `${named}: not judged, the page sent no \`${exposure.event}\` for the forced preview (many SDKs send none for a preview, GrowthBook among them); the page as it is is judged.`,
            scope,
            verdict.evidence,
          );
        }
        if (verdict.status === "pass")
          return finding(
            context,
            "pass",
            `${named} fired once, naming "${id}", before the goal's event.`,
            scope,
            verdict.evidence,
          );
        return finding(
          context,
          "fail",
          `${named}: ${verdict.reasons.join("; ")}. ${adviceFor(verdict.reasons)}`,
          scope,
          verdict.evidence,
        );
      });
      return [...unforced, ...forced];
    });
    return [...experiments, ...exposedElsewhere(context)];
  },
});

/**
 * The warns for exposures the SDK logged on audited pages that show none of the flag's
 * experiments (flags evaluated for everything at start-up): one per flag × page × viewport.
 */
function exposedElsewhere(context: CheckContext): Judgement[] {
  const sdk = context.spec.experimentSdk;
  if (sdk === undefined || !readsExposures(EXPERIMENT_PRESETS[sdk.preset])) return [];
  const judged = context.spec.experiments.filter(
    (experiment) => experiment.flag !== undefined && experiment.exposure === undefined,
  );
  const flags = [...new Set(judged.map((experiment) => experiment.flag!))];
  return flags.flatMap((flag) =>
    context.pages.flatMap((page) => {
      const experiments = judged.filter((experiment) => experiment.flag === flag);
      if (experiments.some((experiment) => experiment.page === page.page)) return [];
      const unseen = exposedWithoutExperiment(page, flag, experiments, EXPERIMENT_PRESETS[sdk.preset].vendor);
      if (unseen === null) return [];
      const scope = { page: page.page, viewport: page.viewport, experiment: experiments[0]!.name, variation: null };
      return [finding(context, "warn", unseen.message, scope, unseen.evidence)];
    }),
  );
}

/** How the page as it is is judged: by the exposure call the spec maps, by the exposures the experimentation SDK logs itself (`flag` without `exposure`), or not at all (null). */
type UnforcedJudge = (page: PageArtifacts) => PageExposureVerdict;

function unforcedJudge(context: CheckContext, experiment: ExperimentSpec): UnforcedJudge | null {
  const { exposure, flag } = experiment;
  const events = goalEvents(context, experiment);
  if (exposure !== undefined) return (page) => judgeExposureCall(page, exposure, events);
  const sdk = context.spec.experimentSdk;
  if (flag === undefined || sdk === undefined) return null;
  const preset = EXPERIMENT_PRESETS[sdk.preset];
  if (!readsExposures(preset)) return null;
  const steps = pageSpecOf(context, experiment.page)?.steps ?? [];
  const target = (page: PageArtifacts) => ({
    selector: experiment.selector,
    shown: clickedTarget(page, steps, experiment.selector) || targetShown(page, experiment.name),
  });
  return (page) => judgeSdkExposures(page.experimentSdk, preset, flag, madeCalls(page), events, target(page));
}

/** Whether a journey step clicked the target, and went through: a click waits for its element to be visible. */
function clickedTarget(page: PageArtifacts, steps: readonly Step[], selector: string): boolean {
  return steps.some(
    (step, index) =>
      "click" in step && step.click === selector && (page.stepError === null || page.stepError.step > index),
  );
}

/**
 * Whether the experiment's target was visible at any point the audit looked at the page: before
 * the journey (its view, for an experiment with variations) or once the page was done (its
 * selector's matches); null when it looked at neither.
 */
function targetShown(page: PageArtifacts, experiment: string): boolean | null {
  // A selector that is not valid CSS matched nothing to look at: page.selectors' finding.
  const looks = [...page.experimentViews, ...page.selectors].filter(
    (look) => look.experiment === experiment && look.matched !== null,
  );
  if (looks.length === 0) return null;
  return looks.some((look) => look.visible > 0);
}

/** The exposure call on the page as it is, in words. */
function judgeExposureCall(
  page: PageArtifacts,
  exposure: Exposure,
  goalEvents: readonly string[],
): PageExposureVerdict {
  const verdict = judgeUnforced(madeCalls(page), page.reload ?? null, exposure, goalEvents);
  if (verdict.status !== "pass")
    return {
      status: "fail",
      text: `${verdict.reasons.join("; ")}. ${adviceFor(verdict.reasons)}`,
      evidence: verdict.evidence,
    };
  const shown = (verdict.evidence.variations as (string | null)[])[0] ?? null;
  const reload = page.reload ? ", and again after a reload" : "";
  return {
    status: "pass",
    text: `fired once, naming ${quoted(shown)}, before the goal's event${reload}.`,
    evidence: verdict.evidence,
  };
}

function judgePage(
  context: CheckContext,
  experiment: ExperimentSpec,
  page: PageArtifacts,
  judge: UnforcedJudge,
): Judgement {
  const scope = { page: experiment.page, viewport: page.viewport, experiment: experiment.name, variation: null };
  const named = `The exposure of "${experiment.name}" on ${experiment.page} as it is (${page.viewport})`;
  const notJudged = notJudgedReason(page, auditedEnvironment(context).auth);
  if (notJudged !== null) return finding(context, "skip", `${named}: ${uncapitalised(notJudged)}`, scope);
  const verdict = judge(page);
  // A pass reads on from the name ("… fired once"); the rest after a colon.
  const joint = verdict.status === "pass" && verdict.text.startsWith("fired") ? " " : ": ";
  return finding(context, verdict.status, `${named}${joint}${verdict.text}`, scope, verdict.evidence);
}

/** What to do, for the first reason given. */
function adviceFor(reasons: readonly string[]): string {
  const [first = ""] = reasons;
  if (first.startsWith("it did not fire again"))
    return "Make the exposure fire on every page view the experiment runs on.";
  if (first.startsWith("it did not fire"))
    return "Send the exposure from the experiment SDK's tracking callback, through the analytics SDK's track.";
  if (first.startsWith("it fired"))
    return "Send the exposure from one place only (the SDK's built-in tracker or your own callback, not both).";
  if (first.startsWith("it named another variation"))
    return "Keep the visitor's id across page views (a cookie or storage the SDK reads), so the visitor keeps their bucket.";
  if (first.startsWith("it named"))
    return "Send the variation's key the service knows (GrowthBook's result.key, not its index).";
  if (first.startsWith("it came after"))
    return "Load the experiment SDK before anything tracks the goal, so the exposure comes first.";
  if (first.startsWith("it was exposed before it rendered"))
    return "Send the exposure once the variation is on screen (from the code that renders it), not when the visitor is bucketed.";
  if (first.startsWith("it was lost"))
    return "Let the exposure leave before the redirect: wait for its delivery (GrowthBook waits for a tracking callback's promise, up to maxNavigateDelay), or send it with a beacon.";
  return "Check that the page loads again as it did.";
}
