import type { LoginOutcome, PageArtifacts } from "./types.js";

/** A page × viewport of the plan that was never gathered, and why. */
export interface UnopenedPage {
  spec: string;
  environment: string;
  page: string;
  viewport: string;
  /** True when the viewport is a mobile one. */
  mobile: boolean;
  requestedUrl: string;
  /** The variation the unit was to preview; null for the page as it is. */
  variation: { experiment: string; name: string; control?: true } | null;
  /** Why it was not gathered. */
  loadError: string;
  /** The viewport's login, when its failure is why. */
  login: LoginOutcome | null;
}

/** The artifacts of a page × viewport that was never gathered: nothing seen, and why, so that it shows instead of vanishing. */
export function unopenedPage(unit: UnopenedPage): PageArtifacts {
  return {
    spec: unit.spec,
    environment: unit.environment,
    page: unit.page,
    viewport: unit.viewport,
    mobile: unit.mobile,
    browser: null,
    requestedUrl: unit.requestedUrl,
    finalUrl: null,
    navigations: [],
    loadError: unit.loadError,
    documentStatus: null,
    stepError: null,
    access: { login: unit.login, landedUrl: null, passwordField: false, authRefused: false },
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
    variation: unit.variation === null ? null : { experiment: unit.variation.experiment, name: unit.variation.name, ...(unit.variation.control ? { control: true as const } : {}), errors: [] },
    experimentViews: [],
    durationMs: 0,
  };
}
