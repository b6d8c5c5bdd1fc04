import type { AuditSpec, ConsentSpec } from "../audit-spec/schema.js";
import type { ConsentArtifacts, ConsentUnitKind, LoginOutcome, PageArtifacts } from "./types.js";

/** The planned spec × environment an unopened unit belongs to (the plan's target has these). */
export interface UnopenedTarget {
  specFile: string;
  environment: string;
  baseUrl: string;
  spec: { pages: readonly Pick<AuditSpec["pages"][number], "id" | "path">[]; consent?: ConsentSpec | undefined };
}

/** The planned unit that was never opened (the plan's unit has these). */
export interface UnopenedUnit {
  id: string;
  kind: PageArtifacts["unit"]["kind"];
  page: string;
  /** The variation the unit was to preview; null for the page as it is. */
  variation: { experiment: string; name: string; control?: true } | null;
  /** A consent refusal's or GPC's unit; absent for every other. */
  consent?: "reject" | "gpc";
}

/**
 * The artifacts of a page × viewport of the plan that was never gathered: nothing seen, and why,
 * so that it shows instead of vanishing. With the spec's `consent`, it keeps its consent unit's
 * kind: the consent checks skip it saying why, and a refusal's unit is judged by no page check.
 */
export function unopenedPage(
  target: UnopenedTarget,
  unit: UnopenedUnit,
  on: { viewport: string; mobile: boolean },
  why: { loadError: string; login: LoginOutcome | null },
): PageArtifacts {
  const path = target.spec.pages.find((page) => page.id === unit.page)!.path;
  return {
    spec: target.specFile,
    environment: target.environment,
    unit: { id: unit.id, kind: unit.kind },
    page: unit.page,
    viewport: on.viewport,
    mobile: on.mobile,
    browser: null,
    requestedUrl: new URL(path, target.baseUrl).href,
    finalUrl: null,
    navigations: [],
    loadError: why.loadError,
    documentStatus: null,
    stepError: null,
    access: { login: why.login, landedUrl: null, passwordField: false, authRefused: false },
    sdkScripts: [],
    sdkReadyAtMs: null,
    callsFromNetwork: null,
    sdkTagKey: null,
    keySightings: [],
    selectors: [],
    canarySightings: [],
    calls: [],
    collect: [],
    errors: [],
    screenshot: null,
    variation:
      unit.variation === null
        ? null
        : {
            experiment: unit.variation.experiment,
            name: unit.variation.name,
            ...(unit.variation.control ? { control: true as const } : {}),
            errors: [],
          },
    experimentViews: [],
    durationMs: 0,
    ...(target.spec.consent ? { consent: unopenedConsent(unit.consent ?? "page", target.spec.consent) } : {}),
  };
}

/** The consent artifacts of a unit that was never opened: nothing seen, answered the way the spec says. */
function unopenedConsent(unit: ConsentUnitKind, spec: ConsentSpec): ConsentArtifacts {
  const answer = unit === "gpc" ? undefined : unit === "reject" ? spec.reject : spec.accept;
  return {
    unit,
    method: answer === undefined ? "none" : answer === "auto" ? "auto" : "steps",
    timeoutMs: spec.timeoutMs,
    bannerAtMs: null,
    cmp: null,
    answeredAtMs: null,
    answerError: null,
    webdriver: null,
    storedAtAnswer: [],
    storedAtEnd: [],
    writes: [],
    requestsBefore: [],
    requestsLeftOut: 0,
  };
}
