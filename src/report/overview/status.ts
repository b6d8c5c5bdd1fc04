import type { RunSummary, SpecRun } from "../../results/summary.js";
import type { Finding, Status } from "../../findings/finding.js";
import { html, type Markup } from "./markup.js";

/** How a status reads on the overview: a skipped item was not checked, which is no pass. */
export const STATUS_TEXT: Record<Status, string> = { pass: "pass", warn: "warn", fail: "fail", skip: "not checked" };

/** A status as a badge: its word on its colour, never the colour alone. */
export function statusBadge(status: Status): Markup {
  return html`<span class="sa-status sa-${status}">${STATUS_TEXT[status]}</span>`;
}

/** `Demo shop (staging)`: a spec run as the overview names it. */
export function runTitle(run: Pick<SpecRun, "project" | "environment">): string {
  return `${run.project} (${run.environment})`;
}

/** The findings of one spec run (findings carry their spec, and a run audits a spec in one environment). */
export function findingsOf(summary: Pick<RunSummary, "findings">, run: Pick<SpecRun, "spec">): Finding[] {
  return summary.findings.filter((finding) => finding.spec === run.spec);
}
