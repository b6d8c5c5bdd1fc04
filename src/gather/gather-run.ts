import type { ConsentUnitKind, LoginOutcome } from "../artifacts/types.js";
import type { ConsentSpec } from "../audit-spec/schema.js";
import type { PlannedPicture } from "../schedule/page-input.js";
import type { RequestTags, SiteRequestTagger, TrafficTags } from "./traffic.js";

/**
 * What one page's gathering is given when it runs, beside its input from the plan
 * (schedule/page-input.ts): what only the run knows (its secrets, its id, its folders, its
 * login) and the worker's browser. None of it is a choice of what to gather.
 */
export interface GatherRun {
  /** The values the journey's canary steps type, read from the run's environment. */
  canaries: Canary[];
  /** How audit traffic identifies itself, the run's id in the tags without a value of their own. */
  traffic: TrafficTags;
  /** A closed site's headers (`auth.headers`) and the one origin they go to; null for none. */
  originHeaders: RequestTags["originHeaders"];
  /** This viewport's login (`auth.login`), walked before its pages; null without one. */
  login: LoginOutcome | null;
  /** The tagger of the browser the worker owns; null to tag through a session on the page (a remote browser). */
  browserTagger: SiteRequestTagger | null;
  /** The run's secrets (docs/closed-sites.md): every picture masks the text and the field values that show one. */
  secrets: readonly string[];
  /** Where the planned pictures go, each folder absolute; null where the input plans none. */
  folders: Record<PlannedPicture["folder"], string> | null;
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
