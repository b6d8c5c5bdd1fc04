import type { TargetElement, TargetPixels } from "../../artifacts/types.js";

/**
 * Whether a variation changes what a visitor sees of the target, judged on what the screen shows
 * once the page is shown and settled: its text, its size and its pixels. A computed style
 * difference counts through the pixels it changes (`letter-spacing` alone does, `cursor` alone
 * does not), never by a list of properties; an attribute alone changes nothing visible. A box that
 * only moved (its x or y, not its width or height) shows the same target elsewhere: the move
 * counts only through the target's own pixels, which are compared wherever each box is.
 */

/** What differs between the control's target and the variation's, as a visitor sees it. */
interface VisibleChange {
  /** What shows the change: `text`, `box` (its size), `pixels`, or `style` when the pixels could not be compared. */
  shownBy: ("text" | "box" | "pixels" | "style")[];
  /** The computed longhands that differ (evidence only, unless the pixels could not be compared). */
  styleDiff: string[];
  /** How far the box moved, in CSS pixels (right and down), its size kept; null when it did not move. */
  moved: { dx: number; dy: number } | null;
}

/** How far the box may move or resize, in CSS pixels, and still be the same box in the same place (subpixel layout). */
const BOX_TOLERANCE_PX = 0.5;

/**
 * How far a cell's mean colour may differ, per channel out of 255, for a moved target to show the
 * same picture: where a raster tile's edge crosses it, a few of a cell's pixels change by a few units.
 */
const MOVED_CELL_TOLERANCE = 2;

/**
 * Computed longhands that never change the element's own pixels. They matter only when the pixels
 * cannot be compared (a target that changes by itself, or one off the first screen): the style
 * difference then decides, without them.
 */
const NON_PAINTING = new Set([
  "cursor",
  "pointer-events",
  "user-select",
  "-webkit-user-select",
  "touch-action",
  "will-change",
  "caret-color",
  "speak",
  "transition-property",
  "transition-duration",
  "transition-delay",
  "transition-timing-function",
  "transition-behavior",
  "animation-name",
  "animation-duration",
  "animation-delay",
  "animation-iteration-count",
  "animation-direction",
  "animation-fill-mode",
  "animation-play-state",
  "animation-timing-function",
  "animation-composition",
  "animation-timeline",
  "animation-range-start",
  "animation-range-end",
  "scroll-behavior",
  "scroll-margin-top",
  "scroll-margin-right",
  "scroll-margin-bottom",
  "scroll-margin-left",
  "scroll-padding-top",
  "scroll-padding-right",
  "scroll-padding-bottom",
  "scroll-padding-left",
  "scroll-snap-align",
  "scroll-snap-stop",
  "scroll-snap-type",
  "overscroll-behavior-x",
  "overscroll-behavior-y",
  // What only places the box: a move shows in the box's x and y, never in its own pixels.
  "position",
  "top",
  "right",
  "bottom",
  "left",
  "inset-block-start",
  "inset-block-end",
  "inset-inline-start",
  "inset-inline-end",
  "translate",
  "margin-top",
  "margin-right",
  "margin-bottom",
  "margin-left",
  "margin-block-start",
  "margin-block-end",
  "margin-inline-start",
  "margin-inline-end",
]);

/** What of the target a visitor sees change from `control` to `variation`; empty `shownBy` when nothing. */
export function visibleChange(control: TargetElement, variation: TargetElement): VisibleChange {
  const styleDiff = [...new Set([...Object.keys(control.style), ...Object.keys(variation.style)])]
    .filter((property) => control.style[property] !== variation.style[property])
    .sort();
  const shownBy: VisibleChange["shownBy"] = [];
  if (control.text !== variation.text) shownBy.push("text");
  const differs = (side: keyof TargetElement["box"]) =>
    Math.abs(control.box[side] - variation.box[side]) >= BOX_TOLERANCE_PX;
  if (differs("width") || differs("height")) shownBy.push("box");
  const moved =
    !shownBy.includes("box") && (differs("x") || differs("y"))
      ? { dx: round(variation.box.x - control.box.x), dy: round(variation.box.y - control.box.y) }
      : null;
  if (shownBy.length === 0) {
    const [before, after] = [control.pixels ?? null, variation.pixels ?? null];
    if (before !== null && after !== null && before.steady && after.steady) {
      if (!samePicture(before, after, moved !== null)) shownBy.push("pixels");
    } else if (styleDiff.some((property) => !NON_PAINTING.has(property))) {
      shownBy.push("style");
    }
  }
  return { shownBy, styleDiff, moved };
}

/**
 * Whether two captures show the same picture: the same PNG, or, for a target that moved, a clip of
 * the same size whose cells' mean colours are all within MOVED_CELL_TOLERANCE.
 */
function samePicture(before: TargetPixels, after: TargetPixels, moved: boolean): boolean {
  if (before.clip.width !== after.clip.width || before.clip.height !== after.clip.height) return false;
  if (before.sha256 === after.sha256) return true;
  const [a, b] = [before.cells, after.cells];
  if (!moved || a === undefined || b === undefined || a.columns !== b.columns || a.rows !== b.rows) return false;
  const [meansA, meansB] = [Buffer.from(a.means, "base64"), Buffer.from(b.means, "base64")];
  return (
    meansA.length === meansB.length &&
    meansA.every((value, index) => Math.abs(value - meansB[index]!) <= MOVED_CELL_TOLERANCE)
  );
}

function round(px: number): number {
  return Math.round(px * 100) / 100;
}
