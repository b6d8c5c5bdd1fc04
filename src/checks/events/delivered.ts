import { carrierOf, ingestionUnverified, type JudgedCall } from "../../artifacts/delivery.js";
import type { CollectRequest } from "../../artifacts/types.js";
import type { Judgement } from "../../findings/finding.js";
import { botFilterCause } from "../bot-filter.js";
import { offlineCause } from "../offline.js";
import { EXPERIMENT_PRESETS } from "../../vendors/experiment-presets.js";
import { defineCheck, describeCall, perLoadedPage, LOADED_PAGE } from "../check.js";

/** events.delivered: every call reached the collector and was accepted. */
export const eventsDelivered = defineCheck({
  id: "events.delivered",
  scope: "page",
  title: "Every call is delivered and accepted",
  failureTitle: "Calls were dropped or rejected",
  family: "Delivery",
  severity: "critical",
  requires: [...LOADED_PAGE, "calls", "collect", "visitor"],
  failsWhen:
    "a call was never delivered (when no request carried any of the page's calls, the finding names what kept " +
    "them: a browser that reported itself offline, to an SDK that holds calls then (see [The " +
    "browser](getting-started.md#the-browser)), or else a browser that showed what the SDK's bot filter reads, " +
    "with the SDK's setting (see [A visitor's browser](audit-traffic.md#a-visitors-browser))), " +
    "the collector rejected it, the experimentation SDK refused to send it (its reason is named: see [The events " +
    "tracked through the SDK](experiments.md#the-events-tracked-through-the-sdk)), or (with `api.recentEventsPath`) " +
    "the service never ingested a call the " +
    "collector accepted; **warn** when ingestion was asked for but could not be checked (see [Service " +
    "API](service-api.md#ingestion))",
  why:
    "A call the page made but the service never accepted is a conversion that is silently missing: " +
    "batches lost when the page navigates away, or payloads the collector rejects, bias results toward " +
    "the visitors whose events happen to survive.",
  evaluate(context): Judgement[] {
    const unverified = ingestionUnverified(context.spec, context.api);
    const preset = context.spec.experimentSdk ? EXPERIMENT_PRESETS[context.spec.experimentSdk.preset] : undefined;
    const experimentVendor = preset?.vendor ?? "the experimentation SDK";
    const refusedAdvice = preset?.exposures?.knownEvents?.advice;
    return perLoadedPage(context, (page) => {
      // Calls lost before the SDK existed are sdk.order's failure, not a delivery problem.
      const calls = page.calls.filter((call) => call.state !== "lost");
      // With traffic.collect: intercept the audit stands in for the collector, so a body it cannot read fails here.
      const unreadable = page.collect.filter((request) => request.intercepted && request.decodeError !== null);
      if (calls.length === 0 && unreadable.length === 0)
        return { status: "skip", message: "No call was made, so there was nothing to deliver." };
      const carrier = (call: JudgedCall) => carrierOf(page, call);
      const status = (call: JudgedCall) => carrier(call)?.status ?? call.sentWith?.status ?? null;
      const described = (call: JudgedCall) =>
        call.sdk === "experiment" ? `${describeCall(call)} through ${experimentVendor}` : describeCall(call);
      const rejected = calls.filter((call) => call.delivery === "rejected");
      const dropped = calls.filter((call) => call.delivery === "dropped");
      const refused = dropped.filter((call) => call.refused !== undefined);
      const evidence = {
        deliveries: calls.map((call) => ({
          call: described(call),
          delivery: call.delivery,
          status: status(call),
          ingested: call.ingested,
          ...(call.refused === undefined ? {} : { refused: call.refused }),
        })),
        ...(unverified === null ? {} : { ingestionUnverified: unverified }),
      };
      const notIngested = dropped.filter((call) => collectorAcceptedOnly(call, carrier(call)));
      // A browser that says it is offline (to an SDK that then holds its calls) and an SDK's bot filter
      // keep every call on the page, before any request: only a page whose calls no request carried is
      // their doing. The analytics SDK's calls tell the browser's network; the browser comes first.
      const offline =
        unreadable.length === 0 && noneCarried(calls.filter((call) => call.sdk !== "experiment"))
          ? offlineCause(context.spec.sdk, page.visitor)
          : null;
      const botFilter = offline === null && noneCarried(calls) ? botFilterCause(context.spec.sdk, page.visitor) : null;
      const problems = [
        ...unreadable.map(
          (request) =>
            `A collect request to ${new URL(request.url).pathname} could not be read (${request.decodeError}), so the audit answered it HTTP ${request.status}`,
        ),
        ...rejected.map(
          (call) =>
            `${described(call)} was rejected by ${call.sdk === "experiment" ? "its endpoint" : "the collector"} (HTTP ${status(call)})`,
        ),
        ...notIngested.map(
          (call) =>
            `${describeCall(call)} got HTTP ${carrier(call)?.status} from the collector, but the service never ingested it (it is not in the project's recent events)`,
        ),
        ...refused.map((call) => `${described(call)} was never sent: the SDK refused it ("${call.refused}")`),
        ...dropped
          .filter((call) => !notIngested.includes(call) && !refused.includes(call))
          .map((call) => `${described(call)} was never delivered${whyUndelivered(carrier(call))}`),
      ];
      if (problems.length > 0) {
        // What kept the calls on the page is said whichever problem's advice comes first.
        const heldBy = offline ?? botFilter?.advice ?? null;
        const advice =
          refused.length > 0 && refusedAdvice !== undefined
            ? refusedAdvice
            : unreadable.length > 0
              ? "Make the SDK send JSON, text/plain JSON, form-encoded JSON or gzip, or audit with traffic.collect: send so that the collector judges the payload"
              : rejected.length > 0
                ? "Fix the call's arguments so the collector accepts them"
                : notIngested.length > 0
                  ? "Check that the page sends this environment's project key and that the service does not filter the traffic (bots, blocked origins)"
                  : (heldBy ?? "Let the SDK flush before the page navigates away (or use its beacon transport)");
        // The finding is about the experimentation SDK when every call it fails is that SDK's.
        const failed = [...rejected, ...dropped];
        const about =
          unreadable.length === 0 && failed.every((call) => call.sdk === "experiment") ? "experiment" : null;
        return {
          status: "fail",
          message: `${problems.join("; ")}. ${[advice, ...(heldBy === null || heldBy === advice ? [] : [heldBy])].join(". ")}.`,
          evidence: {
            ...evidence,
            ...(offline === null ? {} : { offline: true }),
            ...(botFilter === null ? {} : { botFilter: botFilter.sign }),
            ...(about === null ? {} : { sdk: about }),
          },
        };
      }
      if (unverified !== null) {
        return {
          status: "warn",
          message: `All ${calls.length} call(s) were accepted by the collector, but whether the service ingested them is unknown: ${unverified}. Fix the API access (see the api.* checks) or the spec's api.recentEventsPath.`,
          evidence,
        };
      }
      const how = calls.some((call) => call.delivery === "intercepted")
        ? " by the audit inside the browser (traffic.collect: intercept); nothing was sent to the service"
        : calls.some((call) => call.ingested === true)
          ? " and listed by the service as ingested"
          : "";
      return { status: "pass", message: `All ${calls.length} call(s) were delivered and accepted${how}.`, evidence };
    });
  },
});

/** Whether there are calls and no request carried any of them: each stayed on the page. */
function noneCarried(calls: readonly JudgedCall[]): boolean {
  return (
    calls.length > 0 &&
    calls.every((call) => call.delivery === "dropped" && call.request === null && call.sentWith === undefined)
  );
}

/** What the request that carried an undelivered call shows: its network error, or that it was still waiting for an answer; empty when no request carried it. */
function whyUndelivered(carrier: CollectRequest | null): string {
  if (carrier === null) return "";
  if (carrier.failure) return ` (${carrier.failure})`;
  return ` (its request, sent ${carrier.atMs} ms after the page started, had no answer when the page was done)`;
}

/** A call the collector answered (through `carrier`) with a 2xx that the service then did not list. */
function collectorAcceptedOnly(call: JudgedCall, carrier: CollectRequest | null): boolean {
  const status = carrier?.status ?? null;
  return call.ingested === false && status !== null && status >= 200 && status < 300;
}
