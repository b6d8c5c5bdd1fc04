import type { TargetElement } from "../../artifacts/types.js";

/**
 * Whether a variation changes what a visitor sees of the target, judged on what the screen shows
 * once the page is shown and settled: its text, its box and its pixels. A computed style
 * difference counts through the pixels it changes (`letter-spacing` alone does, `cursor` alone
 * does not), never by a list of properties; an attribute alone changes nothing visible.
 */

/** What differs between the control's target and the variation's, as a visitor sees it. */
interface VisibleChange {
  /** What shows the change: `text`, `box`, `pixels`, or `style` when the pixels could not be compared. */
  shownBy: ("text" | "box" | "pixels" | "style")[];
  /** The computed longhands that differ (evidence only, unless the pixels could not be compared). */
  styleDiff: string[];
}

/** How far the box may move or resize, in CSS pixels, and still be the same box (subpixel layout). */
const BOX_TOLERANCE_PX = 0.5;

/**
 * Computed longhands that never change the element's own pixels. They matter only when the pixels
 * cannot be compared (a target that changes by itself, or one off the first screen): the style
 * difference then decides, without them.
 */
const NON_PAINTING = new Set([
  "cursor", "pointer-events", "user-select", "-webkit-user-select", "touch-action", "will-change", "caret-color", "speak",
  "transition-property", "transition-duration", "transition-delay", "transition-timing-function", "transition-behavior",
  "animation-name", "animation-duration", "animation-delay", "animation-iteration-count", "animation-direction",
  "animation-fill-mode", "animation-play-state", "animation-timing-function", "animation-composition", "animation-timeline", "animation-range-start", "animation-range-end",
  "scroll-behavior", "scroll-margin-top", "scroll-margin-right", "scroll-margin-bottom", "scroll-margin-left",
  "scroll-padding-top", "scroll-padding-right", "scroll-padding-bottom", "scroll-padding-left", "scroll-snap-align",
  "scroll-snap-stop", "scroll-snap-type", "overscroll-behavior-x", "overscroll-behavior-y",
]);

/** What of the target a visitor sees change from `control` to `variation`; empty `shownBy` when nothing. */
export function visibleChange(control: TargetElement, variation: TargetElement): VisibleChange {
  const styleDiff = [...new Set([...Object.keys(control.style), ...Object.keys(variation.style)])].filter((property) => control.style[property] !== variation.style[property]).sort();
  const shownBy: VisibleChange["shownBy"] = [];
  if (control.text !== variation.text) shownBy.push("text");
  const boxMoved = (["x", "y", "width", "height"] as const).some((side) => Math.abs(control.box[side] - variation.box[side]) >= BOX_TOLERANCE_PX);
  if (boxMoved) shownBy.push("box");
  if (shownBy.length === 0) {
    const [before, after] = [control.pixels ?? null, variation.pixels ?? null];
    if (before !== null && after !== null && before.steady && after.steady) {
      if (before.sha256 !== after.sha256 || before.clip.width !== after.clip.width || before.clip.height !== after.clip.height) shownBy.push("pixels");
    } else if (styleDiff.some((property) => !NON_PAINTING.has(property))) {
      shownBy.push("style");
    }
  }
  return { shownBy, styleDiff };
}
