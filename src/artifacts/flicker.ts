import type { FlickerFrames } from "./types.js";

/**
 * What a variation's frames say (docs/experiments.md, Flicker): each frame lasts until the next
 * one (the last until the frames were read); the variation is in place from the first frame after
 * which every frame shows the target's last look. The page is hidden from each time it was seen
 * hidden until it was next seen shown, before the first frame too.
 */
export interface FlickerTimes {
  /** When the first frame was rendered. */
  firstFrameMs: number;
  /** From when the target showed its last look for good. */
  appliedAtMs: number;
  /** How long the page was shown with the target in another look (the control's) before that. */
  controlPaintedMs: number;
  /** How long the page was hidden (html or body at opacity 0 or visibility hidden), in all. */
  hiddenMs: number;
  /** How much of that came once the variation was in place. */
  hiddenAfterAppliedMs: number;
}

/** The times of `flicker`'s frames, in whole milliseconds; null when no frame was rendered. */
export function flickerTimes(
  flicker: Pick<FlickerFrames, "frames" | "readAtMs" | "hiddenChanges">,
): FlickerTimes | null {
  const { frames, readAtMs } = flicker;
  if (frames.length === 0) return null;
  const last = frames[frames.length - 1]![2];
  let appliedFrom = frames.length - 1;
  while (appliedFrom > 0 && frames[appliedFrom - 1]![2] === last) appliedFrom--;
  const appliedAtMs = frames[appliedFrom]![0];
  const duration = (index: number) =>
    Math.max(0, (index + 1 < frames.length ? frames[index + 1]![0] : readAtMs) - frames[index]![0]);
  let controlPaintedMs = 0;
  frames.forEach(([, hidden, look], index) => {
    if (hidden === 0 && look >= 0 && look !== last && index < appliedFrom) controlPaintedMs += duration(index);
  });
  const spans = hiddenSpans(flicker.hiddenChanges ?? frames.map(([atMs, hidden]) => [atMs, hidden]), readAtMs);
  const within = (from: number) =>
    spans.reduce((sum, [start, end]) => sum + Math.max(0, end - Math.max(start, from)), 0);
  return {
    firstFrameMs: Math.round(frames[0]![0]),
    appliedAtMs: Math.round(appliedAtMs),
    controlPaintedMs: Math.round(controlPaintedMs),
    hiddenMs: Math.round(within(Number.NEGATIVE_INFINITY)),
    hiddenAfterAppliedMs: Math.round(within(appliedAtMs)),
  };
}

/** The spans [from, until] in which the page was hidden, by the moments it was seen hidden (1) or shown (0); the last until `endMs`. */
function hiddenSpans(changes: readonly (readonly [number, 0 | 1])[], endMs: number): [number, number][] {
  const spans: [number, number][] = [];
  let hiddenSince: number | null = null;
  for (const [atMs, hidden] of changes) {
    if (hidden === 1) hiddenSince ??= atMs;
    else if (hiddenSince !== null) {
      spans.push([hiddenSince, atMs]);
      hiddenSince = null;
    }
  }
  if (hiddenSince !== null) spans.push([hiddenSince, Math.max(hiddenSince, endMs)]);
  return spans;
}

/** How the target stayed off screen in every frame, by how many frames each way. */
export interface NeverShown {
  /** Frames in which the selector matched nothing. */
  absent: number;
  /** Frames in which the target, or an ancestor below body, was hidden. */
  hidden: number;
  /** Frames in which the page itself was hidden (html or body). */
  pageHidden: number;
}

/** How the target stayed off screen in every frame; null when some frame showed it. */
export function neverShown(frames: FlickerFrames["frames"]): NeverShown | null {
  const counts: NeverShown = { absent: 0, hidden: 0, pageHidden: 0 };
  for (const [, hidden, look] of frames) {
    if (hidden === 1) counts.pageHidden++;
    else if (look === -1) counts.absent++;
    else if (look === -2) counts.hidden++;
    else return null;
  }
  return counts;
}

/** The first `count` frames sampled at or after `atMs` in which the target was there and visible (the page hidden or not). */
export function visibleFramesAfter(
  frames: FlickerFrames["frames"],
  atMs: number,
  count: number,
): FlickerFrames["frames"] {
  return frames.filter(([sampledAt, , look]) => sampledAt >= atMs && look >= 0).slice(0, count);
}
