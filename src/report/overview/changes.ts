import { utcMinute } from "../../results/changes.js";
import type { ChangedFinding, Changes, RunSummary } from "../../results/summary.js";
import { worstStatus, type Finding, type Status } from "../../findings/finding.js";
import { html, type Markup } from "./markup.js";
import { statusBadge } from "./status.js";

/** Changed findings named per kind: past these, a count of the rest. */
const NAMED_PER_KIND = 10;

/** A finding's key without its environment (a spec run audits one): what `changes` names a finding by. */
type KeyFields = Pick<ChangedFinding, "check" | "spec" | "page" | "viewport" | "goal" | "experiment" | "variation">;

function keyOf(finding: KeyFields): string {
  return JSON.stringify([
    finding.check,
    finding.spec,
    finding.page,
    finding.viewport,
    finding.goal,
    finding.experiment,
    finding.variation,
  ]);
}

/**
 * The changes line with warnings counted as warnings: `Since 2026-11-27 03:00 UTC: 1 new, 0 worse,
 * 2 resolved, 3 still failing, 1 still warning`. summary.json counts the persisting findings
 * (warn or fail in both runs, not worse) as one number; which of them fail and which warn is read
 * from this run's findings: its warn and fail keys that are neither new nor worse. When those are
 * not exactly the persisting ones (a spec run with nothing to compare with, a key skipped then),
 * the line does not guess: `4 still failing or warning`.
 */
export function changesSentence(summary: Pick<RunSummary, "findings">, changes: Changes): string {
  const counts = `${changes.new.length} new, ${changes.worse.length} worse, ${changes.resolved.length} resolved`;
  const still = persistingStatuses(summary, changes);
  const persisting =
    still === null
      ? `${changes.persisting} still failing or warning`
      : `${still.filter((status) => status === "fail").length} still failing, ${still.filter((status) => status === "warn").length} still warning`;
  return `Since ${utcMinute(changes.comparedWith.startedAt)}: ${counts}, ${persisting}`;
}

/** The current status of each persisting finding; null when this run's findings do not tell them exactly. */
function persistingStatuses(summary: Pick<RunSummary, "findings">, changes: Changes): Status[] | null {
  const now = new Map<string, Status>();
  for (const finding of summary.findings)
    now.set(keyOf(finding), worstStatus([now.get(keyOf(finding)) ?? "skip", finding.status]));
  const changed = new Set([...changes.new, ...changes.worse].map(keyOf));
  const still = [...now].filter(([key, status]) => (status === "warn" || status === "fail") && !changed.has(key));
  return still.length === changes.persisting ? still.map(([, status]) => status) : null;
}

/**
 * What is new, worse and resolved since the run compared with, each named by check and place with
 * its status now (a warning as a warning): the first ten of each, then how many more. Nothing when
 * nothing was compared or nothing changed.
 */
export function changedFindings(summary: Pick<RunSummary, "runs" | "changes">): Markup | null {
  const changes = summary.changes;
  if (changes === null) return null;
  const kinds = [
    ["New", changes.new],
    ["Worse", changes.worse],
    ["Resolved", changes.resolved],
  ] as const;
  if (kinds.every(([, changed]) => changed.length === 0)) return null;
  const specPrefix = summary.runs.length > 1;
  return html`<section class="sa-section"><h2>${`Changes since ${utcMinute(changes.comparedWith.startedAt)}`}</h2>${kinds.map(
    ([kind, changed]) => (changed.length === 0 ? null : changedList(kind, changed, specPrefix)),
  )}</section>`;
}

function changedList(kind: string, changed: readonly ChangedFinding[], specPrefix: boolean): Markup {
  const more = changed.length - NAMED_PER_KIND;
  // A resolved finding passes now: its count says it all; a new or worse one's says how many fail and how many warn.
  return html`<h3>${kind}: ${kind === "Resolved" ? String(changed.length) : byStatus(changed)}</h3>
<ul class="sa-changed">${changed.slice(0, NAMED_PER_KIND).map((finding) => {
    const where = [specPrefix ? `${finding.spec} (${finding.environment})` : "", changedPlace(finding)].filter(Boolean);
    return html`<li>${statusBadge(finding.status)} <code>${finding.check}</code> ${where.join(" · ") || "the spec"}</li>`;
  })}</ul>
${more > 0 ? html`<p>And ${more} more: the detailed report lists every finding.</p>` : null}`;
}

/** `3 fail, 1 warn`: how many of the changed findings fail and warn now. */
function byStatus(changed: readonly ChangedFinding[]): string {
  return (["fail", "warn"] as const)
    .map((status) => [status, changed.filter((finding) => finding.status === status).length] as const)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${status}`)
    .join(", ");
}

/** `cart · mobile`: a changed finding's place, as the reports name a finding's. */
function changedPlace(finding: Pick<Finding, "page" | "goal" | "experiment" | "variation" | "viewport">): string {
  return [finding.page, finding.goal, finding.experiment, finding.variation, finding.viewport]
    .filter(Boolean)
    .join(" · ");
}
