import type { ConsentUnitKind, UnitKind } from "../artifacts/types.js";
import type { ConsentSpec, ExperimentSdkSpec, FillSpec, PageSpec, SdkSpec, TrafficSpec } from "../audit-spec/schema.js";

/**
 * What one unit of the plan is given on one viewport, whole: every choice of what to watch, apply,
 * wait for and keep is made here, by the plan. The gatherer adds only what a run resolves when it
 * runs (the secrets, the run's id and folders, the worker's browser) and decides nothing again.
 */
export interface PageInput {
  /** The spec file as the user named it. */
  spec: string;
  environment: string;
  /** The unit gathered, carried into its artifacts. */
  unit: { id: string; kind: UnitKind };
  page: PageSpec;
  /** Where the page is opened: the environment's base URL, or `--base-url`. */
  baseUrl: string;
  /** The environment's domain: its URLs (subdomains included) are the site's own, and the traffic header goes to them. */
  siteDomain: string;
  viewport: string;
  mobile: boolean;
  sdk: SdkSpec;
  /** The SDK that assigns the visitor a variation, whose initialisation and evaluations are recorded; null without `experimentSdk`. */
  experimentSdk: ExperimentSdkSpec | null;
  /** Every environment's project key, to be searched for. */
  projectKeys: string[];
  /** How audit traffic identifies itself (the run's id fills a tag without a value), and whether collect requests reach the service. */
  traffic: TrafficSpec;
  /** The experiments whose selectors are counted on the page (experiment.selector). */
  experiments: ExperimentTarget[];
  /** The experiments whose target is seen before the journey. */
  viewedExperiments: ExperimentTarget[];
  /** The journey's fill steps marked `canary`, whose values are searched in all traffic. */
  canaries: PlannedCanary[];
  /** The selectors of the fields a step types a secret (`valueEnv`) or a canary into: every picture masks them. */
  maskedFields: string[];
  /** The pictures kept: the screenshot, the first screen as the views see it, and the filmstrip's frames (named before their index and `.png`). */
  pictures: { screenshot: PlannedPicture | null; view: PlannedPicture | null; filmstrip: PlannedPicture | null };
  /** The variation previewed: its preview link's parameters added to the URL, its code applied once the SDK is ready; null for the page as it is. */
  variation: PlannedPreview | null;
  /** On a variation the site applies itself: its target, sampled frame by frame from the first (experiment.flicker); null elsewhere. */
  flicker: { selector: string } | null;
  /** With the spec's `consent`: the unit's banner, waited for and answered before the SDK and the journey; null without one. */
  consent: { spec: ConsentSpec; unit: ConsentUnitKind; storage: string[] } | null;
  /** The exposures' events to fire again: once done, the page is loaded once more and waited for until they come; empty for no reload. */
  reloadForExposures: string[];
  /** The flags whose exposures the experimentation SDK logs itself to see again: once done, the page is loaded once more and waited for until the SDK logs them; empty for none. */
  reloadForFlags: string[];
  /** Whether the SDK is waited for, ready, before the journey and the views. */
  awaitsSdk: boolean;
  /** The calls the page owes before it is done. */
  expected: ExpectedCalls;
  /** How long one journey step (or the banner's answer) may take. */
  stepTimeoutMs: number;
}

/** An experiment that changes the page. */
export interface ExperimentTarget {
  name: string;
  selector: string;
}

/** A picture the page keeps, named relative to the output folder: saved there, or in the work folder until a check fails (`screenshots: on-failure`). */
export interface PlannedPicture {
  name: string;
  folder: "output" | "work";
}

/** A variation as a preview shows it. */
export interface PlannedPreview {
  experiment: string;
  name: string;
  /** The preview link's parameters (a forced control's `control.query`). */
  query: Record<string, string>;
  /** The variation's code the audit applies itself; null for none. */
  css: string | null;
  js: string | null;
  /** The experiment's control forced by its `control.query`. */
  control?: true;
}

/** A journey step that types a canary value. */
export interface PlannedCanary {
  /** Its index in the page's steps. */
  step: number;
  /** What it types and where: the value as written or the variable that holds it, never the secret. */
  fill: FillSpec;
}

/** The events a page must track and whether it must identify before it is done. */
export interface ExpectedCalls {
  track: string[];
  identify: boolean;
}

/** How long one journey step may take. */
export const STEP_TIMEOUT_MS = 15_000;

/**
 * The SDK is waited for only where something acts on it: a journey that calls it, or a target
 * seen once the variation had its chance; a page that is only read is read as it comes.
 */
export function awaitsSdk(page: Pick<PageSpec, "steps">, viewed: readonly ExperimentTarget[]): boolean {
  return page.steps.length > 0 || viewed.length > 0;
}

/** The page's `expect`, and each exposure to fire again: a batch that holds one must leave before the reload. */
export function expectedCalls(page: Pick<PageSpec, "expect">, reloadForExposures: readonly string[]): ExpectedCalls {
  return {
    track: [...(page.expect?.track ?? []), ...reloadForExposures],
    identify: page.expect?.identify ?? false,
  };
}

/** What a page's input holds that no unit's kind decides: where it is, on which viewport, its SDK and its traffic. */
export type PageBasics = Pick<
  PageInput,
  | "spec"
  | "environment"
  | "unit"
  | "page"
  | "baseUrl"
  | "siteDomain"
  | "viewport"
  | "mobile"
  | "sdk"
  | "projectKeys"
  | "traffic"
>;

/** The input of a page gathered as it is, with no experiment, canary, picture, consent or reload of its own: what `init` gathers. */
export function plainPageInput(basics: PageBasics): PageInput {
  return {
    ...basics,
    experimentSdk: null,
    experiments: [],
    viewedExperiments: [],
    canaries: [],
    maskedFields: [],
    pictures: { screenshot: null, view: null, filmstrip: null },
    variation: null,
    flicker: null,
    consent: null,
    reloadForExposures: [],
    reloadForFlags: [],
    awaitsSdk: awaitsSdk(basics.page, []),
    expected: expectedCalls(basics.page, []),
    stepTimeoutMs: STEP_TIMEOUT_MS,
  };
}
