import type { CapturedCall } from "../../artifacts/types.js";
import { routeOfCall } from "../../artifacts/page-views.js";
import type { Finding } from "../../findings/finding.js";
import { defineCheck, madeCalls, pageSpecOf, perLoadedPage, type Verdict } from "../check.js";

/** One track made more than once in one step: its name, the step, the routes it was made on, how many times. */
interface Repeat {
  name: string;
  step: number | null;
  routes: string[];
  times: number;
}

/** events.duplicate: no track is made twice, with equal properties, during one journey step. */
export const eventsDuplicate = defineCheck({
  id: "events.duplicate",
  scope: "page",
  title: "No event is sent twice for one action",
  failureTitle: "An event was sent twice for one action",
  family: "Goal/event mismatch",
  severity: "critical",
  checklist: null,
  failsWhen:
    "the same track (same name, equal properties) was made more than once during one journey step, or more than once before the first step; a repeat in a later step is another action, an experiment's exposure is [`experiment.exposure`](#experimentexposure)'s business, and retries of one call (one call, several requests, as the vendors' messageId or insert_id mark them) are one call (see [Single-page apps](single-page-apps.md#duplicate-events))",
  why: "A handler bound twice, or an effect that runs twice, sends every event twice, and every conversion rate built on it is wrong. The vendors' deduplication drops only retries of one message, never a second call.",
  evaluate(context): Finding[] {
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
      return judgeRepeats(repeatsOf(tracks), page.viewport, tracks.length);
    });
  },
});

/** Tracks made more than once with equal properties in the same step, in the order they were first made. */
function repeatsOf(tracks: readonly CapturedCall[]): Repeat[] {
  const groups = new Map<string, CapturedCall[]>();
  for (const call of tracks) {
    const key = JSON.stringify([call.step ?? null, call.name, canonical(call.properties)]);
    groups.set(key, [...(groups.get(key) ?? []), call]);
  }
  return [...groups.values()]
    .filter((calls) => calls.length > 1)
    .map((calls) => ({
      name: calls[0]!.name!,
      step: calls[0]!.step ?? null,
      routes: [...new Set(calls.map(routeOfCall))],
      times: calls.length,
    }));
}

function judgeRepeats(repeats: readonly Repeat[], viewport: string, tracks: number): Verdict {
  if (repeats.length === 0)
    return {
      status: "pass",
      message: `None of the ${tracks} track call(s) was made twice with equal properties in one step.`,
      evidence: { duplicates: [] },
    };
  const told = repeats.map(
    (repeat) =>
      `"${repeat.name}" was made ${repeat.times} times with equal properties ${repeat.step === null ? "before the first step" : `during step ${repeat.step + 1}`} on ${repeat.routes.join(", ")}`,
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
