import type { CapturedCall } from "../../artifacts/types.js";
import { routeOfCall } from "../../artifacts/page-views.js";
import type { Judgement } from "../../findings/finding.js";
import { describeStep } from "../../audit-spec/steps.js";
import { defineCheck, madeCalls, pageSpecOf, perLoadedPage, type Verdict, LOADED_PAGE } from "../check.js";

/** Less apart than this, equal tracks made in one step are one action's duplicates; a carousel's or a timer's repeats come further apart. */
export const DUPLICATE_WITHIN_MS = 1000;

/**
 * One track made more than once for one action: its name, the step in the message's words (`step 2
 * (click "#buy")`, counted from 1) and as the calls' 0-based index, the routes it was made on, and
 * the calls less than DUPLICATE_WITHIN_MS after an equal one, with that one: how many, and when.
 */
interface Repeat {
  name: string;
  step: string;
  stepIndex: number | null;
  routes: string[];
  times: number;
  atMs: number[];
}

/** Tracks with equal names and properties made during one step (or before the first), in the order they were made. */
interface EqualTracks {
  name: string;
  stepIndex: number | null;
  calls: CapturedCall[];
}

/** events.duplicate: no track is made twice, with equal properties, less than 1 s apart during one journey step. */
export const eventsDuplicate = defineCheck({
  id: "events.duplicate",
  scope: "page",
  title: "No event is sent twice for one action",
  failureTitle: "An event was sent twice for one action",
  family: "Goal/event mismatch",
  severity: "critical",
  requires: [...LOADED_PAGE, "calls", "callsFromNetwork"],
  failsWhen:
    "the same track (same name, equal properties) was made more than once for one action: during one journey step, or before the first step, less than 1 s apart; the message names the step by its number counted from 1 and its action (`step 2 (click \"#buy\")`); repeats at least 1 s apart (a carousel's impressions, a timer) are not duplicates, a repeat in a later step is another action, an experiment's exposure is [`experiment.exposure`](#experimentexposure)'s business, and retries of one call (one call, several requests, as the vendors' messageId or insert_id mark them) are one call (see [Single-page apps](single-page-apps.md#duplicate-events))",
  why: "A handler bound twice, or an effect that runs twice, sends every event twice, and every conversion rate built on it is wrong. The vendors' deduplication drops only retries of one message, never a second call.",
  evaluate(context): Judgement[] {
    // An experiment's exposure sent twice is experiment.exposure's business.
    const exposures = new Set(
      context.spec.experiments.flatMap((experiment) => (experiment.exposure ? [experiment.exposure.event] : [])),
    );
    return perLoadedPage(context, (page) => {
      const tracks = madeCalls(page).filter(
        (call) => call.kind === "track" && call.name !== null && !exposures.has(call.name),
      );
      if (tracks.length === 0)
        return { status: "skip", message: "No track call was made, so none could be made twice." };
      const journey = pageSpecOf(context, page.page)?.steps.length ?? 0;
      if (journey > 0 && tracks.some((call) => call.step === undefined)) {
        return {
          status: "skip",
          message:
            page.callsFromNetwork === null
              ? "Not judged: these artifacts were saved before the journey step of each call was noted."
              : "Not judged: the page's calls were read from its collect requests, which do not say during which journey step each was made.",
        };
      }
      const steps = (pageSpecOf(context, page.page)?.steps ?? []).map(describeStep);
      return judgeRepeats(equalTracks(tracks), steps, page.viewport, tracks.length);
    });
  },
});

/**
 * The page's tracks grouped by SDK, step, name and equal properties, each group in the order its
 * calls were made: a goal's event sent to the analytics SDK and to the experimentation SDK is one
 * event to each.
 */
function equalTracks(tracks: readonly CapturedCall[]): EqualTracks[] {
  const groups = new Map<string, EqualTracks>();
  for (const call of tracks) {
    const key = JSON.stringify([call.sdk ?? "analytics", call.step ?? null, call.name, canonical(call.properties)]);
    const group = groups.get(key) ?? { name: call.name!, stepIndex: call.step ?? null, calls: [] };
    group.calls.push(call);
    groups.set(key, group);
  }
  return [...groups.values()].map((group) => ({ ...group, calls: group.calls.toSorted((a, b) => a.atMs - b.atMs) }));
}

/** The calls of a group made less than DUPLICATE_WITHIN_MS after the one before them, each with that one. */
function closeRepeats(calls: readonly CapturedCall[]): CapturedCall[] {
  return calls.filter(
    (call, index) =>
      (index > 0 && call.atMs - calls[index - 1]!.atMs < DUPLICATE_WITHIN_MS) ||
      (index + 1 < calls.length && calls[index + 1]!.atMs - call.atMs < DUPLICATE_WITHIN_MS),
  );
}

/** A step in the message's words: its number counted from 1 and its action; `before the first step` for null. */
function stepWords(stepIndex: number | null, steps: readonly string[]): string {
  if (stepIndex === null) return "before the first step";
  const action = steps[stepIndex];
  return `step ${stepIndex + 1}${action === undefined ? "" : ` (${action})`}`;
}

function judgeRepeats(
  groups: readonly EqualTracks[],
  steps: readonly string[],
  viewport: string,
  tracks: number,
): Verdict {
  const repeats: Repeat[] = groups.flatMap((group) => {
    const close = closeRepeats(group.calls);
    if (close.length === 0) return [];
    return [
      {
        name: group.name,
        step: stepWords(group.stepIndex, steps),
        stepIndex: group.stepIndex,
        routes: [...new Set(close.map(routeOfCall))],
        times: close.length,
        atMs: close.map((call) => call.atMs),
      },
    ];
  });
  if (repeats.length === 0) {
    const spaced = [...new Set(groups.filter((group) => group.calls.length > 1).map((group) => `"${group.name}"`))];
    return {
      status: "pass",
      message:
        spaced.length === 0
          ? `None of the ${tracks} track call(s) was made twice with equal properties in one step.`
          : `None of the ${tracks} track call(s) was made twice with equal properties in one step less than 1 s apart: ${spaced.join(", ")} repeated at least 1 s apart (a carousel, a timer), not for one action.`,
      evidence: { duplicates: [] },
    };
  }
  const told = repeats.map(
    (repeat) =>
      `"${repeat.name}" was made ${repeat.times} times with equal properties less than 1 s apart ${repeat.stepIndex === null ? repeat.step : `during ${repeat.step}`} on ${repeat.routes.join(", ")}`,
  );
  return {
    status: "fail",
    message: `On ${viewport}: ${told.join("; ")}. Bind the handler once (an effect or a listener added twice sends every event twice).`,
    evidence: { duplicates: repeats },
  };
}

/** A value with its objects' keys sorted: equal properties compare equal whatever their order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}
