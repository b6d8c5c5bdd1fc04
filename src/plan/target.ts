import { environmentOf } from "../spec/environment.js";
import { environmentDomain } from "../url/domain.js";
import type { AuditTarget, AuditUnit, PlannedCanary } from "./plan.js";
import { pageTitle } from "./titles.js";

/**
 * The facts of a target that every stage after the plan reads, computed once when the plan is
 * made: the environment's domain, and the units to audit with their titles, files and canaries.
 */
export function planTarget(target: Omit<AuditTarget, "domain" | "units">): AuditTarget {
  return { ...target, domain: environmentDomain(environmentOf(target.spec, target.environment)), units: unitsOf(target) };
}

/** Every audited page as it is, then the variations of the experiments on them, in spec order. */
function unitsOf(target: Omit<AuditTarget, "domain" | "units">): AuditUnit[] {
  const pages = target.pages.map((page): AuditUnit => ({ ...unitFiles(target, page, null), title: pageTitle(target.slug, page), page, variation: null, canaries: canariesOf(target, page) }));
  const previews = target.spec.experiments.flatMap((experiment, e) => {
    if (!target.pages.includes(experiment.page)) return [];
    const preview = (name: string, id: string, control: boolean): AuditUnit => ({
      ...unitFiles(target, experiment.page, id),
      title: pageTitle(target.slug, `${experiment.page} · ${experiment.name} · ${name}`),
      page: experiment.page,
      variation: { experiment: experiment.name, name, id, ...(control ? { control: true as const } : {}) },
      canaries: [],
    });
    // A control forced by query is previewed first, as a unit of its own, when there are variations to compare with it.
    const control = experiment.control !== undefined && experiment.variations.length > 0 ? [preview("control", `e${e}c`, true)] : [];
    return [...control, ...experiment.variations.map((variation, v) => preview(variation.name, `e${e}v${v}`, false))];
  });
  return [...pages, ...previews, ...consentUnitsOf(target)];
}

/** With `consent`: each page refused (`consent.reject`) and with Global Privacy Control on (`consent.gpc`), in spec order. */
function consentUnitsOf(target: Omit<AuditTarget, "domain" | "units">): AuditUnit[] {
  const consent = target.spec.consent;
  if (consent === undefined) return [];
  const kinds = [...(consent.reject !== undefined ? (["reject"] as const) : []), ...(consent.gpc ? (["gpc"] as const) : [])];
  return kinds.flatMap((kind) =>
    target.pages.map((page): AuditUnit => ({
      ...unitFiles(target, page, kind),
      title: pageTitle(target.slug, `${page} · ${kind === "reject" ? "consent refused" : "Global Privacy Control"}`),
      page,
      variation: null,
      canaries: [],
      consent: kind,
    })),
  );
}

/** A unit's id and its artifacts' file on each viewport: a variation's (named by its place in the spec) beside its page's. */
function unitFiles(target: Omit<AuditTarget, "domain" | "units">, page: string, variationId: string | null): Pick<AuditUnit, "id" | "artifactFiles"> {
  const suffix = variationId === null ? "" : `.${variationId}`;
  const file = (viewport: string) => `${target.slug}.${target.environment}.${page}.${viewport}${suffix}.json`.replace(/[^\w.@-]+/g, "_");
  return { id: `${page}${suffix}`, artifactFiles: Object.fromEntries(target.viewports.map((viewport) => [viewport, file(viewport)])) };
}

/** The page's journey steps that type a canary value. */
function canariesOf(target: Omit<AuditTarget, "domain" | "units">, pageId: string): PlannedCanary[] {
  const steps = target.spec.pages.find((page) => page.id === pageId)?.steps ?? [];
  return steps.flatMap((step, index) => ("fill" in step && step.fill.canary === true ? [{ step: index, fill: step.fill }] : []));
}
