import { utcMinute } from "../../results/changes.js";
import type { ChangedFinding, RunSummary } from "../../results/summary.js";
import type { Finding } from "../../findings/finding.js";
import { html, type Markup } from "./markup.js";
import { statusBadge } from "./status.js";

/** Changed findings named per kind: past these, a count of the rest. */
const NAMED_PER_KIND = 10;

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
