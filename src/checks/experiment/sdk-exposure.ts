import type {
  CapturedCall,
  ExperimentSdkSeen,
  PageArtifacts,
  SdkExposure,
  SdkTrackedEvent,
} from "../../artifacts/types.js";
import type { ExperimentSpec } from "../../audit-spec/schema.js";
import { type ExperimentPreset, wasServed } from "../../vendors/experiment-vendor.js";

/**
 * experiment.exposure on the exposures an experimentation SDK logs itself (`flag`, no `exposure`
 * mapping; docs/experiments.md, Experimentation SDKs): on the page as it is, once the SDK served
 * the flag a variation, it must have logged an exposure of it, delivered, naming one variation
 * for the visitor, before the goal's event, and a goal's event sent through the SDK must be sent
 * for the visitor the exposure was logged for.
 */

/** What the exposures on the page as it is say (the mapped call, or the SDK's own of one flag): the status, the sentence after the page's name, and the evidence. */
export interface PageExposureVerdict {
  status: "pass" | "warn" | "fail" | "skip";
  text: string;
  evidence?: Record<string, unknown>;
}

/** Why exposures fail, and what to do. */
interface Reason {
  says: string;
  fix: string;
}

/** Whether the audit reads the exposures `preset` logs: from requests of their own, or as the events the SDK logs its evaluations with. */
export function readsExposures(preset: ExperimentPreset): boolean {
  return preset.exposures !== undefined || preset.logged !== undefined;
}

/**
 * Judges the exposures of `flag` the SDK logged on one page against what it served there, the goal's
 * events the page sent, and whether the experiment's target was visible at any point the audit
 * looked (`target`: its selector, and false when it never was; null when the audit did not look).
 */
export function judgeSdkExposures(
  seen: ExperimentSdkSeen | null | undefined,
  preset: ExperimentPreset,
  flag: string,
  calls: readonly CapturedCall[],
  goalEvents: readonly string[],
  target: { selector: string; shown: boolean | null },
): PageExposureVerdict {
  if (seen === null) return { status: "skip", text: "not judged: the page was gathered without experimentSdk." };
  if (seen?.exposures === undefined)
    return {
      status: "skip",
      text: "not judged: these artifacts were saved before the experimentation SDK's exposures were recorded.",
    };
  const served = seen.evaluations.find(
    (evaluation) => evaluation.flag === flag && wasServed(evaluation, preset.result),
  );
  if (served === undefined)
    return {
      status: "skip",
      text: `not judged: ${preset.vendor} never served "${flag}" a variation here (experiment.assignment says why), so no exposure was due.`,
    };
  const fired = seen.exposures.filter((exposure) => exposure.flag === flag);
  // An exposure of the fallback (Statsig logs one for a flag read before its values came) counts the visitor in no variation.
  const counted = fired.filter((exposure) => exposure.variation !== null);
  const conversions = (seen.tracked ?? []).filter((event) => goalEvents.includes(event.name));
  const evidence = {
    fired: fired.length,
    variations: fired.map((exposure) => exposure.variation),
    visitors: fired.map((exposure) => exposure.visitor),
    atMs: fired.map((exposure) => exposure.atMs),
    statuses: fired.map((exposure) => exposure.request.status),
    ...(conversions.length > 0 ? { conversions: conversions.map(({ name, visitor }) => ({ name, visitor })) } : {}),
    ...afterReload(seen.reloadExposures, flag),
  };
  const unlogged = preset.exposures?.unlogged;
  if (counted.length === 0)
    return {
      status: "fail",
      text: `${preset.vendor} served "${flag}" \`${served.variation}\` at ${served.atMs} ms but logged no exposure of it: the visitor is not counted in the experiment.${unlogged === undefined ? "" : ` ${unlogged}.`}`,
      evidence,
    };
  const reasons = [
    undelivered(counted),
    regrouped(counted),
    goalFirst(calls, conversions, goalEvents, counted[0]!),
    conversionForAnother(counted, conversions, preset.vendor),
    reloadedAsAnother(counted, seen.reloadExposures),
  ].filter((reason): reason is Reason => reason !== null);
  if (reasons.length > 0)
    return {
      status: "fail",
      text: `${reasons.map((reason) => reason.says).join("; ")}. ${reasons[0]!.fix}`,
      evidence,
    };
  const [first] = counted as [SdkExposure, ...SdkExposure[]];
  const visitor = first.visitor === null ? "" : ` for ${first.visitor}`;
  if (target.shown === false)
    return {
      status: "warn",
      text: `${preset.vendor} logged "${flag}"${visitor} at ${first.atMs} ms, naming ${quoted(first.variation)}, but the experiment's target \`${target.selector}\` was visible at no point the audit looked (before the journey, and once the page was done): the visitor is counted without having seen the change, which dilutes the result. Evaluate the flag where the target shows (as the component that shows it renders), not before`,
      evidence: { ...evidence, targetShown: false },
    };
  return {
    status: "pass",
    text: `${preset.vendor} logged "${flag}"${visitor} at ${first.atMs} ms, naming ${quoted(first.variation)}, delivered (${first.request.status}), before the goal's event${seen.reloadExposures?.some((exposure) => exposure.flag === flag) ? ", and again after a reload" : ""}.`,
    evidence,
  };
}

/** A reason for exposures whose request was refused or failed: the service never counts the visitor. */
function undelivered(fired: readonly SdkExposure[]): Reason | null {
  const lost = fired.find(({ request }) => request.status === null || request.status >= 300);
  if (lost === undefined) return null;
  const outcome = lost.request.status === null ? (lost.request.failure ?? "no answer") : `HTTP ${lost.request.status}`;
  return {
    says: `its exposure at ${lost.atMs} ms was not delivered (${outcome})`,
    fix: "Make sure the SDK's events endpoint (its host, or the site's path that proxies it) accepts the SDK's requests.",
  };
}

/** A reason for exposures naming more than one variation: a new identity bucketed again, or the same visitor. */
function regrouped(fired: readonly SdkExposure[]): Reason | null {
  const [first] = fired as [SdkExposure, ...SdkExposure[]];
  const other = fired.find((exposure) => exposure.variation !== first.variation);
  if (other === undefined) return null;
  const named = (exposure: SdkExposure) =>
    `${exposure.visitor ?? "a visitor with no id"} in ${quoted(exposure.variation)}`;
  if (other.visitor !== first.visitor)
    return {
      says: `the visitor changed groups on identify (${named(first)} at ${first.atMs} ms, then ${named(other)} at ${other.atMs} ms): counted in both`,
      fix: "Evaluate the flag once the visitor's identity is final, or bucket by an id that stays the same across identify.",
    };
  return {
    says: `it named another variation for the same visitor (${quoted(first.variation)}, then ${quoted(other.variation)}): the visitor was bucketed again`,
    fix: "Keep the visitor's id across evaluations, so the visitor keeps their bucket.",
  };
}

/** What the reload's exposures of `flag` named, for the evidence: nothing where the page was not reloaded. */
function afterReload(reloaded: readonly SdkExposure[] | undefined, flag: string): Record<string, unknown> {
  if (reloaded === undefined) return {};
  const fired = reloaded.filter((exposure) => exposure.flag === flag);
  return {
    afterReload: fired.map((exposure) => exposure.variation),
    visitorsAfterReload: fired.map((exposure) => exposure.visitor),
  };
}

/**
 * A reason for a reload whose first exposure of the flag naming a variation names a visitor the
 * page logged in another variation (bucketed again), or a visitor the page never logged: the
 * visitor's id is not kept across page views, so each view counts as a new visitor. A visitor the
 * page signed in during its journey is one it logged, where it evaluated the flag for them. A
 * reload that logged none is not judged (an SDK may log a visitor's exposure once).
 */
function reloadedAsAnother(
  counted: readonly SdkExposure[],
  reloaded: readonly SdkExposure[] | undefined,
): Reason | null {
  const last = counted.at(-1)!;
  const again = reloaded?.find((exposure) => exposure.flag === last.flag && exposure.variation !== null);
  if (again === undefined) return null;
  const same = counted.findLast((exposure) => exposure.visitor === again.visitor);
  if (same?.variation === again.variation) return null;
  const named = (exposure: SdkExposure) =>
    `${exposure.visitor ?? "a visitor with no id"} in ${quoted(exposure.variation)}`;
  return {
    says: `after a reload in the same browser it logged ${named(again)}, where the page had ${named(same ?? last)}: ${same === undefined ? "the visitor's id is not kept across page views, so each view counts as a new visitor" : "the visitor was bucketed again"}`,
    fix: "Keep the visitor's id across page views (a cookie or storage the page reads before it makes the client), so the visitor keeps their bucket.",
  };
}

/** A reason for a goal's event sent through the SDK for another visitor than any exposure's: the conversion cannot be joined to the exposure. */
function conversionForAnother(
  fired: readonly SdkExposure[],
  conversions: readonly SdkTrackedEvent[],
  vendor: string,
): Reason | null {
  const exposed = new Set(fired.map((exposure) => exposure.visitor));
  const other = conversions.find((event) => !exposed.has(event.visitor));
  if (other === undefined) return null;
  const ids = [...exposed].map((visitor) => visitor ?? "no id").join(", ");
  return {
    says: `the goal's event \`${other.name}\` was sent through ${vendor} for ${other.visitor ?? "no id"} at ${other.atMs} ms, but the exposure for ${ids}: the conversion cannot be joined to the exposure`,
    fix: "Send the goal's event for the id the exposure was logged for: identify the visitor before the flag is evaluated, or keep one id for them from exposure to goal.",
  };
}

/** A reason for a goal's event, sent through the analytics SDK or this one, before the first exposure: the conversions that came first are not counted. */
function goalFirst(
  calls: readonly CapturedCall[],
  conversions: readonly SdkTrackedEvent[],
  goalEvents: readonly string[],
  exposure: SdkExposure,
): Reason | null {
  const tracked = calls.flatMap((call) =>
    call.kind === "track" && call.name !== null && goalEvents.includes(call.name) ? [{ ...call, name: call.name }] : [],
  );
  const goal = [...tracked, ...conversions].find((event) => event.atMs < exposure.atMs);
  if (goal === undefined) return null;
  return {
    says: `it came after the goal's event \`${goal.name}\` (${goal.atMs} ms, the exposure ${exposure.atMs} ms)`,
    fix: "Evaluate the flag before anything tracks the goal, so the exposure comes first.",
  };
}

/**
 * What an audited page that shows none of `flag`'s experiments says when the SDK logged an exposure
 * of the flag there (the page evaluated it anyway, as a page that evaluates every flag at start-up
 * does): the visitor is counted without having seen the change. Null when it logged none.
 */
export function exposedWithoutExperiment(
  page: Pick<PageArtifacts, "page" | "experimentSdk">,
  flag: string,
  experiments: readonly Pick<ExperimentSpec, "name" | "page">[],
  vendor: string,
): { message: string; evidence: Record<string, unknown> } | null {
  const fired = page.experimentSdk?.exposures?.filter((exposure) => exposure.flag === flag) ?? [];
  const [first] = fired;
  if (first === undefined) return null;
  const shown = experiments.map((experiment) => `"${experiment.name}" on ${experiment.page}`).join(", ");
  return {
    message: `${vendor} logged an exposure of "${flag}" on ${page.page}, which shows none of its experiments (${shown}), at ${first.atMs} ms, naming ${quoted(first.variation)}: every visitor of this page is counted in the experiment without having seen the change, which dilutes its result. Evaluate the flag only where the experiment shows (not every flag at start-up), or, if the experiment runs here too, add this page as one of its experiments.`,
    evidence: {
      fired: fired.length,
      variations: fired.map((exposure) => exposure.variation),
      atMs: fired.map((exposure) => exposure.atMs),
    },
  };
}

function quoted(value: string | null): string {
  return value === null ? "no variation" : `"${value}"`;
}
