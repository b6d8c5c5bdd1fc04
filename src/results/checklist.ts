import { CHECKS, type CheckId } from "../checks/index.js";
import { worstStatus, type Checklist, type Finding } from "./summary.js";

/** The checks that feed a checklist item, as their definitions say, in registry order. */
function feeding(item: keyof Checklist): CheckId[] {
  return CHECKS.filter((check) => check.checklist === item).map((check) => check.id);
}

/** Which checks feed each checklist item (docs/checks.md). */
export const CHECKLIST_SOURCES: Record<keyof Checklist, readonly CheckId[]> = {
  workspace: feeding("workspace"),
  projectKeyOrDomain: feeding("projectKeyOrDomain"),
  goalEventMatch: feeding("goalEventMatch"),
  mobileAndDesktop: feeding("mobileAndDesktop"),
  noWarnings: feeding("noWarnings"),
};

/** Rolls one spec run's findings up into the checklist: the worst status of the feeding checks. */
export function rollUpChecklist(findings: readonly Finding[]): Checklist {
  const item = (sources: readonly CheckId[]) =>
    worstStatus(findings.filter((finding) => sources.includes(finding.check)).map((finding) => finding.status));
  return {
    workspace: item(CHECKLIST_SOURCES.workspace),
    projectKeyOrDomain: item(CHECKLIST_SOURCES.projectKeyOrDomain),
    goalEventMatch: item(CHECKLIST_SOURCES.goalEventMatch),
    mobileAndDesktop: item(CHECKLIST_SOURCES.mobileAndDesktop),
    noWarnings: item(CHECKLIST_SOURCES.noWarnings),
  };
}
