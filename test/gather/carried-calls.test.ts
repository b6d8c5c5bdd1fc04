import { expect, test } from "@playwright/test";
import type { CollectRequest } from "../../src/artifacts/types.js";
import { carriedCalls } from "../../src/gather/carried-calls.js";

const request = (...raws: unknown[]): CollectRequest => ({
  url: "http://127.0.0.1:1/v1/t",
  method: "POST",
  atMs: 700,
  status: 200,
  failure: null,
  events: raws.map((raw) => ({ strings: [], raw })),
  decodeError: null,
  intercepted: false,
});
const sdk = { track: ["capture"], identify: ["identify", "people.set"], page: ["page"], pageEvent: "$pageview" };
const read = (...raws: unknown[]) =>
  carriedCalls([request(...raws)], sdk, "http://127.0.0.1:1/").map(({ kind, method, name, properties }) => ({
    kind,
    method,
    name,
    properties,
  }));

test("reads Segment's and RudderStack's track and identify, and their page views as page-kind calls", () => {
  expect(
    read(
      { type: "track", event: "signup_success", properties: { plan: "pro" }, writeKey: "wk" },
      { type: "identify", userId: "user-123", traits: { plan: "pro" } },
      { type: "identify", userId: "user-123", context: { traits: { account_type: "business" } } },
      { type: "page", name: "Home" },
    ),
  ).toEqual([
    { kind: "track", method: "capture", name: "signup_success", properties: { plan: "pro" } },
    { kind: "identify", method: "identify", name: "user-123", properties: { plan: "pro" } },
    { kind: "identify", method: "identify", name: "user-123", properties: { account_type: "business" } },
    { kind: "page", method: "page", name: "Home", properties: null },
  ]);
});

test("reads a track named sdk.pageEvent as a page view, at the URL its payload records", () => {
  const [call] = carriedCalls(
    [request({ event: "$pageview", properties: { $current_url: "http://127.0.0.1:1/app/pricing?plan=pro" } })],
    sdk,
    "http://127.0.0.1:1/app",
  );
  expect(call).toMatchObject({
    kind: "page",
    method: "page",
    name: "$pageview",
    documentUrl: "http://127.0.0.1:1/app/pricing?plan=pro",
  });
});

test("an event sent again under its message id is a retry of one call; another id is another call", () => {
  const track = (messageId: string) => ({ type: "track", event: "cta_clicked", messageId });
  expect(
    carriedCalls([request(track("m-1")), request(track("m-1"), track("m-2"))], sdk, "http://127.0.0.1:1/").map(
      (call) => call.name,
    ),
  ).toEqual(["cta_clicked", "cta_clicked"]);
});

test("reads PostHog's $identify with $set and Mixpanel's engage $set as identify calls", () => {
  expect(
    read(
      { event: "$identify", properties: { distinct_id: "user-123", $set: { plan: "pro" } } },
      { $token: "tok", $distinct_id: "user-123", $set: { account_type: "business" } },
      { event: "Signup Success", properties: { token: "tok" } },
    ),
  ).toEqual([
    { kind: "identify", method: "identify", name: "user-123", properties: { plan: "pro" } },
    { kind: "identify", method: "identify", name: "user-123", properties: { account_type: "business" } },
    { kind: "track", method: "capture", name: "Signup Success", properties: { token: "tok" } },
  ]);
});

test("reads Amplitude's event_type and event_properties, and its $identify's user_properties.$set", () => {
  expect(
    read(
      { event_type: "$identify", user_id: "buyer-7", user_properties: { $set: { plan: "pro" } }, insert_id: "i-1" },
      {
        event_type: "Order Completed",
        user_id: "buyer-7",
        event_properties: { order_id: "ord_1", revenue: "42.50" },
        insert_id: "i-2",
      },
    ),
  ).toEqual([
    { kind: "identify", method: "identify", name: "buyer-7", properties: { plan: "pro" } },
    { kind: "track", method: "capture", name: "Order Completed", properties: { order_id: "ord_1", revenue: "42.50" } },
  ]);
});

test("reads generic kind/name/attributes events, and nothing from payloads that name no event", () => {
  expect(
    read(
      { kind: "track", name: "hero_seen" },
      { kind: "identify", userId: "u1", attributes: { plan: "pro" } },
      { hello: "world" },
      "text",
      null,
    ),
  ).toEqual([
    { kind: "track", method: "capture", name: "hero_seen", properties: null },
    { kind: "identify", method: "identify", name: "u1", properties: { plan: "pro" } },
  ]);
});

test("each call carries its request's time and counts as made on the SDK", () => {
  const [call] = carriedCalls([request({ type: "track", event: "x" })], sdk, "http://127.0.0.1:1/page");
  expect(call).toMatchObject({ atMs: 700, state: "direct", documentUrl: "http://127.0.0.1:1/page" });
});

test("each call is placed at the step and route current when its SDK made it, else when its request left; a URL it records names its route", () => {
  const placed: [number | null, number][] = [];
  const placeAt = (madeAtWallMs: number | null, sentAtMs: number) => {
    placed.push([madeAtWallMs, sentAtMs]);
    return madeAtWallMs === null ? { step: 2, route: "/pricing" } : { step: 1, route: "/about" };
  };
  const calls = carriedCalls(
    [
      request(
        { type: "track", event: "stamped", timestamp: "2026-11-28T10:00:00.000Z" },
        { type: "track", event: "unstamped" },
        { type: "page", name: "Team", context: { page: { url: "http://127.0.0.1:1/team?tab=2" } } },
      ),
    ],
    sdk,
    "http://127.0.0.1:1/last",
    placeAt,
  );
  expect(calls.map(({ name, step, route }) => ({ name, step, route }))).toEqual([
    { name: "stamped", step: 1, route: "/about" },
    { name: "unstamped", step: 2, route: "/pricing" },
    { name: "Team", step: 2, route: "/team?tab=2" },
  ]);
  expect(placed).toEqual([
    [Date.parse("2026-11-28T10:00:00.000Z"), 700],
    [null, 700],
    [null, 700],
  ]);
});
