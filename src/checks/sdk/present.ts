import type { JudgedPage } from "../../artifacts/delivery.js";
import type { Judgement } from "../../findings/finding.js";
import { defineCheck, describeCall, perLoadedPage, type Verdict, LOADED_PAGE } from "../check.js";
import { unwatchable } from "./unwatchable.js";

/** sdk.present: the SDK script loaded and defined its global. */
export const sdkPresent = defineCheck({
  id: "sdk.present",
  scope: "page",
  title: "The SDK loads and defines its global",
  failureTitle: "The SDK is missing or broken",
  family: "SDK installation and load order",
  severity: "blocker",
  requires: [...LOADED_PAGE, "sdkScripts", "sdkReadyAtMs", "callsFromNetwork", "calls"],
  failsWhen:
    "the SDK script was not requested, failed, or its global never became the ready SDK (see [When the " +
    "SDK is ready](architecture.md#when-the-sdk-is-ready)); **warn** when the page redefined the global beyond the " +
    "audit's reach, or defined no global while its collect requests show the SDK at work (an npm " +
    "install that keeps the SDK in its own scope: its calls are judged from the network). An SDK " +
    "that became ready passes even when no request matched `sdk.script` (bundled with the page's code). " +
    "Calls made outside the global, on the SDK's own instance (the one a `loaded` callback receives), " +
    "are read from the collect requests that carried them, and the message names them",
  why:
    "Without the SDK nothing is tracked and no visitor is bucketed: the experiment silently runs on " +
    "zero traffic from this page.",
  evaluate(context): Judgement[] {
    const { global } = context.spec.sdk;
    return perLoadedPage(context, (page) => withCallsOutside(presence(page, context.spec.sdk), page, global));
  },
});

/** Says which calls the page made outside its watched global, read from the collect requests that carried them. */
function withCallsOutside(verdict: Verdict, page: JudgedPage, global: string): Verdict {
  // Where no call could be watched (callsFromNetwork), every call was read from the network, and the verdict says why.
  const outside = page.callsFromNetwork === null ? page.calls.filter((call) => call.seenOn === "network") : [];
  if (outside.length === 0) return verdict;
  const calls = outside.map((call) => describeCall(call));
  return {
    ...verdict,
    message: `${verdict.message} ${outside.length} call(s) were made outside \`window.${global}\`, on the SDK's own instance (${calls.join(", ")}): they were read from the collect requests that carried them, each at its request's time.`,
    evidence: { ...verdict.evidence, outsideGlobal: calls },
  };
}

/** Whether the SDK's script loaded and its global became the ready SDK. */
function presence(page: JudgedPage, { script, global }: { script: string; global: string }): Verdict {
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
    const from = loaded
      ? `loaded from ${loaded.url} and`
      : "(bundled with the page's code: no request matched sdk.script)";
    if (page.callsFromNetwork?.reason === "redefined") {
      return {
        status: "warn",
        message: `The SDK ${from} was ready after ${page.sdkReadyAtMs} ms, but ${unwatchable(page.callsFromNetwork)}.`,
        evidence,
      };
    }
    return { status: "pass", message: `The SDK ${from} was ready after ${page.sdkReadyAtMs} ms.`, evidence };
  }
  if (page.sdkScripts.length === 0) {
    return {
      status: "fail",
      message: `No request matched the SDK script glob \`${script}\`: add the SDK's script tag to this page, or fix sdk.script.`,
      evidence,
    };
  }
  if (!loaded) {
    const first = page.sdkScripts[0]!;
    const why = first.failure ?? `HTTP ${first.status}`;
    return {
      status: "fail",
      message: `The SDK script ${first.url} did not load (${why}): fix its URL or the server that hosts it.`,
      evidence,
    };
  }
  return {
    status: "fail",
    message: `The SDK script loaded but \`window.${global}\` never became the ready SDK: check sdk.global, sdk.ready and the SDK's initialisation.`,
    evidence,
  };
}
