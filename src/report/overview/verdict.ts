import { CHECKLIST_SOURCES, uncheckedItems } from "../../results/checklist.js";
import type { RunSummary, SpecRun } from "../../results/summary.js";
import { CHECK_IDS, type CheckId, type Checklist, type Status } from "../../findings/finding.js";
import { findingCounts } from "../console.js";
import { html, type Markup } from "./markup.js";
import { findingsOf } from "./status.js";

/** The checks that judge the spec's goals: without a goal, `events.expected` alone leaves "Goals and events match" unjudged. */
const GOAL_CHECKS: readonly CheckId[] = ["goals.match", "api.goals"];

/**
 * A spec run's checklist as the overview shows it: the roll-up's (summary.json's), except that
 * "Goals and events match" is not checked when no goal was judged, however the expected events
 * fared (a warn or a fail of theirs still shows).
 */
export function shownChecklist(summary: Pick<RunSummary, "findings">, run: SpecRun): Checklist {
  return goalsUnjudged(summary, run) === null ? run.checklist : { ...run.checklist, goalEventMatch: "skip" };
}

/**
 * Why "Goals and events match" was judged on no goal although the roll-up passed it (its passes
 * all `events.expected`'s); null when a goal was judged, or the roll-up did not pass it.
 */
function goalsUnjudged(summary: Pick<RunSummary, "findings">, run: SpecRun): string | null {
  if (run.checklist.goalEventMatch !== "pass") return null;
  const fed = findingsOf(summary, run).filter((finding) => CHECKLIST_SOURCES.goalEventMatch.includes(finding.check));
  const passes = fed.filter((finding) => finding.status === "pass");
  if (passes.length === 0 || passes.some((finding) => GOAL_CHECKS.includes(finding.check))) return null;
  return fed.some((finding) => finding.check === "goals.match") ? "no goal was judged" : "the spec defines no goals";
}

/**
 * The verdict's sentence, the worst first: the checks that failed (or, with none failed, those that
 * warned), each with how many findings; then the checklist items not checked and why; then the
 * findings' counts. `FAIL — failed checks: page.load (1), sdk.order (3) — 1 of 5 checklist items
 * not checked: the spec has no api section — 12 passed, …`
 */
export function verdictSentence(summary: RunSummary): Markup {
  const worst = summary.findings.some((finding) => finding.status === "fail") ? "fail" : "warn";
  const named = checksWith(summary, worst);
  const { unchecked, of, reasons } = uncheckedItems(summary);
  const moreReasons = new Set(reasons);
  let notChecked = unchecked;
  for (const run of summary.runs) {
    const reason = goalsUnjudged(summary, run);
    if (reason === null) continue;
    notChecked++;
    moreReasons.add(reason);
  }
  return html`${summary.verdict.toUpperCase()}${named.length === 0 ? null : html` — ${worst === "fail" ? "failed checks" : "checks that warned"}: ${named}`}${notChecked === 0 ? null : ` — ${notChecked} of ${of} checklist items not checked: ${[...moreReasons].join("; ")}`} — ${findingCounts(summary)}`;
}

/** `page.load (1), sdk.order (3)`: the checks with a finding of `status`, in the registry's order (as the findings to act on). */
function checksWith(summary: Pick<RunSummary, "findings">, status: Status): Markup[] {
  const counts = new Map<string, number>();
  for (const finding of summary.findings)
    if (finding.status === status) counts.set(finding.check, (counts.get(finding.check) ?? 0) + 1);
  return CHECK_IDS.filter((check) => counts.has(check)).map(
    (check, index) => html`${index > 0 ? ", " : ""}<code>${check}</code> (${counts.get(check)!})`,
  );
}
