import { flickerTimes, neverShown, type FlickerTimes, type NeverShown } from "../../artifacts/flicker.js";
import type { PageArtifacts } from "../../artifacts/types.js";
import type { Judgement } from "../../findings/finding.js";
import type { ExperimentSpec, VariationSpec } from "../../audit-spec/schema.js";
import { auditedEnvironment, defineCheck, finding, notJudgedReason, type CheckContext, LOADED_PAGE } from "../check.js";
import { uncapitalised } from "../../text/wording.js";
import { appliedByAudit } from "../../schedule/target.js";
import { previewsOf } from "./previews.js";

/**
 * experiment.flicker: a variation the site applies itself, as a visitor's browser shows it frame by
 * frame from the first: the control painted before the switch, and the page hidden by an
 * anti-flicker snippet.
 */

/** Up to this long, a control painted before the switch warns; beyond, it fails. */
const CONTROL_PAINTED_FAIL_ABOVE_MS = 100;
/** A page hidden this long or longer in all warns. */
const HIDDEN_WARN_FROM_MS = 1000;

/** The verdict on one variation's times, and why, each reason a clause. */
export function judgeFlicker(times: FlickerTimes): { status: "pass" | "warn" | "fail"; reasons: string[] } {
  const reasons: string[] = [];
  let status: "pass" | "warn" | "fail" = "pass";
  if (times.controlPaintedMs > 0) {
    status = times.controlPaintedMs > CONTROL_PAINTED_FAIL_ABOVE_MS ? "fail" : "warn";
    reasons.push(
      `the target showed the control's content for ${times.controlPaintedMs} ms before the variation replaced it (at ${times.appliedAtMs} ms)`,
    );
  }
  if (times.hiddenMs >= HIDDEN_WARN_FROM_MS) {
    if (status === "pass") status = "warn";
    const after =
      times.hiddenAfterAppliedMs > 0 ? `, ${times.hiddenAfterAppliedMs} ms of it after the variation was in place` : "";
    reasons.push(`the page was hidden for ${times.hiddenMs} ms in all${after}`);
  }
  return { status, reasons };
}

/** experiment.flicker: one finding per experiment × variation × viewport. */
export const experimentFlicker = defineCheck({
  id: "experiment.flicker",
  // Judged beside experiment.variation, on the same units.
  scope: "run",
  title: "Variations show without flicker",
  failureTitle: "A variation flickers, or its page stays hidden",
  family: "Experiments",
  severity: "normal",
  requires: [...LOADED_PAGE, "flicker"],
  failsWhen:
    "per experiment × variation × viewport, for variations forced by `query` alone (the site applies them), " +
    "measured on the page's own clock at every frame from the first, across the documents of a client-side " +
    "redirect or a reload and through CSSOM changes: the target was painted with the control's " +
    `content for at least one frame before the variation replaced it (**warn** up to ${CONTROL_PAINTED_FAIL_ABOVE_MS} ms, **fail** beyond), ` +
    "or the page stayed hidden (an anti-flicker snippet's opacity 0 or visibility hidden on html or body, from when " +
    "the snippet hid it until it was shown, before the first frame too) for " +
    `${HIDDEN_WARN_FROM_MS} ms or more in all (**warn**); the worst wins. ` +
    "A target on screen in no frame (absent, hidden, or the page hidden, in every one) gets a **skip** " +
    "saying so, instead of a pass: no frame could have shown flicker. " +
    "Evidence: `controlPaintedMs`, `hiddenMs`, " +
    "`hiddenAfterAppliedMs`, `documents` (how many the page showed) and a filmstrip picture. A variation with `js` or `css` gets a **skip**: the " +
    "audit applies it, and its timing is not the site's (see [Flicker](experiments.md#flicker))",
  why:
    "A variation applied after the page has painted shows the control first, then switches: visitors see " +
    "the switch, and it biases the result toward whoever noticed. The anti-flicker snippets that vendors ship " +
    "instead hide the whole page until the variation is in (for up to 3 to 4 s), and that costs conversions " +
    "in every variation. Neither shows in the experiment's numbers; both are measured here, frame by frame.",
  evaluate(context): Judgement[] {
    return context.spec.experiments.flatMap((experiment) =>
      previewsOf(context, experiment).map(({ variation, unit }) => judgeUnit(context, experiment, variation, unit)),
    );
  },
});

function judgeUnit(
  context: CheckContext,
  experiment: ExperimentSpec,
  variation: VariationSpec,
  unit: PageArtifacts,
): Judgement {
  const scope = {
    page: experiment.page,
    viewport: unit.viewport,
    experiment: experiment.name,
    variation: variation.name,
  };
  const named = `Variation "${variation.name}" of "${experiment.name}" on ${unit.viewport}`;
  const applied = appliedByAudit(variation);
  if (applied !== null)
    return finding(
      context,
      "skip",
      `${named}: not judged for flicker, the audit applies its ${applied} itself, and the audit's timing is not the site's.`,
      scope,
    );
  const notJudged = notJudgedReason(unit, auditedEnvironment(context).auth);
  if (notJudged !== null) return finding(context, "skip", `${named}: ${uncapitalised(notJudged)}`, scope);
  const times = unit.flicker ? flickerTimes(unit.flicker) : null;
  if (times === null)
    return finding(
      context,
      "skip",
      `${named}: not judged, no frame of it was sampled (artifacts saved before flicker was measured, or a page that moved on).`,
      scope,
    );
  const evidence = {
    controlPaintedMs: times.controlPaintedMs,
    hiddenMs: times.hiddenMs,
    hiddenAfterAppliedMs: times.hiddenAfterAppliedMs,
    appliedAtMs: times.appliedAtMs,
    firstFrameMs: times.firstFrameMs,
    frames: unit.flicker!.frames.length,
    // A client-side redirect or a reload shows more than one; absent in artifacts saved before documents were followed.
    ...(unit.flicker!.documentStartsMs ? { documents: unit.flicker!.documentStartsMs.length } : {}),
    filmstrip: unit.flicker!.filmstrip.map((frame) => ({ atMs: frame.atMs, screen: frame.screen })),
  };
  const verdict = judgeFlicker(times);
  // A page hidden long enough warns on its own; a pass needs a frame that showed the target.
  const offScreen = verdict.status === "pass" ? neverShown(unit.flicker!.frames) : null;
  if (offScreen !== null)
    return finding(
      context,
      "skip",
      `${named}: not judged, its target was on screen in none of the ${evidence.frames} frames sampled until ${Math.round(unit.flicker!.readAtMs)} ms (${whyOffScreen(offScreen)}), so no frame could show flicker. Check that \`${experiment.selector}\` is the element the variation changes, shown before the journey.`,
      scope,
      { ...evidence, ...offScreen },
    );
  if (verdict.status === "pass") {
    const hidden = times.hiddenMs > 0 ? `; the page was hidden for ${times.hiddenMs} ms` : "";
    return finding(
      context,
      "pass",
      `${named} shows without flicker: no frame showed the control's content before it${hidden}.`,
      scope,
      evidence,
    );
  }
  return finding(
    context,
    verdict.status,
    `${named}: ${verdict.reasons.join("; ")}. ${adviceFor(times)}`,
    scope,
    evidence,
  );
}

/** The frames without the target on screen, each way, as a clause. */
function whyOffScreen({ absent, hidden, pageHidden }: NeverShown): string {
  const ways = [
    [absent, "the selector matched nothing"],
    [hidden, "the target was hidden"],
    [pageHidden, "the page was hidden"],
  ] as const;
  return ways
    .filter(([count]) => count > 0)
    .map(([count, what]) => `${what} in ${count}`)
    .join(", ");
}

/** What to do, for what the frames showed. */
function adviceFor(times: FlickerTimes): string {
  if (times.hiddenAfterAppliedMs > 0)
    return "End the anti-flicker snippet when the variation is in place (the experiment SDK's ready callback), not on its own timer.";
  if (times.controlPaintedMs > 0 && times.hiddenMs > 0)
    return "The anti-flicker timeout ran out before the experiment SDK applied the variation: load the SDK and its payload sooner, or inline the payload.";
  if (times.controlPaintedMs > 0)
    return 'Load the experiment SDK before the first paint: a synchronous tag in <head>, or an async tag with blocking="render", instead of one inserted late.';
  return 'Shorten the anti-flicker timeout, or apply the variation without hiding the page (a synchronous tag in <head>, or blocking="render").';
}
