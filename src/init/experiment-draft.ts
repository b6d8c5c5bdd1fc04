import type { PageArtifacts } from "../artifacts/types.js";
import {
  EXPERIMENT_PRESET_NAMES,
  EXPERIMENT_PRESETS,
  type ExperimentPresetName,
} from "../vendors/experiment-presets.js";
import type { DraftExperiment, Noted } from "./spec-text.js";

/**
 * What init drafts of the experimentation SDK a site runs beside its analytics SDK: the preset
 * whose global (or registry of clients) the first look saw, the key its clients were made with,
 * and an experiment per flag the pages evaluated, each on the first page that evaluated it.
 */

/**
 * The experimentation SDK whose global, or registry of clients, the page defined; else the one
 * bundled into the site's code with neither, whose request for its values, or with its events,
 * the page sent (its key in the URL: LaunchDarkly's evalx, or its events when the page gave it its
 * flags; Optimizely's datafile); null when none.
 */
export function detectExperimentSdk(
  globals: readonly { name: string }[],
  requests: readonly { url: string }[],
): ExperimentPresetName | null {
  const names = new Set(globals.map((global) => global.name));
  const byGlobal = EXPERIMENT_PRESET_NAMES.find((name) => {
    const { global, registry, logged } = EXPERIMENT_PRESETS[name];
    // An SDK that logs its flags through the analytics SDK has no global of its own: that global is the analytics SDK's.
    if (logged !== undefined) return false;
    return names.has(global) || (registry !== undefined && names.has(registry.global));
  });
  const byRequest = () =>
    EXPERIMENT_PRESET_NAMES.find((name) => {
      const { unwatched, keyInUrl } = EXPERIMENT_PRESETS[name];
      if (unwatched === undefined) return false;
      const patterns = [keyInUrl, unwatched.keyInEventsUrl].filter((pattern) => pattern !== undefined);
      return requests.some(({ url }) => patterns.some((pattern) => pattern.test(url)));
    });
  return byGlobal ?? byRequest() ?? null;
}

/**
 * The experimentation SDK that logs its flags through the analytics SDK the page runs (PostHog's
 * flags, in posthog-js): a guess until the pages evaluated a flag, since the same SDK also runs
 * without flags. Null when the analytics SDK has none.
 */
export function loggingExperimentSdk(analyticsGlobal: string | null): ExperimentPresetName | null {
  return (
    EXPERIMENT_PRESET_NAMES.find((name) => {
      const { global, logged } = EXPERIMENT_PRESETS[name];
      return logged !== undefined && global === analyticsGlobal;
    }) ?? null
  );
}

/**
 * The page's globals less the experimentation SDK's: its own globals and every global the script
 * that defines its global (its vendor bundle) defines (the client a page keeps in `window.client`,
 * whose `track` is no analytics SDK's). Its registry's script is not one: a site that bundles the
 * SDK from npm bundles its analytics SDK into the same script too.
 */
export function withoutExperimentSdk<Global extends { name: string; definedBy: string | null }>(
  globals: readonly Global[],
  preset: ExperimentPresetName | null,
): Global[] {
  if (preset === null) return [...globals];
  const { global, registry } = EXPERIMENT_PRESETS[preset];
  const own = new Set([global, ...(registry ? [registry.global] : [])]);
  const scripts = new Set(
    globals.filter((seen) => seen.name === global && seen.definedBy !== null).map((seen) => seen.definedBy),
  );
  return globals.filter((seen) => !own.has(seen.name) && !scripts.has(seen.definedBy));
}

/** The experimentation SDK's part of the draft: its preset, the environment's key, and the experiments. */
export interface ExperimentSdkDraft {
  preset: Noted<string>;
  key: Noted<string> | null;
  experiments: DraftExperiment[];
}

/** The selector written for an experiment's element, which init cannot know. */
const BODY = "body";

/**
 * The draft from what the pages' clients did; `pages` in crawl order. An SDK that logs its flags
 * through the analytics SDK has the analytics SDK's key, and is drafted only where a page
 * evaluated a flag: null otherwise.
 */
export function draftExperimentSdk(
  preset: ExperimentPresetName,
  pages: readonly { id: string }[],
  artifacts: readonly PageArtifacts[],
): ExperimentSdkDraft | null {
  const loaded = artifacts.filter((unit) => unit.loadError === null);
  const { vendor, logged } = EXPERIMENT_PRESETS[preset];
  const evaluated = loaded.some((unit) => (unit.experimentSdk?.evaluations.length ?? 0) > 0);
  if (logged !== undefined && !evaluated) return null;
  return {
    preset: {
      value: preset,
      comment: logged === undefined ? `${vendor} is on the page` : `the pages evaluated flags of ${vendor}`,
    },
    key: logged === undefined ? keyNote(loaded) : null,
    experiments: pages.flatMap((page) =>
      flagsFirstEvaluatedOn(page.id, pages, loaded).map((flag) => ({
        name: { value: flag, check: true, comment: "the experiment's name as your team calls it" },
        page: page.id,
        selector: { value: BODY, check: true, comment: "the element the experiment changes" },
        flag: { value: flag, comment: `evaluated when init loaded ${page.id}` },
      })),
    ),
  };
}

/** The key most of the page × viewports' clients were made with; a guess when another was used too, or not on every one. */
function keyNote(loaded: readonly PageArtifacts[]): Noted<string> | null {
  const units = new Map<string, number>();
  for (const unit of loaded)
    for (const key of new Set(unit.experimentSdk?.inits.map((init) => init.key) ?? []))
      if (key !== null) units.set(key, (units.get(key) ?? 0) + 1);
  const [chosen, ...others] = [...units].sort((a, b) => b[1] - a[1]);
  if (chosen === undefined) return null;
  const comment = `its client was made with it on ${chosen[1]} of ${loaded.length} page × viewport(s)`;
  if (others.length === 0 && chosen[1] === loaded.length) return { value: chosen[0], comment };
  const also = others.map(([key]) => key);
  return {
    value: chosen[0],
    check: true,
    comment: also.length === 0 ? comment : `${comment}; also ${also.join(", ")}: another environment's key?`,
  };
}

/** The flags evaluated on `page` and on no page listed before it. */
function flagsFirstEvaluatedOn(
  page: string,
  pages: readonly { id: string }[],
  loaded: readonly PageArtifacts[],
): string[] {
  const flagsOf = (id: string) =>
    new Set(
      loaded
        .filter((unit) => unit.page === id)
        .flatMap((unit) => unit.experimentSdk?.evaluations.map((evaluation) => evaluation.flag) ?? []),
    );
  const before = pages.slice(
    0,
    pages.findIndex((listed) => listed.id === page),
  );
  const earlier = new Set(before.flatMap((listed) => [...flagsOf(listed.id)]));
  return [...flagsOf(page)].filter((flag) => !earlier.has(flag)).sort();
}
