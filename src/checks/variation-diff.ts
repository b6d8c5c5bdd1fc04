/**
 * The judgement behind experiment.variation, on plain values: a variation's unit compared with
 * its control's on the same viewport, at the same moments (the target right after the change is
 * applied, before the journey; the calls after it). One verdict lists every reason that applies.
 */

/** The experiment's target element as a unit saw it. */
export interface TargetElement {
  text: string;
  attributes: Readonly<Record<string, string>>;
  /** The computed style properties that show on screen. */
  style: Readonly<Record<string, string>>;
  box: { x: number; y: number; width: number; height: number };
}

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
export function judgeVariation(control: VariationUnit, variation: VariationUnit, needed: readonly string[]): VariationVerdict {
  const failures: string[] = [];
  for (const error of variation.errors) failures.push(`its js throws "${error.message}"${error.line === null ? "" : ` at line ${error.line}`}`);
  if (variation.matched === null) failures.push("the selector is not valid CSS");
  else if (variation.visible === 0) failures.push(`the selector matches no visible element once it is applied (${variation.matched} matched)`);
  else if (variation.visible > 1) failures.push(`the selector matches ${variation.visible} visible elements once it is applied, so the change may land on the wrong one`);
  if (variation.visible === 1 && control.target !== null && variation.target !== null && sameElement(control.target, variation.target)) {
    failures.push("it changes nothing visible in the target: text, attributes, style and box are the control's");
  }
  const lost = [...new Set(needed)].filter((event) => control.events.includes(event) && !variation.events.includes(event));
  if (lost.length > 0) failures.push(`the journey no longer fires ${lost.map((event) => `\`${event}\``).join(", ")}, which the control fires`);
  const warnings = variation.overflows && !control.overflows ? ["it makes the page wider than the viewport, which the control is not"] : [];
  return { status: failures.length > 0 ? "fail" : warnings.length > 0 ? "warn" : "pass", reasons: [...failures, ...warnings] };
}

function sameElement(a: TargetElement, b: TargetElement): boolean {
  return a.text === b.text && sameRecord(a.attributes, b.attributes) && sameRecord(a.style, b.style) && sameRecord(a.box, b.box);
}

function sameRecord(a: Readonly<Record<string, string | number>>, b: Readonly<Record<string, string | number>>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => a[key] === b[key]);
}
