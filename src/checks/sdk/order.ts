import type { Judgement } from "../../findings/finding.js";
import { defineCheck, describeCall, madeCalls, perLoadedPage, LOADED_PAGE } from "../check.js";
import { unwatchable } from "./unwatchable.js";

/** sdk.order: no call runs before the SDK has loaded. */
export const sdkOrder = defineCheck({
  id: "sdk.order",
  scope: "page",
  title: "The SDK loads before any track or identify call",
  failureTitle: "Calls run before the SDK has loaded",
  family: "SDK installation and load order",
  severity: "critical",
  requires: [...LOADED_PAGE, "calls", "callsFromNetwork", "sdkReadyAtMs"],
  failsWhen:
    "a call ran before the SDK had loaded and was lost (**fail**), or was only queued by a stub snippet " +
    "(**warn**); **warn** too when the calls could not be watched (a frozen API, a redefined global) and " +
    "were judged from the collect requests",
  why:
    "A call made before the SDK exists throws and is lost for good: the conversions of the fastest " +
    "visitors never reach the experiment. A stub snippet saves them by queueing, but their delivery then " +
    "depends on the SDK loading at all before the visitor leaves.",
  evaluate(context): Judgement[] {
    const { global } = context.spec.sdk;
    return perLoadedPage(context, (page) => {
      // Page views are events.pageviews' business: a page() queued by a snippet is how page views are sent.
      // The experimentation SDK's calls are made on its client, which exists by then.
      const calls = page.calls.filter((call) => call.kind !== "page" && call.sdk === undefined);
      const lost = calls.filter((call) => call.state === "lost");
      const queued = calls.filter((call) => call.state === "queued");
      const describe = (calls: typeof lost) => calls.map((call) => `${describeCall(call)} at ${call.atMs} ms`);
      if (lost.length > 0) {
        return {
          status: "fail",
          message: `${lost.length} call(s) ran before \`${global}\` existed and were lost: ${describe(lost).join(", ")}. Call the SDK only after it has loaded, or install its stub snippet first.`,
          evidence: { lost: describe(lost), sdkReadyAtMs: page.sdkReadyAtMs },
        };
      }
      if (page.callsFromNetwork !== null) {
        const made = madeCalls(page).filter((call) => call.kind !== "page");
        return {
          status: "warn",
          message: `The audit could not watch the SDK's calls: ${unwatchable(page.callsFromNetwork)}. Whether a call ran before the SDK was ready is unknown; judge it on a build without that protection, or trust the ${made.length} call(s) the collect requests carried.`,
          evidence: { callsFromNetwork: page.callsFromNetwork, carried: made.map((call) => describeCall(call)) },
        };
      }
      if (queued.length > 0) {
        return {
          status: "warn",
          message: `${queued.length} call(s) were only queued by the stub snippet before the SDK loaded: ${describe(queued).join(", ")}. They are delivered only if the SDK loads before the visitor leaves; call them once the SDK is ready.`,
          evidence: { queued: describe(queued), sdkReadyAtMs: page.sdkReadyAtMs },
        };
      }
      return {
        status: "pass",
        message:
          calls.length === 0
            ? "No call was made before the SDK loaded (no calls at all)."
            : `All ${calls.length} call(s) ran after the SDK loaded.`,
      };
    });
  },
});
