import type { ApiArtifacts, ReportFile } from "../artifacts/types.js";
import type { CallBaseline } from "../artifacts/baseline.js";
import type { AuditContext } from "./check.js";

/**
 * What a check may read besides the spec, the plan and the pages: inputs that a run may lack.
 * A check names those it needs (`needs`), and the runner judges it only when they are there;
 * when one is missing, the runner says why instead of the check.
 */
export interface CheckInputs {
  /** What the service API said (the spec's `api` section). */
  api: ApiArtifacts;
  /** The exported report file the spec's `report.file` names, as read. */
  reportFile: ReportFile;
  /** What fired in a known-good run of this spec and environment (`run --baseline`). */
  baseline: CallBaseline;
}

/** An input a check may need. */
export type CheckInput = keyof CheckInputs;

interface InputRule<Input extends CheckInput> {
  /** The input in a context; null when the run lacks it. */
  of(context: AuditContext): CheckInputs[Input] | null;
  /** Why a check that needs it is not judged, as its one `skip` finding for the spec × environment; null for no finding at all. */
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

/** The first of `inputs` the context lacks, and what the runner says for it; null when it has them all. */
export function missingInput(context: AuditContext, inputs: readonly CheckInput[]): { reason: string | null } | null {
  const input = inputs.find((candidate) => INPUTS[candidate].of(context) === null);
  return input === undefined ? null : { reason: INPUTS[input].missing };
}

/** An input the check declared it needs: the runner judged the check only because the context has it. */
export function needed<Input extends CheckInput>(context: AuditContext, input: Input): CheckInputs[Input] {
  const value = INPUTS[input].of(context);
  if (value === null) throw new Error(`the check reads ${input}, which it does not name among its needs`);
  return value;
}
