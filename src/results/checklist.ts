import { worstStatus, type CheckId, type Checklist, type Finding } from "../findings/finding.js";
import { type RunSummary } from "./summary.js";

/**
 * The service's checklist, the one place it is written: which checks feed each item
 * (docs/checks.md). An item's status is the worst of its checks' findings.
 */
export const CHECKLIST_SOURCES: Record<keyof Checklist, readonly CheckId[]> = {
  workspace: ["api.auth", "api.workspace"],
  projectKeyOrDomain: ["api.project", "page.domain", "sdk.key"],
  goalEventMatch: ["api.goals", "events.expected", "goals.match"],
  mobileAndDesktop: ["viewports.coverage"],
  noWarnings: ["events.delivered", "report.warnings"],
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

/**
 * The checklist items a run did not check (status `skip`), out of how many, and why: the first
 * sentence of each skipped finding that fed one, once each. A pass with these is no full pass.
 */
export function uncheckedItems(summary: Pick<RunSummary, "runs" | "findings">): {
  unchecked: number;
  of: number;
  reasons: string[];
} {
  const reasons = new Set<string>();
  let unchecked = 0;
  for (const run of summary.runs) {
    for (const item of (Object.keys(CHECKLIST_SOURCES) as (keyof Checklist)[]).filter(
      (name) => run.checklist[name] === "skip",
    )) {
      unchecked++;
      const fed = summary.findings.filter(
        (finding) =>
          finding.spec === run.spec && finding.status === "skip" && CHECKLIST_SOURCES[item].includes(finding.check),
      );
      if (fed.length === 0) reasons.add("no check ran for it");
      for (const finding of fed) reasons.add(firstSentence(finding.message));
    }
  }
  return { unchecked, of: summary.runs.length * Object.keys(CHECKLIST_SOURCES).length, reasons: [...reasons] };
}

/** The first sentence, without its full stop and with a small first letter, to follow a colon. */
function firstSentence(message: string): string {
  const sentence = message.split(/(?<=[.!?])\s/)[0]!.replace(/[.!?]$/, "");
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}
