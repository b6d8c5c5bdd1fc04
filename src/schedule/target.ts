import { environmentOf } from "../audit-spec/environment.js";
import { environmentDomain } from "../url/domain.js";
import type { ConsentUnitKind } from "../artifacts/types.js";
import type { ExperimentSpec, VariationSpec } from "../audit-spec/schema.js";
import { isMobileViewport } from "../browser/viewports.js";
import { consentSteps, secretFields } from "../privacy/secrets.js";
import {
  awaitsSdk,
  expectedCalls,
  type PageInput,
  type PlannedCanary,
  type PlannedPreview,
  STEP_TIMEOUT_MS,
} from "./page-input.js";
import type { AuditTarget, AuditUnit } from "./plan.js";
import { pageTitle } from "./titles.js";

/**
 * The facts of a target that every stage after the plan reads, computed once when the plan is
 * made: the environment's domain, and the units to audit with their titles, files and canaries.
 */
export function planTarget(chosen: Omit<AuditTarget, "domain" | "units">): AuditTarget {
  const target = { ...chosen, domain: environmentDomain(environmentOf(chosen.spec, chosen.environment)) };
  return { ...target, units: unitsOf(target) };
}

/** Every audited page as it is, then the variations of the experiments on them, in spec order. */
function unitsOf(target: Planned): AuditUnit[] {
  const pages = target.pages.map((page): AuditUnit => {
    const files = unitFiles(target, page, null);
    const canaries = canariesOf(target, page);
    return {
      ...files,
      title: pageTitle(target.slug, page),
      kind: "page",
      page,
      variation: null,
      canaries,
      inputs: inputsOf(target, { id: files.id, kind: "page" }, page, { ...pageAsItIs(target, page), canaries }),
    };
  });
  const previews = target.spec.experiments.flatMap((experiment, e) => {
    if (!target.pages.includes(experiment.page)) return [];
    const preview = (variation: VariationSpec, id: string, control: boolean): AuditUnit => {
      const files = unitFiles(target, experiment.page, id);
      const unit = { id: files.id, kind: "variation" as const };
      return {
        ...files,
        title: pageTitle(target.slug, `${experiment.page} · ${experiment.name} · ${variation.name}`),
        kind: "variation",
        page: experiment.page,
        variation: {
          experiment: experiment.name,
          name: variation.name,
          id,
          ...(control ? { control: true as const } : {}),
        },
        canaries: [],
        inputs: inputsOf(target, unit, experiment.page, previewOf(experiment, variation, id, control)),
      };
    };
    // A control forced by query is previewed first, as a unit of its own, when there are variations to compare with it.
    const control =
      experiment.control !== undefined && experiment.variations.length > 0
        ? [preview({ name: "control", query: experiment.control.query }, `e${e}c`, true)]
        : [];
    return [...control, ...experiment.variations.map((variation, v) => preview(variation, `e${e}v${v}`, false))];
  });
  return [...pages, ...previews, ...consentUnitsOf(target)];
}

/** With `consent`: each page refused (`consent.reject`) and with Global Privacy Control on (`consent.gpc`), in spec order. */
function consentUnitsOf(target: Planned): AuditUnit[] {
  const consent = target.spec.consent;
  if (consent === undefined) return [];
  const kinds = [
    ...(consent.reject !== undefined ? (["reject"] as const) : []),
    ...(consent.gpc ? (["gpc"] as const) : []),
  ];
  return kinds.flatMap((kind) =>
    target.pages.map((page): AuditUnit => {
      const files = unitFiles(target, page, kind);
      return {
        ...files,
        title: pageTitle(target.slug, `${page} · ${kind === "reject" ? "consent refused" : "Global Privacy Control"}`),
        kind,
        page,
        variation: null,
        canaries: [],
        consent: kind,
        // A refusal's or GPC's unit is judged by consent.reject alone: no experiment, selector count or picture of its own.
        inputs: inputsOf(target, { id: files.id, kind }, page, {
          ...NOTHING_OF_ITS_OWN,
          kept: { screenshot: false, views: false, filmstrip: false },
          consentUnit: kind,
        }),
      };
    }),
  );
}

/** A unit's id and its artifacts' file on each viewport: a variation's (named by its place in the spec) beside its page's. */
function unitFiles(target: Planned, page: string, variationId: string | null): Pick<AuditUnit, "id" | "artifactFiles"> {
  const suffix = variationId === null ? "" : `.${variationId}`;
  const file = (viewport: string) =>
    `${target.slug}.${target.environment}.${page}.${viewport}${suffix}.json`.replace(/[^\w.@-]+/g, "_");
  return {
    id: `${page}${suffix}`,
    artifactFiles: Object.fromEntries(target.viewports.map((viewport) => [viewport, file(viewport)])),
  };
}

/** The page's journey steps that type a canary value. */
function canariesOf(target: Planned, pageId: string): PlannedCanary[] {
  const steps = target.spec.pages.find((page) => page.id === pageId)?.steps ?? [];
  return steps.flatMap((step, index) =>
    "fill" in step && step.fill.canary === true ? [{ step: index, fill: step.fill }] : [],
  );
}

/** A target before its units. */
type Planned = Omit<AuditTarget, "units">;

/** What a unit's kind decides of its input: what it watches, applies and keeps, and the consent unit it is. */
interface KindInput {
  /** The experiments (by name) whose selectors are counted. */
  selectorsOf: string[];
  /** The experiments (by name) whose targets are seen before the journey. */
  viewed: string[];
  variation: PlannedPreview | null;
  flicker: { selector: string } | null;
  reloadForExposures: string[];
  reloadForFlags: string[];
  canaries: PlannedCanary[];
  /** Which pictures it keeps, and a preview's place in the spec that names them. */
  kept: { screenshot: boolean; views: boolean; filmstrip: boolean; variationId?: string };
  consentUnit: ConsentUnitKind;
}

/** A unit that watches, applies and fires nothing of the page's experiments. */
const NOTHING_OF_ITS_OWN = {
  selectorsOf: [],
  viewed: [],
  variation: null,
  flicker: null,
  reloadForExposures: [],
  reloadForFlags: [],
  canaries: [],
} as const satisfies Partial<KindInput>;

/** The page as it is: its experiments' selectors counted, those with variations viewed, each exposure fired again on a reload, and its screenshot. */
function pageAsItIs(target: Planned, page: string): Omit<KindInput, "canaries"> {
  const experiments = target.spec.experiments.filter((experiment) => experiment.page === page);
  const viewed = experiments
    .filter((experiment) => experiment.variations.length > 0)
    .map((experiment) => experiment.name);
  return {
    selectorsOf: experiments.map((experiment) => experiment.name),
    viewed,
    variation: null,
    flicker: null,
    // The page as it is is loaded once more for the exposure: the same visitor must see the same variation.
    reloadForExposures: experiments.flatMap((experiment) => (experiment.exposure ? [experiment.exposure.event] : [])),
    // So is each flag whose exposures the experimentation SDK logs to its own endpoint again on each load.
    reloadForFlags: !target.spec.experimentSdk?.exposedOnEachLoad
      ? []
      : experiments.flatMap((experiment) =>
          experiment.flag !== undefined && experiment.exposure === undefined ? [experiment.flag] : [],
        ),
    kept: { screenshot: true, views: viewed.length > 0, filmstrip: false },
    consentUnit: "page",
  };
}

/** A variation's preview (a variation unit is judged by the experiment checks alone): its own experiment viewed, its code applied, and flicker sampled when the site applies it. */
function previewOf(experiment: ExperimentSpec, variation: VariationSpec, id: string, control: boolean): KindInput {
  // The audit's own js and css are not the site's timing: only a variation the site applies itself is sampled for flicker.
  const sampled = !control && appliedByAudit(variation) === null;
  return {
    ...NOTHING_OF_ITS_OWN,
    viewed: [experiment.name],
    variation: {
      experiment: experiment.name,
      name: variation.name,
      query: variation.query ?? {},
      css: variation.css?.code ?? null,
      js: variation.js?.code ?? null,
      ...(control ? { control: true as const } : {}),
    },
    flicker: sampled ? { selector: experiment.selector } : null,
    kept: { screenshot: false, views: true, filmstrip: sampled, variationId: id },
    consentUnit: "page",
  };
}

/** The unit's whole input on each of the target's viewports. */
function inputsOf(
  target: Planned,
  unit: PageInput["unit"],
  pageId: string,
  kind: KindInput,
): Record<string, PageInput> {
  const { spec } = target;
  const page = spec.pages.find((candidate) => candidate.id === pageId)!;
  const experimentsNamed = (names: readonly string[]) =>
    spec.experiments
      .filter((experiment) => experiment.page === pageId && names.includes(experiment.name))
      .map(({ name, selector }) => ({ name, selector }));
  const viewedExperiments = experimentsNamed(kind.viewed);
  const shared = {
    spec: target.specFile,
    environment: target.environment,
    unit,
    page,
    baseUrl: target.baseUrl,
    siteDomain: target.domain,
    sdk: spec.sdk,
    experimentSdk: spec.experimentSdk ?? null,
    projectKeys: Object.values(spec.environments).map((environment) => environment.key),
    // A preview is no visit: its collect requests are answered inside the browser, so that it
    // never adds events to the service's data, nor vouches there for the page's own calls.
    traffic: kind.variation === null ? spec.traffic : { ...spec.traffic, collect: "intercept" as const },
    experiments: experimentsNamed(kind.selectorsOf),
    viewedExperiments,
    canaries: kind.canaries,
    // The consent steps run before the views are seen; the page's journey before the screenshot.
    maskedFields: secretFields([...consentSteps(spec).flatMap(({ steps }) => steps), ...page.steps]),
    variation: kind.variation,
    flicker: kind.flicker,
    consent: spec.consent ? { spec: spec.consent, unit: kind.consentUnit, storage: spec.sdk.storage } : null,
    reloadForExposures: kind.reloadForExposures,
    reloadForFlags: kind.reloadForFlags,
    awaitsSdk: awaitsSdk(page, viewedExperiments),
    expected: expectedCalls(page, kind.reloadForExposures),
    stepTimeoutMs: STEP_TIMEOUT_MS,
  };
  return Object.fromEntries(
    target.viewports.map((viewport) => [
      viewport,
      {
        ...shared,
        viewport,
        mobile: isMobileViewport(viewport),
        pictures: picturesOf(target, pageId, viewport, kind.kept),
      },
    ]),
  );
}

/**
 * The unit's pictures on a viewport, named relative to the output (none with `screenshots: off`):
 * the page's screenshot, kept in the work folder until a check fails with `on-failure`, and what
 * the side-by-side pictures, composed after the run (and after a merge), need of the views: the
 * first screen, and a sampled variation's filmstrip frames, kept in the output.
 */
function picturesOf(target: Planned, page: string, viewport: string, kept: KindInput["kept"]): PageInput["pictures"] {
  const folder = `screenshots/${target.slug}/${target.environment}`;
  const on = target.spec.screenshots !== "off";
  const view = `${folder}/views/${page}.${viewport}${kept.variationId === undefined ? "" : `.${kept.variationId}`}`;
  const output = (name: string) => ({ name, folder: "output" as const });
  return {
    screenshot:
      on && kept.screenshot
        ? { name: `${folder}/${page}.${viewport}.png`, folder: target.spec.screenshots === "on" ? "output" : "work" }
        : null,
    view: on && kept.views ? output(`${view}.png`) : null,
    filmstrip: on && kept.views && kept.filmstrip ? output(`${view}.film`) : null,
  };
}

/** What the audit applies of a variation itself, `js` before `css`: no site's SDK chose it, nor timed it. Null for a variation the site applies (forced by `query` alone). */
export function appliedByAudit(variation: VariationSpec): "js" | "css" | null {
  return variation.js !== undefined ? "js" : variation.css !== undefined ? "css" : null;
}
