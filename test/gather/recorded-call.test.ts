import { expect, test } from "@playwright/test";
import { toCall } from "../../src/gather/recorded-call.js";
import type { RecorderMessage } from "../../src/gather/recorder.js";
import type { SdkSpec } from "../../src/audit-spec/schema.js";

type CallMessage = Extract<RecorderMessage, { type: "call" }>;

const START = 1_000_000;
const message = (kind: CallMessage["kind"], method: string, ...args: unknown[]): CallMessage => ({
  type: "call",
  kind,
  method,
  args,
  state: "direct",
  at: START + 420,
  url: "http://127.0.0.1:1/checkout",
});
type CallSdk = Pick<SdkSpec, "traits" | "properties" | "pageEvent">;
const plain: CallSdk = { traits: null, properties: null, pageEvent: null };
const amplitude: CallSdk = {
  traits: "_properties.$set",
  properties: "event_properties",
  pageEvent: "[Amplitude] Page Viewed",
};
const read = (sdk: CallSdk, call: CallMessage) => {
  const { kind, method, name, properties } = toCall(call, (at) => at - START, sdk);
  return { kind, method, name, properties };
};

test("track(name, properties) is read from its arguments, with or without sdk.properties", () => {
  const order = { order_id: "o_1", revenue: 12.5 };
  for (const sdk of [plain, amplitude])
    expect(read(sdk, message("track", "track", "Order Completed", order))).toEqual({
      kind: "track",
      method: "track",
      name: "Order Completed",
      properties: order,
    });
  expect(read(plain, message("track", "track", "Signed Up"))).toEqual({
    kind: "track",
    method: "track",
    name: "Signed Up",
    properties: null,
  });
});

test("with sdk.properties, an event object gives the name from event_type and the properties from that path", () => {
  expect(
    read(
      amplitude,
      message("track", "track", {
        event_type: "Order Completed",
        event_properties: { order_id: "o_1", revenue: "12.50" },
        user_id: "buyer-7",
      }),
    ),
  ).toEqual({
    kind: "track",
    method: "track",
    name: "Order Completed",
    properties: { order_id: "o_1", revenue: "12.50" },
  });
  // No properties at the path: none, as track(name) without them.
  expect(read(amplitude, message("track", "track", { event_type: "Signed Up" }))).toEqual({
    kind: "track",
    method: "track",
    name: "Signed Up",
    properties: null,
  });
  // A nested path, and a name under `event`.
  expect(
    read(
      { ...plain, properties: "payload.props" },
      message("track", "send", { event: "Signed Up", payload: { props: { plan: "pro" } } }),
    ),
  ).toEqual({ kind: "track", method: "send", name: "Signed Up", properties: { plan: "pro" } });
});

test("a second argument beside an event object gives the properties, as Amplitude's own event builder takes them", () => {
  expect(
    read(
      amplitude,
      message("track", "track", { event_type: "Order Completed", event_properties: { revenue: 1 } }, { revenue: 2 }),
    ).properties,
  ).toEqual({ revenue: 2 });
});

test("without sdk.properties an event object is not read: no name, and only a second argument's properties", () => {
  expect(
    read(plain, message("track", "track", { event_type: "Order Completed", event_properties: { revenue: 1 } })),
  ).toEqual({ kind: "track", method: "track", name: null, properties: null });
});

test("an event object named sdk.pageEvent is a page view", () => {
  expect(
    read(amplitude, message("track", "track", { event_type: "[Amplitude] Page Viewed", event_properties: {} })),
  ).toEqual({ kind: "page", method: "track", name: "[Amplitude] Page Viewed", properties: {} });
});

test("identify-kind calls are read as before: the user id, and the first object or the traits path in it", () => {
  const builder = { _properties: { $set: { plan: "pro" } } };
  expect(read(amplitude, message("identify", "identify", builder))).toEqual({
    kind: "identify",
    method: "identify",
    name: null,
    properties: { plan: "pro" },
  });
  expect(read(plain, message("identify", "identify", "buyer-7", { plan: "pro" }))).toEqual({
    kind: "identify",
    method: "identify",
    name: "buyer-7",
    properties: { plan: "pro" },
  });
  expect(read(plain, message("page", "page", { path: "/checkout" }))).toEqual({
    kind: "page",
    method: "page",
    name: null,
    properties: { path: "/checkout" },
  });
});

test("the call keeps when and where it was made", () => {
  expect(toCall(message("track", "track", "Signed Up"), (at) => at - START, plain)).toMatchObject({
    atMs: 420,
    state: "direct",
    documentUrl: "http://127.0.0.1:1/checkout",
  });
});
