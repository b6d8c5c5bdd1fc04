import { firedCalls, firedNothing, firedOnlyIn, type CallBaseline, type FiredCalls } from "../../artifacts/baseline.js";
import type { PageArtifacts } from "../../artifacts/types.js";
import type { Judgement } from "../../findings/finding.js";
import {
  auditedEnvironment,
  defineCheck,
  finding,
  notConsentedReason,
  type CheckContext,
  OPENED_PAGE,
} from "../check.js";
import { needed } from "../inputs.js";
import { keptOut } from "../../artifacts/site-entry.js";

const REFRESH = "refresh the baseline with `setup-audit baseline`";

/** baseline.calls: every event that fired on a page × viewport in the baseline still fires there. */
export const baselineCalls = defineCheck({
  id: "baseline.calls",
  scope: "run",
  title: "The same events fire as in the baseline",
  failureTitle: "An event that fired in the baseline no longer fires",
  family: "Goal/event mismatch",
  severity: "critical",
  failsWhen:
    "only with `run --baseline`, per page × viewport: an event (a `track` name, or `identify`) that fired " +
    "there in the baseline no longer does, or a page or viewport where events fired is gone from the spec " +
    "(**fail**); an event or a page × viewport the baseline does not have (**warn**). See " +
    "[Baselines](ci.md#baselines)",
  why:
    "Most events are never listed in a page's expect, so a release that quietly stops one — a " +
    "renamed callback, a consent banner that now blocks the SDK on mobile — fails nothing else while " +
    "its conversions vanish. Comparing every page and viewport with a known-good run catches the loss " +
    "the night it happens; new events are only warnings, until the baseline is refreshed to include them.",
  requires: ["baseline", ...OPENED_PAGE, "calls"],
  evaluate(context): Judgement[] {
    const baseline = needed(context, "baseline");
    const audited = context.pages.map((page) => comparePage(context, page, baseline.pages[page.page]?.[page.viewport]));
    const notAudited = baselinePairs(baseline)
      .filter(
        ([page, viewport]) =>
          !context.pages.some((artifacts) => artifacts.page === page && artifacts.viewport === viewport),
      )
      .map(([page, viewport]) => compareUnaudited(context, page, viewport, baseline.pages[page]![viewport]!));
    return [...audited, ...notAudited];
  },
});

function comparePage(context: CheckContext, page: PageArtifacts, before: FiredCalls | undefined): Judgement {
  const where = `${page.page} · ${page.viewport}`;
  const scope = { page: page.page, viewport: page.viewport };
  if (keptOut(page, auditedEnvironment(context).auth) !== null)
    return finding(
      context,
      "skip",
      "Not compared with the baseline: the site kept the audit out (page.access says why).",
      scope,
    );
  if (page.loadError !== null)
    return finding(
      context,
      "skip",
      "Not compared with the baseline: the page did not load (page.load says why).",
      scope,
    );
  if (notConsentedReason(page) !== null)
    return finding(
      context,
      "skip",
      "Not compared with the baseline: consent was never given on this page (consent.banner says why).",
      scope,
    );
  const now = firedCalls(page.calls);
  if (before === undefined) {
    const seen = firedNothing(now) ? "nothing fired there" : `${eventList(now)} fired there`;
    return finding(
      context,
      "warn",
      `${where} is not in the baseline (${seen}) — ${REFRESH} so that a later loss there fails the audit.`,
      scope,
      { baseline: null, run: now },
    );
  }
  const missing = firedOnlyIn(before, now);
  const added = firedOnlyIn(now, before);
  const evidence = { baseline: before, run: now, missing, added };
  if (!firedNothing(missing)) {
    const lost = firedNothing(now)
      ? `Nothing fired on ${where}, where ${eventList(before)} fired in the baseline`
      : `${eventList(missing)} fired on ${where} in the baseline but not in this run`;
    const alsoNew = firedNothing(added) ? "" : ` New here: ${eventList(added)}.`;
    return finding(
      context,
      "fail",
      `${lost} — a regression; fix the page, or ${REFRESH} if the change is intended.${alsoNew}`,
      scope,
      evidence,
    );
  }
  if (!firedNothing(added)) {
    return finding(
      context,
      "warn",
      `${eventList(added)} fired on ${where}, but not in the baseline — new; if it is intended, ${REFRESH} so that losing it later fails the audit.`,
      scope,
      evidence,
    );
  }
  const same = firedNothing(now) ? `Nothing fired on ${where}` : `${eventList(now)} fired on ${where}`;
  return finding(context, "pass", `${same}, as in the baseline.`, scope, evidence);
}

/** A page × viewport of the baseline that this run did not audit: narrowed out (skip), or gone from the spec (fail). */
function compareUnaudited(context: CheckContext, page: string, viewport: string, before: FiredCalls): Judgement {
  const where = `${page} · ${viewport}`;
  const scope = { page, viewport };
  const evidence = { baseline: before, run: null };
  if (firedNothing(before))
    return finding(
      context,
      "skip",
      `Not audited in this run; nothing fired on ${where} in the baseline either.`,
      scope,
      evidence,
    );
  const gone = [
    ...(context.spec.pages.some((candidate) => candidate.id === page) ? [] : [`the spec has no page "${page}"`]),
    ...(context.spec.viewports.includes(viewport) ? [] : [`the spec does not list viewport "${viewport}"`]),
  ];
  if (gone.length === 0) {
    return finding(
      context,
      "skip",
      `Not audited in this run (narrowed with --page, --viewport or --shard), so what fired on ${where} in the baseline (${eventList(before)}) was not compared.`,
      scope,
      evidence,
    );
  }
  return finding(
    context,
    "fail",
    `${eventList(before)} fired on ${where} in the baseline, but this run did not audit it: ${gone.join(" and ")} — restore it in the spec, or ${REFRESH} if the change is intended.`,
    scope,
    evidence,
  );
}

/** The baseline's page × viewport pairs, sorted, so findings come in the same order on every run. */
function baselinePairs(baseline: CallBaseline): [string, string][] {
  return Object.keys(baseline.pages)
    .sort()
    .flatMap((page) =>
      Object.keys(baseline.pages[page]!)
        .sort()
        .map((viewport): [string, string] => [page, viewport]),
    );
}

/** `` `a` ``, `` `a` and `identify` ``, `` `a`, `b` and `identify` ``. */
function eventList(fired: FiredCalls): string {
  const names = [...fired.track, ...(fired.identify ? ["identify"] : [])].map((name) => `\`${name}\``);
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}
