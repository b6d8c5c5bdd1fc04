import type { Judgement } from "../../findings/finding.js";
import { nearMisses, orList } from "../../text/wording.js";
import { defineCheck, madeCalls, pageSpecOf, perLoadedPage, LOADED_PAGE } from "../check.js";

/** events.expected: every `track` the spec expects on a page happened there, on this viewport. */
export const eventsExpected = defineCheck({
  id: "events.expected",
  scope: "page",
  title: "The expected events fire",
  failureTitle: "An expected event did not fire",
  family: "Goal/event mismatch",
  severity: "critical",
  requires: [...LOADED_PAGE, "calls"],
  failsWhen:
    "an event in the page's `expect` did not fire on that viewport (near misses are named; a call lost " +
    "before the SDK existed never counts as fired)",
  why:
    "A goal can only count conversions the page reports. An event that fires on desktop but not on " +
    "mobile (or only in one journey) skews every variation's conversion rate without any error.",
  evaluate(context): Judgement[] {
    return perLoadedPage(context, (page) => {
      const expected = pageSpecOf(context, page.page)?.expect;
      const wantedTracks = expected?.track ?? [];
      if (wantedTracks.length === 0 && !expected?.identify) {
        return { status: "skip", message: "The spec expects no event on this page." };
      }
      // A call lost before the SDK existed never happened for the service: it satisfies nothing.
      const made = madeCalls(page);
      const fired = made.filter((call) => call.kind === "track").map((call) => call.name ?? "");
      const missing = wantedTracks.filter((name) => !fired.includes(name));
      const problems = missing.map((name) => {
        const close = nearMisses(name, fired);
        return close.length > 0
          ? `\`${name}\` did not fire (did you mean ${orList(close)}, which did?)`
          : `\`${name}\` did not fire`;
      });
      if (expected?.identify && !made.some((call) => call.kind === "identify"))
        problems.push("no identify call was made");
      const evidence = { expected: wantedTracks, identifyExpected: expected?.identify ?? false, fired };
      if (problems.length > 0) {
        return {
          status: "fail",
          message: `On ${page.viewport}: ${problems.join("; ")}. Make the page call them, or fix the spec's expectations.`,
          evidence,
        };
      }
      return {
        status: "pass",
        message: `Every expected call was made (${[...wantedTracks, ...(expected?.identify ? ["identify"] : [])].join(", ")}).`,
        evidence,
      };
    });
  },
});
