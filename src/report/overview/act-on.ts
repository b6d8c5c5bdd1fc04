import { CHECK_IDS, type CheckReasons, type Finding, worstStatus, problemsOf } from "../../findings/finding.js";
import type { RunSummary } from "../../results/summary.js";
import { findingPlace } from "../console.js";
import { html, inlineMarkdown, withCode, type Markup } from "./markup.js";
import { statusBadge } from "./status.js";

/** Messages shown per check: past these, the detailed report lists the rest. */
const MESSAGES_PER_CHECK = 20;

/**
 * The findings to act on, grouped by check: failing checks first, then those that only warn, each
 * in the contract's order of check ids (a check since retired after them). A group gives the
 * check's failure title and why it matters as the run had them, and each distinct message (what
 * went wrong and what to do) with the pages × viewports it was found on.
 */
export function findingsToActOn(summary: Pick<RunSummary, "runs" | "findings" | "checks">): Markup {
  const problems = problemsOf(summary.findings);
  if (problems.length === 0)
    return html`<section class="sa-section"><h2>Findings to act on</h2><p>None: no check failed or warned.</p></section>`;
  const byCheck = new Map<string, Finding[]>(CHECK_IDS.map((id) => [id, []]));
  for (const finding of problems) {
    if (!byCheck.has(finding.check)) byCheck.set(finding.check, []);
    byCheck.get(finding.check)!.push(finding);
  }
  const groups = [...byCheck].filter(([, findings]) => findings.length > 0);
  const ordered = [
    ...groups.filter(([, findings]) => worstStatus(findings.map((f) => f.status)) === "fail"),
    ...groups.filter(([, findings]) => worstStatus(findings.map((f) => f.status)) === "warn"),
  ];
  const specPrefix = summary.runs.length > 1;
  return html`<section class="sa-section"><h2>Findings to act on</h2>${ordered.map(([id, findings]) => checkGroup(id, findings, summary.checks ?? {}, specPrefix))}</section>`;
}

function checkGroup(id: string, findings: readonly Finding[], reasons: CheckReasons, specPrefix: boolean): Markup {
  const why = reasons[id]?.why;
  const byMessage = new Map<string, Finding[]>();
  for (const finding of findings) byMessage.set(finding.message, [...(byMessage.get(finding.message) ?? []), finding]);
  const messages = [...byMessage];
  const more = messages.length - MESSAGES_PER_CHECK;
  return html`<article class="sa-check">
  <h3>${statusBadge(worstStatus(findings.map((finding) => finding.status)))} ${findings[0]!.title ?? id} <code>${id}</code> <span class="sa-count">${findings.length} finding(s)</span></h3>
  <ul class="sa-messages">${messages
    .slice(0, MESSAGES_PER_CHECK)
    .map(
      ([message, found]) =>
        html`<li><p class="sa-where">${found.map((finding) => [specPrefix ? finding.spec : "", findingPlace(finding)].filter(Boolean).join(" · ") || "the spec").join("; ")}</p><p>${withCode(message)}</p></li>`,
    )}</ul>
  ${more > 0 ? html`<p>And ${more} more message(s): the detailed report lists every finding.</p>` : null}
  ${why === undefined ? null : html`<p class="sa-why"><strong>Why it matters:</strong> ${inlineMarkdown(why)}</p>`}
</article>`;
}
