/**
 * The overview's look and behaviour, inline like everything in the report. It hides the Allure
 * app until the reader opens it (and opens it straight away for a link into it, which Allure
 * keeps in the URL's fragment); printing gives the overview alone, as a document.
 */

/** The overview's element id: its rules apply inside it only, so Allure's own styles stay as they are. */
export const OVERVIEW_ID = "sa-overview";

/** The class on `<html>` while the Allure report is open. */
const ALLURE_OPEN = "sa-allure-open";

export const OVERVIEW_STYLE = `
html:not(.${ALLURE_OPEN}) body > :not(#${OVERVIEW_ID}) { display: none !important; }
html.${ALLURE_OPEN} #${OVERVIEW_ID} { display: none; }
html:not(.${ALLURE_OPEN}) body { background: #fff; }
#sa-back { display: none; }
html.${ALLURE_OPEN} #sa-back { display: block !important; position: fixed; right: 16px; bottom: 16px; z-index: 2147483647; }
#${OVERVIEW_ID}, #sa-back { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d1d1f; }
#${OVERVIEW_ID} { background: #fff; max-width: 1200px; margin: 0 auto; padding: 16px 24px 48px; overflow-wrap: anywhere; }
#${OVERVIEW_ID} h1 { font-size: 30px; font-weight: 700; margin: 4px 0 6px; }
#${OVERVIEW_ID} h2 { font-size: 20px; font-weight: 700; margin: 0 0 8px; }
#${OVERVIEW_ID} h3 { font-size: 16px; font-weight: 600; margin: 0 0 6px; }
#${OVERVIEW_ID} strong, #${OVERVIEW_ID} th { font-weight: 600; }
#${OVERVIEW_ID} p { margin: 4px 0; }
#${OVERVIEW_ID} code { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f1f3f4; padding: 0 3px; border-radius: 3px; overflow-wrap: anywhere; }
#${OVERVIEW_ID} .sa-kicker { color: #4d5156; margin: 0; }
#${OVERVIEW_ID} .sa-verdict-pass { color: #11632f; }
#${OVERVIEW_ID} .sa-verdict-fail { color: #a1160a; }
#${OVERVIEW_ID} .sa-verdict-line { font-size: 17px; font-weight: 600; }
#${OVERVIEW_ID} .sa-changes { font-size: 16px; padding: 6px 10px; border-left: 4px solid #3d5afe; background: #f3f5ff; }
#${OVERVIEW_ID} button { font: inherit; font-weight: 600; cursor: pointer; border-radius: 6px; }
#${OVERVIEW_ID} .sa-open, #sa-back { background: #1a47b8; color: #fff; border: 0; padding: 8px 14px; font: 600 15px system-ui, sans-serif; border-radius: 6px; cursor: pointer; }
#${OVERVIEW_ID} .sa-runs { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(440px, 100%), 1fr)); gap: 12px; margin: 12px 0 20px; }
#${OVERVIEW_ID} .sa-run, #${OVERVIEW_ID} .sa-check, #${OVERVIEW_ID} .sa-pictures { min-width: 0; border: 1px solid #d0d4d9; border-radius: 8px; padding: 10px 14px; break-inside: avoid; }
#${OVERVIEW_ID} .sa-check, #${OVERVIEW_ID} .sa-pictures { margin: 0 0 12px; }
#${OVERVIEW_ID} .sa-spec { color: #4d5156; font-size: 13px; }
#${OVERVIEW_ID} ul { margin: 6px 0; padding: 0; list-style: none; }
#${OVERVIEW_ID} .sa-checklist li, #${OVERVIEW_ID} .sa-plan-checks li, #${OVERVIEW_ID} .sa-changed li { margin: 3px 0; }
#${OVERVIEW_ID} .sa-messages li { border-top: 1px solid #eceff1; padding: 6px 0; }
#${OVERVIEW_ID} .sa-where { font-weight: 600; }
#${OVERVIEW_ID} .sa-why { color: #3c4043; font-size: 14px; }
#${OVERVIEW_ID} .sa-count { color: #4d5156; font-weight: 400; font-size: 14px; }
#${OVERVIEW_ID} .sa-status { display: inline-block; min-width: 5.5em; text-align: center; font-size: 13px; font-weight: 700; border-radius: 10px; padding: 0 8px; }
#${OVERVIEW_ID} .sa-pass { background: #e3f4e8; color: #0d5326; }
#${OVERVIEW_ID} .sa-warn { background: #fff1cc; color: #5c3b00; }
#${OVERVIEW_ID} .sa-fail { background: #fde3e1; color: #8c1209; }
#${OVERVIEW_ID} .sa-skip { background: #eceff1; color: #37474f; }
#${OVERVIEW_ID} .sa-section { margin: 24px 0 0; }
#${OVERVIEW_ID} .sa-scroll { max-width: 100%; overflow-x: auto; margin: 0 0 16px; }
#${OVERVIEW_ID} table { border-collapse: collapse; }
#${OVERVIEW_ID} caption { text-align: left; font-weight: 600; padding: 0 0 4px; }
#${OVERVIEW_ID} th, #${OVERVIEW_ID} td { border: 1px solid #d0d4d9; padding: 3px 8px; text-align: left; vertical-align: top; }
#${OVERVIEW_ID} .sa-consent td:last-child { max-width: 640px; }
#${OVERVIEW_ID} .sa-events dt { font-weight: 600; }
#${OVERVIEW_ID} .sa-events dd { margin: 0 0 6px 16px; }
#${OVERVIEW_ID} .sa-trend { margin: 0 0 12px; }
#${OVERVIEW_ID} .sa-trend-svg text { font: 13px system-ui, sans-serif; fill: #1d1d1f; }
#${OVERVIEW_ID} .sa-legend span { margin-right: 12px; }
#${OVERVIEW_ID} .sa-pictures figure { display: inline-block; max-width: 100%; margin: 6px 12px 6px 0; vertical-align: top; }
#${OVERVIEW_ID} .sa-pictures img { max-width: 100%; max-height: 480px; border: 1px solid #d0d4d9; }
@media (max-width: 600px) {
  #${OVERVIEW_ID} { padding: 12px 12px 32px; }
  #${OVERVIEW_ID} h1 { font-size: 26px; }
}
@media print {
  html:not(.${ALLURE_OPEN}) #${OVERVIEW_ID} { max-width: none; padding: 0; }
  #${OVERVIEW_ID} button, #sa-back { display: none !important; }
  #${OVERVIEW_ID} .sa-status { border: 1px solid currentColor; }
  #${OVERVIEW_ID} .sa-scroll { overflow: visible; }
  #${OVERVIEW_ID} h2, #${OVERVIEW_ID} h3 { break-after: avoid; }
  #${OVERVIEW_ID} tr, #${OVERVIEW_ID} figure { break-inside: avoid; }
}
`;

/** Opens the Allure report on a click (and at once for a link into it), and comes back to the overview. */
export const OVERVIEW_SCRIPT = `
(function () {
  var root = document.documentElement;
  function show(allure) {
    root.classList.toggle("${ALLURE_OPEN}", allure);
    window.scrollTo(0, 0);
  }
  if (window.location.hash.length > 1) root.classList.add("${ALLURE_OPEN}");
  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target.closest("[data-sa-open], #sa-back") : null;
    if (target) show(target.id !== "sa-back");
  });
})();
`;
