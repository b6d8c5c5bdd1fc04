import type { ApiArtifacts, PageArtifacts, ReportFile } from "../artifacts/types.js";
import type { CallBaseline } from "../artifacts/baseline.js";
import type { AuditContext } from "./check.js";

/**
 * What a check reads, which it declares (`requires`): the inputs a run may lack, and the keys of
 * the pages' artifacts. The runner judges it only when they are there; when one is missing, the
 * runner says which instead of the check.
 */

/** What names a page's artifacts, which every check may read without declaring it. */
type PageIdentity = "spec" | "environment" | "unit" | "page" | "viewport" | "mobile";

/** A key of a page's artifacts that a check reads. */
export type ArtifactKey = Exclude<keyof PageArtifacts, PageIdentity>;

/** The keys that are optional in PageArtifacts: those whose absence a check reads "artifacts saved before it was kept". */
type OptionalArtifactKey = {
  [Key in ArtifactKey]-?: object extends Pick<PageArtifacts, Key> ? Key : never;
}[ArtifactKey];

/**
 * The artifact keys that artifacts saved by an earlier setup-audit may lack, each the artifacts'
 * own optional key: a check that reads one judges without it itself (and says so), so the runner
 * never skips it for that. Every other key a check requires is in every page's artifacts this
 * version writes; absent, the check is not judged. The compiler keeps this list whole.
 */
const MAY_BE_ABSENT: Record<OptionalArtifactKey, true> = {
  visitor: true,
  picturesLeftOut: true,
  flicker: true,
  reload: true,
  consent: true,
  routes: true,
  experimentSdk: true,
};

/** What a check reads: an input a run may lack, or a key of every page's artifacts. */
export type Requirement = CheckInput | ArtifactKey;

/** What a check may read besides the spec, the plan and the pages: inputs that a run may lack. */
export interface CheckInputs {
  /** What the service API said (the spec's `api` section). */
  api: ApiArtifacts;
  /** The exported report file the spec's `report.file` names, as read. */
  reportFile: ReportFile;
  /** What fired in a known-good run of this spec and environment (`run --baseline`). */
  baseline: CallBaseline;
}

/** An input a check may require. */
export type CheckInput = keyof CheckInputs;

interface InputRule<Input extends CheckInput> {
  /** The input in a context; null when the run lacks it. */
  of(context: AuditContext): CheckInputs[Input] | null;
  /** Why a check that requires it is not judged, as its one `skip` finding for the spec × environment; null for no finding at all. */
  missing: string | null;
}

const INPUTS: { [Input in CheckInput]: InputRule<Input> } = {
  api: {
    of: (context) => (context.spec.api ? context.api : null),
    missing:
      "The spec has no api section, so the service API is not cross-checked. Add one (baseUrl, keyEnv) to check the workspace, project and goals.",
  },
  reportFile: { of: (context) => context.reportFile ?? null, missing: "Not judged: the report file was not read." },
  // A run is compared with a baseline only when it asks to be (`--baseline`): otherwise nothing is said.
  baseline: { of: (context) => context.baseline ?? null, missing: null },
};

/**
 * The first of `requirements` the context lacks, and what the runner says for it; null when it has
 * them all. An artifact key is lacking when a page the check may judge (as it is, a variation's
 * preview, a refusal) has no such key, and it is no key that artifacts of an earlier version may lack.
 */
export function missingRequirement(
  context: AuditContext,
  requirements: readonly Requirement[],
): { reason: string | null } | null {
  const input = requirements.filter(isInput).find((candidate) => INPUTS[candidate].of(context) === null);
  if (input !== undefined) return { reason: INPUTS[input].missing };
  const pages = [...context.pages, ...context.variations, ...(context.refusals ?? [])];
  for (const key of requirements.filter((requirement) => !isInput(requirement) && !(requirement in MAY_BE_ABSENT))) {
    const lacking = pages.find((page) => !(key in page));
    if (lacking !== undefined)
      return {
        reason: `Not judged: the artifacts of page "${lacking.page}" on ${lacking.viewport} hold no \`${key}\` (saved by an earlier setup-audit, or edited). Run the audit again to judge it.`,
      };
  }
  return null;
}

function isInput(requirement: Requirement): requirement is CheckInput {
  return requirement in INPUTS;
}

/** An input the check declared it requires: the runner judged the check only because the context has it. */
export function needed<Input extends CheckInput>(context: AuditContext, input: Input): CheckInputs[Input] {
  const value = INPUTS[input].of(context);
  if (value === null) throw new Error(`the check reads ${input}, which it does not name among what it requires`);
  return value;
}
