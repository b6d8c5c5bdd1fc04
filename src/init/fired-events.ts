import type { PageArtifacts } from "../artifacts/types.js";
import { madeCalls } from "../checks/check.js";
import { findPersonalData, personalDataKindOfKey } from "../privacy/personal-data.js";

/**
 * What fired while init loaded the pages, read as the checks read it: only calls the page made
 * count (a call lost before the SDK existed never fired), and an expectation holds only what
 * fired on every viewport, so that the written spec's `run` passes where the site is right.
 */

/** The viewports init opened each page on. */
function viewportsOf(pages: readonly PageArtifacts[]): string[] {
  return [...new Set(pages.map((page) => page.viewport))];
}

/** What one page did on every viewport: the events it tracked, and whether it identified. */
export interface FiredOnPage {
  track: string[];
  identify: boolean;
}

/** The events a page tracked on every viewport, and whether it identified on every one; nothing when a viewport did not load. */
export function firedOnEveryViewport(pages: readonly PageArtifacts[], pageId: string): FiredOnPage {
  const units = pages.filter((page) => page.page === pageId);
  const viewports = viewportsOf(pages);
  if (units.length < viewports.length || units.some((unit) => unit.loadError !== null))
    return { track: [], identify: false };
  const tracked = units.map(
    (unit) =>
      new Set(madeCalls(unit).flatMap((call) => (call.kind === "track" && call.name !== null ? [call.name] : []))),
  );
  const track = [...tracked[0]!].filter((name) => tracked.every((names) => names.has(name)));
  return { track, identify: units.every((unit) => madeCalls(unit).some((call) => call.kind === "identify")) };
}

/** The events some page tracked on each viewport: what a goal needs so that goals.match passes. */
export function trackedOnEveryViewport(pages: readonly PageArtifacts[]): Set<string> {
  const perViewport = viewportsOf(pages).map(
    (viewport) =>
      new Set(
        pages
          .filter((page) => page.viewport === viewport)
          .flatMap((page) =>
            madeCalls(page).flatMap((call) => (call.kind === "track" && call.name !== null ? [call.name] : [])),
          ),
      ),
  );
  return new Set([...(perViewport[0] ?? [])].filter((name) => perViewport.every((names) => names.has(name))));
}

/** Identify attributes seen: those every identifying page × viewport sent as simple values, and those that hold personal data. */
export interface AttributesSeen {
  /** Keys every page × viewport that identified sent with a string, number or boolean, personal data left out. */
  required: string[];
  /** Keys whose name or value is personal data: never required. */
  personal: string[];
  /** Page × viewports that identified. */
  identifyingUnits: number;
}

/** The attributes identify-kind calls sent, judged with the personal-data rules of identify.pii. */
export function attributesSeen(pages: readonly PageArtifacts[]): AttributesSeen {
  const personal = new Set<string>();
  const perUnit = pages.flatMap((page) => {
    const calls = madeCalls(page).filter((call) => call.kind === "identify");
    if (calls.length === 0) return [];
    const simple = new Set<string>();
    for (const call of calls) {
      const attributes = call.properties;
      if (attributes === null || typeof attributes !== "object" || Array.isArray(attributes)) continue;
      for (const hit of findPersonalData(attributes)) personal.add(hit.key.split(".")[0]!);
      for (const [key, value] of Object.entries(attributes)) {
        if (personalDataKindOfKey(key) !== null) personal.add(key);
        if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") simple.add(key);
      }
    }
    return [simple];
  });
  const required = [...(perUnit[0] ?? [])].filter(
    (key) => !personal.has(key) && perUnit.every((keys) => keys.has(key)),
  );
  return { required, personal: [...personal].sort(), identifyingUnits: perUnit.length };
}
