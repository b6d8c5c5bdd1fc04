import type { ConsentUnitKind, LoginOutcome, PageArtifacts } from "../artifacts/types.js";
import type { ConsentSpec, PageSpec, SdkSpec } from "../audit-spec/schema.js";
import type { RequestTags, SiteRequestTagger, TrafficTags } from "./traffic.js";

/**
 * What one page's gathering is given, and the small shapes it is made of: the parts read it
 * through their Gathering (part.ts), and none of it names a part.
 */

/** An experiment that changes this page. */
export interface ExperimentTarget {
  name: string;
  selector: string;
}

/** A journey value marked as canary, and the step that typed it. */
export interface Canary {
  step: number;
  value: string;
}

/** What a consent unit needs from the spec. */
export interface ConsentOptions {
  spec: ConsentSpec;
  unit: ConsentUnitKind;
  /** `sdk.storage`: the names whose writes are kept. */
  storage: readonly string[];
  /** `sdk.settleMs`: the quiet window before the banner is answered. */
  settleMs: number;
  /** How long one step of the spec's answer may take. */
  stepTimeoutMs: number;
  /** Told of each field a step of the spec's answer typed into: the pictures mask it from then on. */
  typed?: (selector: string) => void;
}

/** A variation's code, as the spec loader read it. */
export interface VariationCode {
  css: string | null;
  js: string | null;
}

/** What to gather for one page on one viewport. */
export interface PageGatherOptions {
  spec: string;
  environment: string;
  /** The unit of the plan gathered, carried into its artifacts. */
  unit: PageArtifacts["unit"];
  baseUrl: string;
  page: PageSpec;
  sdk: SdkSpec;
  viewport: string;
  mobile: boolean;
  /** Every environment's project key, to be searched for. */
  projectKeys: string[];
  /** The experiments that change this page. */
  experiments: ExperimentTarget[];
  canaries: Canary[];
  /** The environment's domain: its URLs (subdomains included) are the site's own, and the traffic header goes to them. */
  siteDomain: string;
  /** How audit traffic identifies itself and whether collect requests reach the service; the user agent is the context's. */
  traffic: TrafficTags;
  /** A closed site's headers (`auth.headers`) and the one origin they go to; absent or null for none. */
  originHeaders?: RequestTags["originHeaders"];
  /** This viewport's login (`auth.login`), walked before its pages; absent or null without one. */
  login?: LoginOutcome | null;
  /** The tagger of the browser the worker owns; null to tag through a session on the page (a remote browser). */
  browserTagger: SiteRequestTagger | null;
  /** How long one journey step may take (default 15 s). */
  stepTimeoutMs?: number;
  /** Where to save the screenshot (absolute) and how to name it in the artifacts; null for none. */
  screenshot: { path: string; name: string } | null;
  /** The selectors of the fields a step types a secret (`valueEnv`) or a canary into: every picture masks them. Absent for none. */
  maskedFields?: readonly string[];
  /** The run's secrets (docs/closed-sites.md): every picture masks the text and the field values that show one. Absent for none. */
  secrets?: readonly string[];
  /** The experiments whose target is seen before the journey: on the page as it is, those with variations; on a variation, its own. */
  viewedExperiments?: ExperimentTarget[];
  /** Where to save the first screen as the views see it, as `screenshot`; null or absent for none. */
  viewScreenshot?: { path: string; name: string } | null;
  /** On a variation the site applies itself (forced by `query` alone): its target, sampled frame by frame from the first (experiment.flicker), and where to save the filmstrip's frames (absolute path and name relative to the output, by index; null for none). */
  flicker?: { selector: string; filmstrip: ((index: number) => { path: string; name: string }) | null };
  /** The exposures' event names (`experiments[].exposure.event`) of the page's experiments: once done, the page is loaded once more in its context, without a journey, and waited for as long as it takes to fire them again. Absent or empty for no reload. */
  reloadForExposures?: readonly string[];
  /** The variation to preview: its preview link's parameters are added to the URL, its code applied once the SDK is ready. Absent for the page as it is. */
  variation?: {
    experiment: string;
    name: string;
    query: Readonly<Record<string, string>>;
    control?: true;
  } & VariationCode;
  /** With the spec's `consent` section: the unit's banner is waited for and answered before the SDK and the journey (docs/consent.md). Absent without one. */
  consent?: Omit<ConsentOptions, "stepTimeoutMs" | "settleMs">;
}
