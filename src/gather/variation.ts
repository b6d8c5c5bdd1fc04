import type { CDPSession, Page } from "playwright";
import type { AppliedVariation, ExperimentView } from "../artifacts/types.js";
import type { ExperimentTarget } from "./selectors.js";
import { escapeRegExp } from "../text/wording.js";
import { saveViewportScreenshot } from "./screenshot.js";

/**
 * Previewing a variation the way the service's preview does once its SDK is ready: the css as a
 * style sheet, then the js run in the page's own world. Then, on a variation and on the page as
 * it is alike, the experiment's target is seen before the journey starts.
 */

/** A variation's code, as the spec loader read it. */
export interface VariationCode {
  css: string | null;
  js: string | null;
}

/** The name the variation's js runs under, so that its errors (now or later) can be told from the page's and carry a line. */
export const VARIATION_SOURCE = "setup-audit-variation.js";

/** Applies the css, then runs the js; returns what the js threw at once (null when it ran). */
export async function applyVariation(page: Page, code: VariationCode): Promise<AppliedVariation["errors"][number] | null> {
  if (code.css !== null) await page.addStyleTag({ content: code.css });
  if (code.js === null) return null;
  const thrown = await page.evaluate(
    ({ js, source }) => {
      try {
        // An indirect eval runs in the page's global scope, as a preview's script tag would.
        (0, eval)(`${js}\n//# sourceURL=${source}`);
        return null;
      } catch (error) {
        return { message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? (error.stack ?? "") : "" };
      }
    },
    { js: code.js, source: VARIATION_SOURCE },
  );
  return thrown === null ? null : { message: thrown.message, line: variationLine(thrown.stack) };
}

/** The symbol under which the page keeps, out of its own code's way, when an experiment's target last changed. */
const TARGET_CHANGES_KEY = "setup-audit.targetChanges";

/**
 * An init script: from the moment the document is parsed, notes when an element of `selectors`
 * last changed (its attributes, its text, what it holds) or was put in place. A change the page
 * or its SDK makes later (a preview link's variation, fetched once the SDK runs) can then be waited for.
 */
export function watchTargetChanges({ key, selectors }: { key: string; selectors: readonly string[] }): void {
  const changes: { last: number | null } = { last: null };
  Object.defineProperty(window, Symbol.for(key), { value: changes });
  const safely = (test: (selector: string) => boolean) => selectors.some((selector) => {
    try {
      return test(selector);
    } catch {
      return false; // not valid CSS: experiment.selector says so
    }
  });
  const touchesTarget = (record: MutationRecord) => {
    const changed = record.target instanceof Element ? record.target : record.target.parentElement;
    if (changed !== null && safely((selector) => changed.closest(selector) !== null)) return true;
    return [...record.addedNodes].some((added) => added instanceof Element && safely((selector) => added.matches(selector) || added.querySelector(selector) !== null));
  };
  const observe = () =>
    new MutationObserver((records) => {
      if (records.some(touchesTarget)) changes.last = performance.now();
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", observe);
  else observe();
}

/** What `watchTargetChanges` needs for these experiments. */
export function targetWatch(experiments: readonly ExperimentTarget[]): { key: string; selectors: string[] } {
  return { key: TARGET_CHANGES_KEY, selectors: experiments.map((experiment) => experiment.selector) };
}

/**
 * Waits until the targets have not changed for `quietMs`, and with `changeExpected` (a variation
 * whose js or preview link changes the page) until they changed at all; bounded by `timeoutMs`.
 */
export async function settleTargets(page: Page, options: { quietMs: number; changeExpected: boolean; timeoutMs: number }): Promise<void> {
  await page
    .waitForFunction(
      ({ key, quietMs, changeExpected }) => {
        const changes = (window as unknown as Record<symbol, { last: number | null } | undefined>)[Symbol.for(key)];
        if (changes === undefined) return true;
        if (changes.last === null) return !changeExpected;
        return performance.now() - changes.last >= quietMs;
      },
      { key: TARGET_CHANGES_KEY, quietMs: options.quietMs, changeExpected: options.changeExpected },
      { timeout: options.timeoutMs, polling: 50 },
    )
    // Still changing, or never changed: the target is seen as it is now, and judged so.
    .catch(() => undefined);
}

/** The line in the variation's js that a stack names; null when it names none (a syntax error). */
export function variationLine(stack: string | undefined): number | null {
  const line = stack?.match(new RegExp(`${escapeRegExp(VARIATION_SOURCE)}:(\\d+):\\d+`))?.[1];
  return line === undefined ? null : Number(line);
}

/** The computed style properties a visitor can see change. */
const SHOWN_STYLE = [
  "color",
  "background-color",
  "background-image",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "text-decoration-line",
  "text-transform",
  "border-top-color",
  "border-top-width",
  "border-radius",
  "box-shadow",
  "opacity",
  "visibility",
  "display",
  "padding-top",
  "padding-left",
  "transform",
];

/**
 * Sees each experiment's target now: what its selector matches, the first visible match as it
 * shows, whether the page is wider than the viewport, and (with `screen`) the first screen.
 */
export async function viewExperiments(
  page: Page,
  experiments: readonly ExperimentTarget[],
  atMs: number,
  screen: { cdp: CDPSession; path: string; name: string } | null,
): Promise<ExperimentView[]> {
  if (experiments.length === 0) return [];
  const seen = await page
    .evaluate(
      ({ targets, shownStyle }) => {
        const overflows = document.documentElement.scrollWidth > document.documentElement.clientWidth;
        return targets.map(({ name, selector }) => {
          let elements: Element[];
          try {
            elements = [...document.querySelectorAll(selector)];
          } catch {
            return { experiment: name, matched: null, visible: 0, target: null, overflows };
          }
          const visible = elements.filter((element) => element.checkVisibility({ opacityProperty: true, visibilityProperty: true }));
          const first = visible[0];
          if (!first) return { experiment: name, matched: elements.length, visible: 0, target: null, overflows };
          const computed = getComputedStyle(first);
          const rect = first.getBoundingClientRect();
          const round = (value: number) => Math.round(value * 100) / 100;
          return {
            experiment: name,
            matched: elements.length,
            visible: visible.length,
            target: {
              text: (first instanceof HTMLElement ? first.innerText : (first.textContent ?? "")).replace(/\s+/g, " ").trim(),
              attributes: Object.fromEntries(first.getAttributeNames().map((attribute) => [attribute, first.getAttribute(attribute) ?? ""])),
              style: Object.fromEntries(shownStyle.map((property) => [property, computed.getPropertyValue(property)])),
              box: { x: round(rect.x), y: round(rect.y), width: round(rect.width), height: round(rect.height) },
            },
            overflows,
          };
        });
      },
      { targets: experiments.map(({ name, selector }) => ({ name, selector })), shownStyle: SHOWN_STYLE },
    )
    // A page that navigated meanwhile has no target to see: the check says it was not seen.
    .catch(() => []);
  const saved = screen === null ? null : await saveViewportScreenshot(screen.cdp, screen.path).then(() => screen.name, () => null);
  return seen.map((view) => ({ ...view, atMs, screen: saved }));
}
