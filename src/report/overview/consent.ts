import type { RunSummary } from "../../results/summary.js";
import type { Finding } from "../../findings/finding.js";
import { findingPlace } from "../console.js";
import { html, scrollBox, withCode, type Markup } from "./markup.js";
import { findingsOf, runTitle, statusBadge } from "./status.js";

/**
 * What happened before consent, per spec × environment with a consent section: for each page ×
 * viewport, whether the banner showed and was answered (consent.banner), what left or was stored
 * before the answer (consent.before), and what a refusal or Global Privacy Control let through
 * (consent.reject). Nothing when no run looked at consent.
 */
export function beforeConsent(summary: Pick<RunSummary, "runs" | "findings">): Markup | null {
  const watched = summary.runs.flatMap((run) => {
    const consent = findingsOf(summary, run).filter((finding) => finding.check.startsWith("consent."));
    // Page by page, each page's checks in the registry's order.
    const places = [...new Set(consent.map(findingPlace))];
    consent.sort((a, b) => places.indexOf(findingPlace(a)) - places.indexOf(findingPlace(b)));
    return consent.length === 0 ? [] : [{ run, consent }];
  });
  if (watched.length === 0) return null;
  return html`<section class="sa-section"><h2>What happened before consent</h2>${watched.map(({ run, consent }) =>
    scrollBox(
      `What happened before consent on ${runTitle(run)}`,
      html`<table class="sa-consent"><caption>${runTitle(run)}</caption>
<thead><tr><th scope="col">where</th><th scope="col">check</th><th scope="col">status</th><th scope="col">what happened</th></tr></thead>
<tbody>${consent.map(consentRow)}</tbody></table>`,
    ),
  )}</section>`;
}

function consentRow(finding: Finding): Markup {
  const unit = typeof finding.evidence.unit === "string" ? ` (${finding.evidence.unit})` : "";
  return html`<tr><td>${findingPlace(finding) || "the spec"}</td><td><code>${finding.check}</code>${unit}</td><td>${statusBadge(finding.status)}</td><td>${withCode(finding.message)}</td></tr>`;
}
