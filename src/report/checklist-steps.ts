import { CHECKLIST_SOURCES, rollUpChecklist } from "../results/checklist.js";
import type { Checklist, Finding, Status } from "../findings/finding.js";
import { CHECKLIST_LABELS } from "./console.js";

/** The story (Allure label) of the checklist result, and the name it is filed under. */
export const CHECKLIST_STORY = "Setup checklist";

/** One item of the service's checklist as the report shows it: a step with its status and why. */
export interface ChecklistStep {
  /** The item's key in summary.json's `checklist`. */
  item: keyof Checklist;
  /** The item in the service's words, as the console prints it. */
  label: string;
  /** The worst status of the findings that feed it. */
  status: Status;
  /** Which findings decided the status, in a sentence. */
  message: string;
}

/** How many failing findings a step names before it says "and N more". */
const NAMED_PROBLEMS = 4;

/** The five checklist items of one spec × environment, each with the findings that decided it. */
export function checklistSteps(findings: readonly Finding[]): ChecklistStep[] {
  const checklist = rollUpChecklist(findings);
  return (Object.keys(CHECKLIST_LABELS) as (keyof Checklist)[]).map((item) => {
    const sources = CHECKLIST_SOURCES[item];
    const feeding = findings.filter((finding) => sources.includes(finding.check));
    return {
      item,
      label: CHECKLIST_LABELS[item],
      status: checklist[item],
      message: explain(checklist[item], feeding, sources),
    };
  });
}

function explain(status: Status, feeding: readonly Finding[], sources: readonly string[]): string {
  const checks = sources.join(", ");
  if (feeding.length === 0) return `Not checked in this run: none of ${checks} gave a finding.`;
  if (status === "skip") return `Not checked: every finding of ${checks} was skipped.`;
  if (status === "pass") return `All ${feeding.length} finding(s) of ${checks} passed.`;
  const problems = feeding.filter((finding) => finding.status === status);
  const named = problems.slice(0, NAMED_PROBLEMS).map((finding) => `${finding.check} [${placeOf(finding)}]`);
  const more = problems.length > NAMED_PROBLEMS ? ` and ${problems.length - NAMED_PROBLEMS} more` : "";
  return `${problems.length} ${status === "fail" ? "failed" : "warned"}: ${named.join(", ")}${more}.`;
}

/** Where a finding applies, most specific first: `Signup completed · mobile`, `signup · desktop`, `spec`. */
function placeOf(finding: Finding): string {
  const subject = finding.goal ?? finding.experiment ?? finding.page;
  if (subject === null) return finding.viewport ?? "spec";
  return finding.viewport === null ? subject : `${subject} · ${finding.viewport}`;
}
