import { environmentOf } from "../audit-spec/environment.js";
import { environmentDomain } from "../url/domain.js";
import type { ExperimentSpec, VariationSpec } from "../audit-spec/schema.js";
import type { AuditTarget, AuditUnit, PlannedCanary, UnitGathering } from "./plan.js";
import { pageTitle } from "./titles.js";

/**
 * The facts of a target that every stage after the plan reads, computed once when the plan is
 * made: the environment's domain, and the units to audit with their titles, files and canaries.
 */
export function planTarget(target: Planned): AuditTarget {
  return {
    ...target,
    domain: environmentDomain(environmentOf(target.spec, target.environment)),
    units: unitsOf(target),
  };
}

/** Every audited page as it is, then the variations of the experiments on them, in spec order. */
function unitsOf(target: Planned): AuditUnit[] {
  const pages = target.pages.map(
    (page): AuditUnit => ({
      ...unitFiles(target, page, null),
      title: pageTitle(target.slug, page),
      kind: "page",
      page,
      variation: null,
      canaries: canariesOf(target, page),
      gathering: pageGathering(target, page),
    }),
  );
  const previews = target.spec.experiments.flatMap((experiment, e) => {
    if (!target.pages.includes(experiment.page)) return [];
    const preview = (variation: VariationSpec, id: string, control: boolean): AuditUnit => ({
      ...unitFiles(target, experiment.page, id),
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
      gathering: previewGathering(target, experiment, variation, id, control),
    });
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
    target.pages.map(
      (page): AuditUnit => ({
        ...unitFiles(target, page, kind),
        title: pageTitle(target.slug, `${page} · ${kind === "reject" ? "consent refused" : "Global Privacy Control"}`),
        kind,
        page,
        variation: null,
        canaries: [],
        consent: kind,
        // A refusal's or GPC's unit is judged by consent.reject alone: no experiment, selector count or picture of its own.
        gathering: {
          selectorsOf: [],
          viewed: [],
          preview: null,
          flicker: null,
          reloadForExposures: [],
          pictures: picturesOf(target, page, null, { screenshot: false, views: false, filmstrip: false }),
        },
      }),
    ),
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

/** A target as the command line chose it, before the plan's facts. */
type Planned = Omit<AuditTarget, "domain" | "units">;

/** The page as it is: its experiments' selectors counted, those with variations viewed, each exposure fired again on a reload, and its screenshot. */
function pageGathering(target: Planned, page: string): UnitGathering {
  const experiments = target.spec.experiments.filter((experiment) => experiment.page === page);
  const viewed = experiments
    .filter((experiment) => experiment.variations.length > 0)
    .map((experiment) => experiment.name);
  return {
    selectorsOf: experiments.map((experiment) => experiment.name),
    viewed,
    preview: null,
    flicker: null,
    // The page as it is is loaded once more for the exposure: the same visitor must see the same variation.
    reloadForExposures: experiments.flatMap((experiment) => (experiment.exposure ? [experiment.exposure.event] : [])),
    pictures: picturesOf(target, page, null, { screenshot: true, views: viewed.length > 0, filmstrip: false }),
  };
}

/** A variation's preview (a variation unit is judged by the experiment checks alone): its own experiment viewed, its code applied, and flicker sampled when the site applies it. */
function previewGathering(
  target: Planned,
  experiment: ExperimentSpec,
  variation: VariationSpec,
  id: string,
  control: boolean,
): UnitGathering {
  // The audit's own js and css are not the site's timing: only a variation the site applies itself is sampled for flicker.
  const sampled = !control && appliedByAudit(variation) === null;
  return {
    selectorsOf: [],
    viewed: [experiment.name],
    preview: {
      experiment: experiment.name,
      name: variation.name,
      query: variation.query ?? {},
      css: variation.css?.code ?? null,
      js: variation.js?.code ?? null,
      ...(control ? { control: true as const } : {}),
    },
    flicker: sampled ? { selector: experiment.selector } : null,
    reloadForExposures: [],
    pictures: picturesOf(target, experiment.page, id, { screenshot: false, views: true, filmstrip: sampled }),
  };
}

/**
 * The unit's pictures on each viewport, named relative to the output (none with `screenshots: off`):
 * the page's screenshot, and what the side-by-side pictures, composed after the run (and after a
 * merge), need of the views: the first screen, and a sampled variation's filmstrip frames.
 */
function picturesOf(
  target: Planned,
  page: string,
  variationId: string | null,
  kept: { screenshot: boolean; views: boolean; filmstrip: boolean },
): UnitGathering["pictures"] {
  const folder = `screenshots/${target.slug}/${target.environment}`;
  const on = target.spec.screenshots !== "off";
  const view = (viewport: string) =>
    `${folder}/views/${page}.${viewport}${variationId === null ? "" : `.${variationId}`}`;
  return Object.fromEntries(
    target.viewports.map((viewport) => [
      viewport,
      {
        screenshot: on && kept.screenshot ? `${folder}/${page}.${viewport}.png` : null,
        view: on && kept.views ? `${view(viewport)}.png` : null,
        filmstrip: on && kept.views && kept.filmstrip ? `${view(viewport)}.film` : null,
      },
    ]),
  );
}

/** What the audit applies of a variation itself, `js` before `css`: no site's SDK chose it, nor timed it. Null for a variation the site applies (forced by `query` alone). */
export function appliedByAudit(variation: VariationSpec): "js" | "css" | null {
  return variation.js !== undefined ? "js" : variation.css !== undefined ? "css" : null;
}
