import type { Judgement } from "../../findings/finding.js";
import { nearMisses, orList } from "../../text/wording.js";
import { auditedEnvironment, defineCheck, finding, madeCalls, notConsentedReason, LOADED_PAGE } from "../check.js";
import { keptOut } from "../../artifacts/site-entry.js";

/** goals.match: each goal's event fired with exactly the goal's name, on each viewport. */
export const goalsMatch = defineCheck({
  id: "goals.match",
  scope: "run",
  title: "Each goal's event fires with exactly its name",
  failureTitle: "A goal's event never fires exactly",
  family: "Goal/event mismatch",
  severity: "critical",
  requires: [...LOADED_PAGE, "calls"],
  failsWhen:
    'a goal\'s event never fired exactly, on a viewport; near misses are named ("did you mean …"); a call the ' +
    "experimentation SDK refused to send (Optimizely's event not in its datafile) meets no goal, and the finding names " +
    "the refusal (see [The events tracked through the SDK](experiments.md#the-events-tracked-through-the-sdk))",
  why:
    "A goal counts only events whose name equals its condition exactly. `Signup Success` is not " +
    "`signup_success`: the experiment shows zero conversions and no error anywhere.",
  evaluate(context): Judgement[] {
    const viewports = [...new Set(context.pages.map((page) => page.viewport))];
    const auth = auditedEnvironment(context).auth;
    return context.spec.goals.flatMap((goal) =>
      viewports.map((viewport) => {
        const scope = { goal: goal.name, viewport };
        // Lost calls never reached the service: a goal's event lost before the SDK existed does not meet it.
        const calls = context.pages
          .filter((page) => page.viewport === viewport)
          .flatMap((page) => madeCalls(page).map((call) => ({ page: page.page, call })));
        const named = calls.filter(({ call }) => call.kind === "track" && call.name === goal.event);
        // A call the experimentation SDK refused to send never left the page: it meets no goal.
        const exact = named.filter(({ call }) => call.refused === undefined);
        const refused = named.filter(({ call }) => call.refused !== undefined);
        if (exact.length > 0) {
          const pages = [...new Set(exact.map(({ page }) => page))];
          return finding(
            context,
            "pass",
            `Goal "${goal.name}" is met by \`${goal.event}\` on ${pages.join(", ")}.`,
            scope,
            { event: goal.event, pages },
          );
        }
        // The goal's event may fire on a page the site kept the audit out of (page.access's failure), or on one where consent was never given (consent.banner's).
        const keptOutOf = context.pages
          .filter((page) => page.viewport === viewport && keptOut(page, auth) !== null)
          .map((page) => page.page);
        if (keptOutOf.length > 0)
          return finding(
            context,
            "skip",
            `Not judged on ${viewport}: the site kept the audit out of ${keptOutOf.join(", ")} (page.access says why), where \`${goal.event}\` may fire.`,
            scope,
            { event: goal.event, keptOutOf },
          );
        const unconsented = context.pages
          .filter((page) => page.viewport === viewport && notConsentedReason(page) !== null)
          .map((page) => page.page);
        if (unconsented.length > 0)
          return finding(
            context,
            "skip",
            `Not judged on ${viewport}: consent was never given on ${unconsented.join(", ")} (consent.banner says why), where \`${goal.event}\` may fire.`,
            scope,
            { event: goal.event, unconsented },
          );
        if (refused.length > 0) {
          const pages = [...new Set(refused.map(({ page }) => page))];
          const reasons = [...new Set(refused.map(({ call }) => call.refused!))];
          return finding(
            context,
            "fail",
            `Goal "${goal.name}" expects \`${goal.event}\`, which the pages tracked only through the experimentation SDK on ${pages.join(", ")}, and it refused to send it ("${reasons.join('", "')}"): the experiment counts no conversion. See events.delivered for what to do.`,
            scope,
            { event: goal.event, refused: reasons, pages },
          );
        }
        const names = calls
          .filter(({ call }) => call.kind === "track" && call.name !== null)
          .map(({ call }) => call.name!);
        const close = nearMisses(goal.event, names);
        const where =
          close.length > 0
            ? [...new Set(calls.filter(({ call }) => close.includes(call.name ?? "")).map(({ page }) => page))]
            : [];
        const message =
          close.length > 0
            ? `Goal "${goal.name}" expects \`${goal.event}\`, but the pages fire ${orList(close)} (on ${where.join(", ")}) — did you mean it? Rename the event or the goal's condition so they match exactly.`
            : `Goal "${goal.name}" expects \`${goal.event}\`, which no audited page fired on ${viewport}. Add the call to the page that completes the goal, or audit that page.`;
        return finding(context, "fail", message, scope, {
          event: goal.event,
          nearMisses: close,
          fired: [...new Set(names)],
        });
      }),
    );
  },
});
