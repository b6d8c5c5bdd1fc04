import type { PageArtifacts } from "../artifacts/types.js";
import { PRESETS } from "../vendors/presets.js";
import { KEY_PLACES } from "../checks/sdk/key.js";
import { DEFAULT_DELIVERY_TIMEOUT_MS, MAX_DELIVERY_TIMEOUT_MS } from "../audit-spec/schema.js";
import type { ExperimentPresetName } from "../vendors/experiment-presets.js";
import type { ProbeResult } from "./collect-probe.js";
import { draftExperimentSdk } from "./experiment-draft.js";
import type { LinkJourney } from "./in-app-link.js";
import { attributesSeen, firedOnEveryViewport, trackedOnEveryViewport } from "./fired-events.js";
import type { KeyChoice, KeySeen } from "./key-discovery.js";
import type { GenericFound, SdkDetection } from "./sdk-detection.js";
import type { BasicAuthVariables, DraftGoal, DraftPage, Noted, SdkDraft, SpecDraft } from "./spec-text.js";
import { pathGlob, urlsGlob } from "./url-globs.js";

/**
 * Drafts the spec from what init saw: the SDK section from the detection (a `preset:` line, or
 * every field), the environment's key from where keys were seen, pages and their `expect` from
 * what fired, and what the service says about the project. Pure: the spec's text is spec-text's.
 */

/** Written when no request carried a probe call: a placeholder the spec's `run` will show wrong. */
const COLLECT_PLACEHOLDER = "**/collect";

/** A probe answered later than this needs more than the default `deliveryTimeoutMs`, which also bounds readiness. */
const SLOW_DELIVERY_MS = DEFAULT_DELIVERY_TIMEOUT_MS / 2;

/** A global as comments name it: `window.expsvc (track, identify; defined by URL)`. */
function describeGlobal(found: GenericFound): string {
  const methods = [found.track, ...(found.identify === null ? [] : [found.identify])].join(", ");
  return `window.${found.global.name} (${methods}; defined by ${found.global.definedBy})`;
}

/** The `sdk` section for the detected SDK; `probe` says where a generic SDK sent its calls; `keys` are made `*` in globs. */
export function draftSdk(detection: SdkDetection, probe: ProbeResult | null, keys: readonly string[]): SdkDraft | null {
  const { preset, generic } = detection;
  const others = (skip: number) =>
    generic
      .slice(skip)
      .map(
        (other) =>
          `Also on the page: ${describeGlobal(other)}, another SDK; this spec audits only the one below. Audit the other with a spec of its own if it matters.`,
      );
  if (preset !== null) {
    const facts = PRESETS[preset.preset];
    const { global } = preset;
    const evidence = [
      ...(preset.scriptUrls.length > 0 ? [`its script ${preset.scriptUrls[0]}`] : []),
      global === null
        ? `no window.${facts.global}, but its collect requests (${preset.collectUrls[0]}) carry events: an npm install without a global, whose calls the audit reads from the network`
        : `window.${global.name} with ${facts.track.join(", ")}`,
      ...(preset.ready ? ["its ready marker held"] : []),
    ];
    const fields: SdkDraft["fields"] = [
      { name: "preset", value: { value: preset.preset, comment: `${facts.vendor}: ${evidence.join("; ")}` } },
    ];
    if (global !== null && global.name !== facts.global)
      fields.push({
        name: "global",
        value: { value: global.name, comment: `the preset's script defines it instead of window.${facts.global}` },
      });
    if (preset.scriptUrls.length === 0 && global?.definedBy) {
      fields.push({
        name: "script",
        value: {
          value: pathGlob(global.definedBy, keys),
          check: true,
          comment: `the preset's script glob matched no script; this one defines window.${global.name}: ${global.definedBy}`,
        },
      });
    }
    return { comments: others(0), fields };
  }
  const chosen = generic[0];
  if (chosen === undefined) return null;
  const { global } = chosen;
  const fields: SdkDraft["fields"] = [
    {
      name: "script",
      value: {
        value: pathGlob(global.definedBy!, keys),
        check: true,
        comment: `the script that defines window.${global.name}: ${global.definedBy}`,
      },
    },
    {
      name: "global",
      value: {
        value: global.name,
        comment: `defined by that script${chosen.thirdParty ? ", from another origin than the site" : ""}`,
      },
    },
    {
      name: "track",
      value: { value: chosen.track, check: true, comment: `the track-like method of window.${global.name}` },
    },
    {
      name: "identify",
      value:
        chosen.identify === null
          ? {
              value: "identify",
              check: true,
              comment: `window.${global.name} has no identify-like method; name the one that sends a visitor's attributes`,
            }
          : { value: chosen.identify, check: true, comment: `the identify-like method of window.${global.name}` },
    },
  ];
  if (chosen.init.length > 0)
    fields.push({
      name: "init",
      value: { value: chosen.init, check: true, comment: "methods whose first string argument may be the key" },
    });
  fields.push({
    name: "collect",
    value:
      probe !== null && probe.urls.length > 0
        ? {
            value: urlsGlob(probe.urls, keys),
            check: true,
            comment: `a probe call init made on window.${global.name} went to ${[...new Set(probe.urls)].join(", ")} (answered by init, never sent)`,
          }
        : {
            value: COLLECT_PLACEHOLDER,
            check: true,
            comment: `no request carried the probe call init made on window.${global.name}: give the URL glob of the requests that deliver its events`,
          },
  });
  if (probe !== null && probe.delayMs !== null && probe.delayMs > SLOW_DELIVERY_MS) {
    const bound = Math.min(MAX_DELIVERY_TIMEOUT_MS, Math.ceil((probe.delayMs * 2) / 1000) * 1000);
    fields.push({
      name: "deliveryTimeoutMs",
      value: {
        value: bound,
        check: true,
        comment: `the probe call left after ${probe.delayMs} ms: twice that, for batching`,
      },
    });
  }
  return { comments: ["No preset matched: every field below was read from the page.", ...others(1)], fields };
}

/** The `sdk` section as the spec's schema reads it. */
export function sdkInput(sdk: SdkDraft): Record<string, unknown> {
  return Object.fromEntries(sdk.fields.map((field) => [field.name, field.value.value]));
}

/** What the service said about the project the key names (`--api`). */
export interface ServiceFacts {
  baseUrl: string;
  keyEnv: string;
  /** The workspace and project as the matched element names them; null when it names none. */
  workspace: string | null;
  project: string | null;
  /** The element's key when it was matched by the domain and its key is not the page's: the service's project key. */
  projectKey: string | null;
  /** The goals the service lists for the project; null when they could not be read. */
  goals: { name: string; event: string }[] | null;
  /** The endpoint paths that answered, or null. */
  goalsPath: string | null;
  recentEventsPath: string | null;
  /** Why the project could not be filled in from the service; null when it was. */
  problem: string | null;
}

/** Everything the draft is made of. */
export interface DraftInputs {
  /** The URL init was given, the base URL and the file it writes. */
  url: string;
  baseUrl: string;
  file: string;
  schemaPath: string;
  environment: string;
  sdk: SdkDraft;
  key: KeyChoice;
  /** The listed pages, in crawl order. */
  pages: { id: string; path: string }[];
  artifacts: readonly PageArtifacts[];
  service: ServiceFacts | null;
  /** The variables that got init into a Basic-auth site (`--basic-env`); null without. */
  basic: BasicAuthVariables | null;
  /** The consent banner init met and accepted; absent or null when it met none. */
  consent?: { cmp: string } | null;
  /** The experimentation SDK the first look saw; absent or null when none. */
  experimentSdk?: ExperimentPresetName | null;
  /** On a single-page app, the journey through the first page's first in-app link and what walking it gathered; absent or null otherwise. */
  journey?: { page: string; steps: LinkJourney; artifacts: readonly PageArtifacts[] } | null;
}

/** What a placeholder key reads, when no key was seen anywhere. */
export const KEY_PLACEHOLDER = "YOUR-PROJECT-KEY";

function keyNote(choice: KeyChoice): Noted<string> {
  const { installed } = choice;
  if (installed === null) {
    return {
      value: KEY_PLACEHOLDER,
      check: true,
      comment: `no key was seen where sdk.key looks (${Object.values(KEY_PLACES).join(", ")}): write the key the SDK installs`,
    };
  }
  const places = [...new Set(installed.places.map((place) => KEY_PLACES[place.where]))].join(", ");
  const comment = `seen on ${installed.units.length} of ${choice.loadedUnits} page × viewport(s), in: ${places}`;
  return choice.others.length > 0 || installed.units.length < choice.loadedUnits
    ? { value: installed.key, check: true, comment }
    : { value: installed.key, comment };
}

function otherKeyComment(other: KeySeen): string {
  return `check: another key, ${other.key}, is on ${other.units.join(", ")}: another environment's key? sdk.key fails where it is installed.`;
}

function draftGoals(service: ServiceFacts | null, artifacts: readonly PageArtifacts[]): DraftGoal[] {
  if (service?.goals == null) return [];
  const fired = trackedOnEveryViewport(artifacts);
  return service.goals.map((goal) =>
    fired.has(goal.event)
      ? { ...goal, active: true, comment: `from the service; ${goal.event} fired on every viewport` }
      : { ...goal, active: false, comment: `from the service; ${goal.event} did not fire` },
  );
}

function draftPages(
  pages: DraftInputs["pages"],
  artifacts: readonly PageArtifacts[],
  journey: DraftInputs["journey"],
): DraftPage[] {
  return pages.map(({ id, path }) => {
    const failed = artifacts.find((unit) => unit.page === id && unit.loadError !== null);
    const fired = firedOnEveryViewport(artifacts, id);
    return {
      id,
      path: failed
        ? {
            value: path,
            check: true,
            comment: `did not load when init opened it on ${failed.viewport}: ${failed.loadError}`,
          }
        : { value: path },
      expect:
        fired.track.length > 0 || fired.identify
          ? { value: fired, check: true, comment: "fired on desktop and mobile when init loaded the page" }
          : null,
      journey:
        journey?.page === id
          ? {
              value: journey.steps,
              check: true,
              comment:
                "the page's first link to another route, followed without a new document on desktop and mobile: events.pageviews judges the route change",
            }
          : null,
    };
  });
}

function identifyNote(artifacts: readonly PageArtifacts[]): SpecDraft["identify"] {
  const seen = attributesSeen(artifacts);
  const comment =
    seen.identifyingUnits === 0
      ? "no page identified on load: list the attributes identify must send (init walks no journey)"
      : seen.required.length === 0
        ? `no attribute was sent as a simple value by all ${seen.identifyingUnits} identifying page × viewport(s)`
        : `sent as simple values by all ${seen.identifyingUnits} identifying page × viewport(s), personal data left out`;
  return {
    required: { value: seen.required, check: true, comment },
    comments:
      seen.personal.length > 0 ? [`Personal data seen in identify, never required: ${seen.personal.join(", ")}.`] : [],
  };
}

/**
 * The `sdk` section with `pageViews: true` when a page sent page views, on load or on the drafted
 * journey's route change: events.pageviews then judges each route. Without a preset or `page` to
 * tell page views by, the methods that sent them become `page`.
 */
function withPageViews(sdk: SdkDraft, loads: readonly PageArtifacts[], journey: DraftInputs["journey"]): SdkDraft {
  const gathered = [...loads, ...(journey?.artifacts ?? [])];
  const views = gathered.flatMap((unit) => unit.calls.filter((call) => call.kind === "page" && call.state !== "lost"));
  if (views.length === 0) return sdk;
  const sentOnLoad = loads.filter((unit) => unit.calls.some((call) => views.includes(call))).length;
  const onJourney = (journey?.artifacts ?? []).some((unit) => unit.calls.some((call) => views.includes(call)));
  const comment = `page views were sent on ${sentOnLoad} of ${loads.length} page × viewport(s) loaded${onJourney ? " and on the journey's route change" : ""}: one per route is judged (events.pageviews)`;
  const told = sdk.fields.some((field) => ["preset", "page", "pageEvent"].includes(field.name));
  const methods = [...new Set(views.map((view) => view.method))];
  const page = told ? [] : [{ name: "page", value: { value: methods.length === 1 ? methods[0]! : methods } }];
  return {
    ...sdk,
    fields: [...sdk.fields, ...page, { name: "pageViews", value: { value: true, check: true, comment } }],
  };
}

/** The whole draft. */
export function draftSpec(inputs: DraftInputs): SpecDraft {
  const { service } = inputs;
  const host = new URL(inputs.baseUrl).hostname;
  const experiments = inputs.experimentSdk
    ? draftExperimentSdk(inputs.experimentSdk, inputs.pages, inputs.artifacts)
    : null;
  const fromService = (value: string | null, what: string): Noted<string> | null =>
    value === null ? null : { value, comment: `${what}, as the service lists the key's project` };
  const fill =
    service === null
      ? "`setup-audit init URL --api URL --key-env VAR` fills it in"
      : `the service did not say: ${service.problem ?? "its project element names none"}`;
  return {
    schemaPath: inputs.schemaPath,
    header: [
      `Written by \`setup-audit init ${inputs.url}\`: ${inputs.pages.length} page(s), each loaded on desktop and mobile.`,
      `Values marked "check:" are guesses or placeholders: confirm each, then run \`setup-audit run ${inputs.file}\`.`,
      "init sees what pages do on load: add journeys (steps) and their expect for what they do on a click.",
    ],
    workspace: fromService(service?.workspace ?? null, "its workspace") ?? {
      value: "My workspace",
      check: true,
      comment: `placeholder: the workspace's name in the service; ${fill}`,
    },
    project: fromService(service?.project ?? null, "its name") ?? {
      value: host,
      check: true,
      comment: `placeholder: the project's name in the service; ${fill}`,
    },
    environment: {
      name: inputs.environment,
      key: keyNote(inputs.key),
      projectKey: service?.projectKey
        ? {
            value: service.projectKey,
            check: true,
            comment: "the service lists the site's domain under this key, not under the page's",
          }
        : null,
      baseUrl: inputs.baseUrl,
      comments: inputs.key.others.map(otherKeyComment),
      basic: inputs.basic,
      experimentKey: experiments?.key ?? null,
    },
    api: service && {
      baseUrl: service.baseUrl,
      keyEnv: service.keyEnv,
      goalsPath:
        service.goalsPath === null ? null : { value: service.goalsPath, check: true, comment: "answered during init" },
      recentEventsPath:
        service.recentEventsPath === null
          ? null
          : { value: service.recentEventsPath, check: true, comment: "answered during init" },
    },
    sdk: withPageViews(inputs.sdk, inputs.artifacts, inputs.journey),
    experimentSdk: experiments && { preset: experiments.preset, experiments: experiments.experiments },
    consent: inputs.consent ?? null,
    goals: draftGoals(service, inputs.artifacts),
    identify: identifyNote(inputs.artifacts),
    pages: draftPages(inputs.pages, inputs.artifacts, inputs.journey),
  };
}
