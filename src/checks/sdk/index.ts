import type { PageArtifacts } from "../../artifacts/types.js";
import type { Finding } from "../../results/summary.js";
import { defineCheck, describeCall, madeCalls, perLoadedPage } from "../check.js";
import { sdkKey } from "./key.js";

/** sdk.present: the SDK script loaded and defined its global. */
export const sdkPresent = defineCheck({
  id: "sdk.present",
  scope: "page",
  title: "The SDK loads and defines its global",
  failureTitle: "The SDK is missing or broken",
  family: "SDK installation and load order",
  severity: "blocker",
  checklist: null,
  failsWhen:
    "the SDK script was not requested, failed, or its global never became the ready SDK (see [When the " +
    "SDK is ready](architecture.md#when-the-sdk-is-ready)); **warn** when the page redefined the global beyond the " +
    "audit's reach, or defined no global while its collect requests show the SDK at work (an npm " +
    "install that keeps the SDK in its own scope: its calls are judged from the network). An SDK " +
    "that became ready passes even when no request matched `sdk.script` (bundled with the page's code)",
  why:
    "Without the SDK nothing is tracked and no visitor is bucketed: the experiment silently runs on " +
    "zero traffic from this page.",
  evaluate(context): Finding[] {
    const { script, global } = context.spec.sdk;
    return perLoadedPage(context, (page) => {
      const evidence = { scripts: page.sdkScripts, readyAtMs: page.sdkReadyAtMs };
      const loaded = page.sdkScripts.find((load) => load.status !== null && load.status < 400);
      if (page.callsFromNetwork?.reason === "no-global") {
        const requests = page.collect.filter((request) => request.events.length > 0).length;
        return {
          status: "warn",
          message: `The page never defined \`window.${global}\`, yet ${requests} collect request(s) carried its events: an npm install that keeps the SDK in its own scope. Its calls were judged from what the collect requests carried; if the page does define the SDK on another global, set sdk.global.`,
          evidence: { ...evidence, collectRequests: requests },
        };
      }
      if (page.sdkReadyAtMs !== null) {
        const from = loaded ? `loaded from ${loaded.url} and` : "(bundled with the page's code: no request matched sdk.script)";
        if (page.callsFromNetwork?.reason === "redefined") {
          return { status: "warn", message: `The SDK ${from} was ready after ${page.sdkReadyAtMs} ms, but ${unwatchable(page.callsFromNetwork)}.`, evidence };
        }
        return { status: "pass", message: `The SDK ${from} was ready after ${page.sdkReadyAtMs} ms.`, evidence };
      }
      if (page.sdkScripts.length === 0) {
        return { status: "fail", message: `No request matched the SDK script glob \`${script}\`: add the SDK's script tag to this page, or fix sdk.script.`, evidence };
      }
      if (!loaded) {
        const first = page.sdkScripts[0]!;
        const why = first.failure ?? `HTTP ${first.status}`;
        return { status: "fail", message: `The SDK script ${first.url} did not load (${why}): fix its URL or the server that hosts it.`, evidence };
      }
      return { status: "fail", message: `The SDK script loaded but \`window.${global}\` never became the ready SDK: check sdk.global, sdk.ready and the SDK's initialisation.`, evidence };
    });
  },
});

/** sdk.order: no call runs before the SDK has loaded. */
export const sdkOrder = defineCheck({
  id: "sdk.order",
  scope: "page",
  title: "The SDK loads before any track or identify call",
  failureTitle: "Calls run before the SDK has loaded",
  family: "SDK installation and load order",
  severity: "critical",
  checklist: null,
  failsWhen:
    "a call ran before the SDK had loaded and was lost (**fail**), or was only queued by a stub snippet " +
    "(**warn**); **warn** too when the calls could not be watched (a frozen API, a redefined global) and " +
    "were judged from the collect requests",
  why:
    "A call made before the SDK exists throws and is lost for good: the conversions of the fastest " +
    "visitors never reach the experiment. A stub snippet saves them by queueing, but their delivery then " +
    "depends on the SDK loading at all before the visitor leaves.",
  evaluate(context): Finding[] {
    const { global } = context.spec.sdk;
    return perLoadedPage(context, (page) => {
      // Page views are events.pageviews' business: a page() queued by a snippet is how page views are sent.
      const calls = page.calls.filter((call) => call.kind !== "page");
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
      return { status: "pass", message: calls.length === 0 ? "No call was made before the SDK loaded (no calls at all)." : `All ${calls.length} call(s) ran after the SDK loaded.` };
    });
  },
});

/** The `sdk.*` checks, in the order the report shows them. */
export const SDK_CHECKS = [sdkPresent, sdkOrder, sdkKey] as const;

/** Why the audit could not watch the calls, and what it did instead. */
function unwatchable(limit: NonNullable<PageArtifacts["callsFromNetwork"]>): string {
  const why = {
    frozen: `\`${limit.detail}\` is frozen (non-writable and non-configurable), so it cannot be watched without changing the page`,
    redefined: `the page redefined \`${limit.detail}\` beyond the audit's reach (a non-configurable property)`,
    "no-global": `the page never defined \`${limit.detail}\` (an npm install that keeps the SDK in its own scope)`,
  }[limit.reason];
  return `${why}; its calls were judged from what the collect requests carried`;
}
