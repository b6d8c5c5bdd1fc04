import type { CapturedCall, ExperimentView, PageArtifacts, TargetElement } from "../../artifacts/types.js";
import type { Judgement } from "../../findings/finding.js";
import type { ExperimentSpec, VariationSpec } from "../../audit-spec/schema.js";
import {
  auditedEnvironment,
  defineCheck,
  finding,
  madeCalls,
  notConsentedReason,
  pageSpecOf,
  type CheckContext,
  LOADED_PAGE,
} from "../check.js";
import { uncapitalised } from "../../text/wording.js";
import { keptOut } from "../../artifacts/site-entry.js";
import { goalEvents, previewsOf } from "./previews.js";
import { visibleChange } from "./visible-change.js";
import { withPicturesLeftOut } from "../pictures-left-out.js";

/**
 * experiment.variation: each variation's preview compared with its control (the page as it is)
 * on the same viewport, at the same moments: the target right after the change is applied,
 * before the journey; the calls after it. One verdict lists every reason that applies.
 */

/** What one unit (the control, or a variation) recorded for the judgement. */
export interface VariationUnit {
  /** Elements the selector matched and how many are visible; matched is null for invalid CSS. */
  matched: number | null;
  visible: number;
  /** The first visible match; null when none is visible. */
  target: TargetElement | null;
  /** Whether the document was wider than the viewport (scroll width over client width). */
  overflows: boolean;
  /** What the variation's js threw, with its line in that code when known; empty for the control. */
  errors: readonly { message: string; line: number | null }[];
  /** The names of the track calls the journey made after the change (not lost). */
  events: readonly string[];
  /** The journey step that failed, in words; null when the journey was walked to its end. */
  journeyError: string | null;
}

/** A variation's verdict: fail and warn reasons, each one sentence. */
export interface VariationVerdict {
  status: "pass" | "warn" | "fail";
  reasons: string[];
}

/**
 * Judges `variation` against `control`. `needed` are the events the page's `expect` and the
 * experiment's goals need; only those the control makes count, so a page already broken
 * without the variation does not fail it (events.expected and goals.match say so).
 */
export function judgeVariation(
  control: VariationUnit,
  variation: VariationUnit,
  needed: readonly string[],
): VariationVerdict {
  const failures: string[] = [];
  for (const error of variation.errors)
    failures.push(`its js throws "${error.message}"${error.line === null ? "" : ` at line ${error.line}`}`);
  if (variation.matched === null) failures.push("the selector is not valid CSS");
  else if (variation.visible === 0)
    failures.push(`the selector matches no visible element once it is applied (${variation.matched} matched)`);
  else if (variation.visible > 1)
    failures.push(
      `the selector matches ${variation.visible} visible elements once it is applied, so the change may land on the wrong one`,
    );
  if (variation.visible === 1 && control.target !== null && variation.target !== null) {
    const { shownBy, moved } = visibleChange(control.target, variation.target);
    if (shownBy.length === 0)
      failures.push(
        nothingVisible(moved, pixelsCompared(control.target, variation.target) ? "pixels" : "painted style"),
      );
  }
  if (variation.journeyError !== null && control.journeyError === null)
    failures.push(`the journey breaks (${variation.journeyError}), which it does not on the control`);
  const lost = [...new Set(needed)].filter(
    (event) => control.events.includes(event) && !variation.events.includes(event),
  );
  if (lost.length > 0)
    failures.push(
      `the journey no longer fires ${lost.map((event) => `\`${event}\``).join(", ")}, which the control fires`,
    );
  const warnings =
    variation.overflows && !control.overflows
      ? ["it makes the page wider than the viewport, which the control is not"]
      : [];
  return {
    status: failures.length > 0 ? "fail" : warnings.length > 0 ? "warn" : "pass",
    reasons: [...failures, ...warnings],
  };
}

/** The reason for a target that shows nothing new, moved or not; `compared` is what stood for its looks. */
function nothingVisible(moved: { dx: number; dy: number } | null, compared: "pixels" | "painted style"): string {
  if (moved === null)
    return `it changes nothing visible in the target: its text, box and ${compared} are the control's`;
  const { dx, dy } = moved;
  const move = [
    ...(dx === 0 ? [] : [`${Math.abs(dx)} px ${dx > 0 ? "right" : "left"}`]),
    ...(dy === 0 ? [] : [`${Math.abs(dy)} px ${dy > 0 ? "down" : "up"}`]),
  ].join(" and ");
  return `it changes nothing visible in the target, it only moves it ${move}: its text, size and ${compared} are the control's`;
}

/** Whether both units' pixels were taken, each steady: otherwise the painted style stands in for them. */
function pixelsCompared(a: TargetElement, b: TargetElement): boolean {
  return a.pixels?.steady === true && b.pixels?.steady === true;
}

/** experiment.variation: one finding per experiment × variation × viewport. */
export const experimentVariation = defineCheck({
  id: "experiment.variation",
  // Each variation is compared with its control, which another worker or shard may have gathered.
  scope: "run",
  title: "Each variation previews well: it shows, and keeps the journey's calls",
  failureTitle: "A variation breaks the page, changes nothing or loses conversions",
  family: "Experiments",
  severity: "critical",
  requires: [...LOADED_PAGE, "experimentViews", "calls", "stepError", "picturesLeftOut"],
  failsWhen:
    "per experiment × variation × viewport, its preview compared with the page as it is (the control): the " +
    "variation's js throws (the error and its line are named); its selector matches no visible element, or " +
    "more than one, once applied; it changes nothing visible in the target (once the page is shown, with its " +
    "animations held: its text, its size within half a CSS pixel and its own pixels all equal the control's, so " +
    "any computed style that changes pixels counts, `letter-spacing` alone too, and `cursor`, an attribute or a " +
    "move of the same target alone does not); its preview link does not load; or the journey's steps no longer make a call " +
    "that the page's `expect` or the experiment's goals need while the control's do (a call made on load races the change and counts on neither side) (**fail**); it makes the " +
    "page wider than the viewport where the control was not (**warn**)",
  why:
    "What breaks experiments is the variation itself: custom JS that throws on mobile only, a rewrite of the " +
    "call-to-action's markup that silently drops its click handler so the variation records no conversions, " +
    "CSS that makes the page wider than a phone, a change that shows nothing on one viewport. Each is caught " +
    "here before launch, by previewing every variation on every viewport beside the page as it is.",
  evaluate(context): Judgement[] {
    return context.spec.experiments.flatMap((experiment) =>
      previewsOf(context, experiment).map(({ variation, unit }) =>
        withPicturesLeftOut(judgeUnit(context, experiment, variation, unit), unit),
      ),
    );
  },
});

function judgeUnit(
  context: CheckContext,
  experiment: ExperimentSpec,
  variation: VariationSpec,
  unit: PageArtifacts,
): Judgement {
  const { viewport } = unit;
  const scope = { page: experiment.page, viewport, experiment: experiment.name, variation: variation.name };
  const named = `Variation "${variation.name}" of "${experiment.name}" on ${viewport}`;
  const control = controlOf(context, experiment, viewport);
  if (control === undefined)
    return finding(
      context,
      "skip",
      `${named}: not judged here, its control was gathered by another shard (\`merge\` judges it).`,
      scope,
    );
  const auth = auditedEnvironment(context).auth;
  if (keptOut(control, auth) !== null || keptOut(unit, auth) !== null)
    return finding(context, "skip", `${named}: not judged, the site kept the audit out (see page.access).`, scope);
  if (control.loadError !== null)
    return finding(context, "skip", `${named}: not judged, the page did not load (see page.load).`, scope);
  if (unit.loadError !== null) {
    return finding(
      context,
      "fail",
      `${named}: its preview did not load (${unit.loadError}). Check its query (the preview link's parameters) against the page.`,
      scope,
      { requestedUrl: unit.requestedUrl },
    );
  }
  const unconsented = notConsentedReason(control) ?? notConsentedReason(unit);
  if (unconsented !== null) return finding(context, "skip", `${named}: ${uncapitalised(unconsented)}`, scope);
  const controlView = viewOf(control, experiment.name);
  const variationView = viewOf(unit, experiment.name);
  if (controlView === null || variationView === null)
    return finding(context, "skip", `${named}: not judged, the page moved on before its target could be seen.`, scope);
  const needed = [...(pageSpecOf(context, experiment.page)?.expect?.track ?? []), ...goalEvents(context, experiment)];
  const asIs = unitOf(control, controlView, []);
  const previewed = unitOf(unit, variationView, unit.variation?.errors ?? []);
  const verdict = judgeVariation(asIs, previewed, needed);
  const change =
    asIs.target !== null && previewed.target !== null ? visibleChange(asIs.target, previewed.target) : null;
  const evidence = {
    reasons: verdict.reasons,
    needed,
    shownBy: change?.shownBy ?? [],
    styleDiff: change?.styleDiff ?? [],
    ...(change?.moved ? { moved: change.moved } : {}),
    control: shownOf(asIs),
    variation: shownOf(previewed),
  };
  if (verdict.status === "pass") {
    // Calls are compared only where the control's journey made one that is needed: say so when none was.
    const rest = needed.some((event) => asIs.events.includes(event))
      ? "keeps the journey's calls and fits the screen"
      : "fits the screen (no call it needs was made during the control's journey steps, so none was compared)";
    return finding(context, "pass", `${named} previews well: it changes the target, ${rest}.`, scope, evidence);
  }
  return finding(
    context,
    verdict.status,
    `${named}: ${verdict.reasons.join("; ")}. ${adviceFor(verdict.reasons)}`,
    scope,
    evidence,
  );
}

/** What the variations are compared with on `viewport`: the control forced by `control.query`, else the page as it is. */
function controlOf(
  context: Pick<CheckContext, "pages" | "variations">,
  experiment: ExperimentSpec,
  viewport: string,
): PageArtifacts | undefined {
  if (experiment.control !== undefined) {
    return context.variations.find(
      (unit) =>
        unit.page === experiment.page &&
        unit.viewport === viewport &&
        unit.variation?.experiment === experiment.name &&
        unit.variation.control === true,
    );
  }
  return context.pages.find((page) => page.page === experiment.page && page.viewport === viewport);
}

function viewOf(page: PageArtifacts, experiment: string): ExperimentView | null {
  return page.experimentViews.find((view) => view.experiment === experiment) ?? null;
}

/** What the judgement compares of one unit: the view before the journey, and the journey's calls. */
function unitOf(page: PageArtifacts, view: ExperimentView, errors: VariationUnit["errors"]): VariationUnit {
  const events = madeCalls(page).flatMap((call) =>
    call.kind === "track" && call.name !== null && madeInJourney(call, view) ? [call.name] : [],
  );
  const journeyError = page.stepError === null ? null : `step ${page.stepError.step + 1}: ${page.stepError.message}`;
  return {
    matched: view.matched,
    visible: view.visible,
    target: view.target,
    overflows: view.overflows,
    errors,
    events,
    journeyError,
  };
}

/**
 * True for a call made while the journey was walked, after the view. A call the page makes on load
 * races the change, on the control as on the variation, so neither side counts it: which side of
 * the view it falls on says how busy the machine was, not what the variation did. Artifacts saved
 * before steps were noted tell only the time: a call made after the view.
 */
function madeInJourney(call: CapturedCall, view: ExperimentView): boolean {
  return call.step === undefined ? call.atMs >= view.atMs : call.step !== null;
}

/** The evidence of one unit: what its view saw of the target, and the events its journey fired. */
function shownOf(unit: VariationUnit) {
  return {
    matched: unit.matched,
    visible: unit.visible,
    text: unit.target?.text ?? null,
    box: unit.target?.box ?? null,
    pixels: unit.target?.pixels?.sha256 ?? null,
    overflows: unit.overflows,
    events: unit.events,
  };
}

/** What to do, for the reasons given. */
function adviceFor(reasons: readonly string[]): string {
  if (reasons.some((reason) => reason.startsWith("its js throws")))
    return "Fix the variation's js for this viewport and preview it again.";
  if (reasons.some((reason) => reason.startsWith("the journey")))
    return "Change the target's content or style in place instead of replacing its markup, so that its listeners stay.";
  if (reasons.some((reason) => reason.startsWith("the selector")))
    return "Make the selector match exactly one visible element once the change is applied.";
  if (reasons.some((reason) => reason.startsWith("it changes nothing visible in the target, it only moves it")))
    return "Change what the target shows (its text, its style), not only where it is.";
  if (reasons.some((reason) => reason.startsWith("it changes nothing")))
    return "Check that the variation's code targets the experiment's element, on this viewport too.";
  return "Keep the change within the viewport's width (max-width, wrapping) on this viewport.";
}
