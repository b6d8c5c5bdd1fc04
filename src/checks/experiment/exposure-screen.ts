import type { JudgedCall } from "../../artifacts/delivery.js";
import { flickerTimes, visibleFramesAfter } from "../../artifacts/flicker.js";
import type { PageArtifacts } from "../../artifacts/types.js";

/**
 * Whether a variation's exposures match its screen (docs/experiments.md, The exposure): on the
 * document that shows the variation, an exposure must not come while the target still shows the
 * control's content; on a document the page left (a client-side redirect, a split-URL test), it
 * may come before the target exists but must have been delivered. Judged on the frames the
 * flicker sampler saw; nothing to say without them, or when the calls were read from the network
 * (their times are the requests', not the page's clock).
 */

/** How late a frame must be sampled after an exposure to be seen after it: the calls' clock is in whole milliseconds. */
const CLOCK_SLACK_MS = 2;

/**
 * How many frames with the target visible must show the control's content after an exposure for
 * it to have come before the variation rendered. The sampler may run before the page's own
 * animation-frame callbacks in a frame, so the first frame after the exposure can be sampled
 * before a render that lands in it: one frame is no evidence.
 */
const CONTROL_FRAMES_AFTER = 2;

/** The failures, each a clause, and the times they were judged on (on the page's clock). */
export interface ScreenVerdict {
  reasons: string[];
  evidence: Record<string, unknown>;
}

/** Judges `fired` (one unit's exposures) against the frames of `unit`; no reasons and no evidence without frames on the calls' clock. */
export function exposuresOnScreen(
  fired: readonly JudgedCall[],
  { flicker, callsFromNetwork }: Pick<PageArtifacts, "flicker" | "callsFromNetwork">,
): ScreenVerdict {
  const starts = flicker?.documentStartsMs;
  const origin = flicker?.navigationStartMs;
  const times = flicker ? flickerTimes(flicker) : null;
  const finalLook = flicker?.frames.at(-1)?.[2] ?? -1;
  const onPageClock = callsFromNetwork === null || callsFromNetwork === undefined;
  const judgeable = flicker && starts !== undefined && origin !== undefined && times !== null && finalLook >= 0;
  if (!judgeable || !onPageClock || fired.length === 0) return { reasons: [], evidence: {} };
  const lastStart = starts.at(-1)!;
  const reasons: string[] = [];
  const evidence: Record<string, unknown> = {
    exposedAtMs: fired.map((call) => call.atMs - origin),
    appliedAtMs: times.appliedAtMs,
    documentStartsMs: starts,
  };
  for (const call of fired) {
    const atMs = call.atMs - origin;
    if (atMs < lastStart) {
      // Made on a document the page left: it only had to leave with the visitor's exposure.
      if (call.delivery !== "dropped") continue;
      const leftAtMs = starts.find((start) => start > atMs)!;
      reasons.push(
        `it was lost: made at ${atMs} ms on a page that left for another URL at ${leftAtMs} ms, before it was delivered`,
      );
      evidence.lostAtMs = atMs;
      continue;
    }
    // A target not there yet is judged on the first frames that show it.
    const shown = visibleFramesAfter(flicker.frames, atMs + CLOCK_SLACK_MS, CONTROL_FRAMES_AFTER);
    if (shown.length < CONTROL_FRAMES_AFTER || shown.some(([, , look]) => look === finalLook)) continue;
    const [frameMs, hidden] = shown[0]!;
    reasons.push(
      `it was exposed before it rendered: made at ${atMs} ms while the target still showed the control's content (frame at ${Math.round(frameMs)} ms${hidden === 1 ? ", the page hidden" : ""}); the variation showed from ${times.appliedAtMs} ms`,
    );
    evidence.controlFrameMs = Math.round(frameMs);
  }
  return { reasons, evidence };
}
