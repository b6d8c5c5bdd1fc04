import { expect, test } from "@playwright/test";
import type { CapturedCall, CollectRequest } from "../../src/artifacts/types.js";
import { withCallsOnTheWire } from "../../src/gather/calls-on-the-wire.js";
import { carriedCalls } from "../../src/gather/carried-calls.js";
import { callWith } from "../support/artifacts.js";

/**
 * The calls a page made: those watched on its global, then the calls its collect requests carried
 * that none of them explains (made on the SDK's instance), each read once.
 */

const posthog = { track: ["capture"], identify: ["identify"], page: [], pageEvent: "$pageview" };
const mixpanel = { track: ["track"], identify: ["identify", "people.set"], page: [], pageEvent: "$mp_web_page_view" };
const amplitude = { track: ["track"], identify: ["identify"], page: [], pageEvent: null };

/** A collect request that left at `atMs` with these events. */
const request = (atMs: number, ...raws: unknown[]): CollectRequest => ({
  url: "http://127.0.0.1:1/i/v0/e/",
  method: "POST",
  atMs,
  status: 200,
  failure: null,
  events: raws.map((raw) => ({ strings: [], raw })),
  decodeError: null,
  intercepted: false,
});

/** PostHog's event as posthog-js sends it: the page's properties among those its library adds to every event. */
const posthogEvent = (event: string, uuid: string, properties: Record<string, unknown> = {}, $set?: object) => ({
  uuid,
  event,
  properties: {
    ...properties,
    token: "phc_key",
    distinct_id: "user-123",
    $lib: "web",
    $lib_version: "1.449.2",
    $current_url: "http://127.0.0.1:1/signup",
    ...($set ? { $set } : {}),
  },
  ...($set ? { $set } : {}),
});

const TRAITS = { plan: "pro", account_type: "business" };

/** The calls these requests carried, read as a PostHog page's. */
const carriedByPosthog = (...requests: CollectRequest[]) =>
  carriedCalls(requests, posthog, "http://127.0.0.1:1/signup");

/** What the page made, as `kind name (where it was seen) at atMs`. */
const told = (calls: readonly CapturedCall[]) =>
  calls.map((call) => `${call.kind} ${call.name} (${call.seenOn ?? "global"}) at ${call.atMs}`);

test("a call watched on the global and carried by a request is one call, the watched one with its own time", () => {
  const watched = [
    callWith({ kind: "identify", method: "identify", name: "user-123", properties: TRAITS, atMs: 900 }),
    callWith({ method: "capture", name: "signup_success", properties: { plan: "pro" }, atMs: 910 }),
  ];
  const carried = carriedByPosthog(
    request(1_000, posthogEvent("$identify", "u-1", {}, TRAITS)),
    request(3_500, posthogEvent("signup_success", "u-2", { plan: "pro" })),
  );
  expect(told(withCallsOnTheWire(watched, carried))).toEqual([
    "identify user-123 (global) at 900",
    "track signup_success (global) at 910",
  ]);
});

test("calls made on the SDK's instance are read from their requests, at each request's time, with the page's own properties", () => {
  const carried = carriedByPosthog(
    request(1_000, posthogEvent("$identify", "u-1", {}, TRAITS)),
    request(3_500, posthogEvent("signup_success", "u-2", { plan: "pro" })),
  );
  const made = withCallsOnTheWire([], carried);
  expect(told(made)).toEqual(["identify user-123 (network) at 1000", "track signup_success (network) at 3500"]);
  expect(made.map((call) => call.properties)).toEqual([TRAITS, { plan: "pro" }]);
});

test("each watched call explains one carried call: a second one of the same name, made on the instance, is a call of its own", () => {
  const watched = [callWith({ method: "capture", name: "signup_success", properties: { plan: "pro" }, atMs: 910 })];
  const carried = carriedByPosthog(
    request(
      3_500,
      posthogEvent("signup_success", "u-2", { plan: "pro" }),
      posthogEvent("signup_success", "u-3", { plan: "pro" }),
    ),
    // A retry of the first, under the id PostHog gave it: still one call.
    request(4_000, posthogEvent("signup_success", "u-2", { plan: "pro" })),
  );
  expect(told(withCallsOnTheWire(watched, carried))).toEqual([
    "track signup_success (global) at 910",
    "track signup_success (network) at 3500",
  ]);
});

test("an identify without a user id (Mixpanel's people.set) explains the carried identify with its attributes, not the named one's", () => {
  const watched = [
    callWith({ kind: "identify", method: "identify", name: "user-123", properties: null, atMs: 900 }),
    callWith({ kind: "identify", method: "people.set", name: null, properties: TRAITS, atMs: 901 }),
  ];
  const carried = carriedCalls(
    [
      // The engage request leaves first, its $distinct_id the user's: it is people.set's, not identify's.
      request(1_000, { $token: "tok", $distinct_id: "user-123", $set: TRAITS }),
      request(5_000, { event: "$identify", properties: { distinct_id: "user-123", $lib_version: "2.83.0" } }),
    ],
    mixpanel,
    "http://127.0.0.1:1/signup",
  );
  expect(told(withCallsOnTheWire(watched, carried))).toEqual([
    "identify user-123 (global) at 900",
    "identify null (global) at 901",
  ]);
});

test("a call lost before the SDK existed explains nothing: the same event sent later by the instance is a call", () => {
  const watched = [callWith({ method: "capture", name: "signup_success", state: "lost", atMs: 100 })];
  const carried = carriedByPosthog(request(3_500, posthogEvent("signup_success", "u-2")));
  expect(told(withCallsOnTheWire(watched, carried))).toEqual([
    "track signup_success (global) at 100",
    "track signup_success (network) at 3500",
  ]);
});

test("the events an SDK sends by itself are no call: PostHog's and Mixpanel's $ events, Amplitude's own events and its campaign $identify", () => {
  const carried = [
    ...carriedByPosthog(
      request(
        1_000,
        posthogEvent("$autocapture", "u-4"),
        posthogEvent("$pageleave", "u-5"),
        posthogEvent("$web_vitals", "u-6"),
        posthogEvent("$feature_flag_called", "u-7"),
        posthogEvent("$set", "u-8", {}, TRAITS),
        { event: "$mp_click", properties: { $lib_version: "2.83.0" } },
        { event: "mp_page_view", properties: {} },
      ),
    ),
    ...carriedCalls(
      [
        request(
          1_000,
          { event_type: "session_start", insert_id: "a-1" },
          { event_type: "[Amplitude] Page Viewed", insert_id: "a-2" },
          {
            event_type: "$identify",
            insert_id: "a-3",
            user_properties: { $setOnce: { initial_referrer: "EMPTY", initial_utm_source: "EMPTY" } },
          },
        ),
      ],
      amplitude,
      "http://127.0.0.1:1/signup",
    ),
  ];
  expect(told(withCallsOnTheWire([], carried))).toEqual([]);
});
