import { expect, test } from "@playwright/test";
import {
  deliverySettled,
  matchDeliveries,
  reconcileDeliveries,
  type JudgedPage,
} from "../../src/artifacts/delivery.js";
import { callWith, collectOf, pageWith } from "../support/artifacts.js";

test("each event carries one call, in order", () => {
  const first = callWith({ name: "add_to_cart" });
  const second = callWith({ name: "add_to_cart", atMs: 900 });
  const deliveries = matchDeliveries([first, second], [collectOf([first], 202), collectOf([second], 400)]);
  expect(deliveries.map((match) => match.delivery)).toEqual(["accepted", "rejected"]);
});

test("an identify is matched by its user id", () => {
  const identify = callWith({ kind: "identify", name: "u_42" });
  const request = { ...collectOf([]), events: [{ strings: ["identify", "u_42", "pro"], raw: {} }] };
  expect(matchDeliveries([identify], [request])[0]?.delivery).toBe("accepted");
});

test("named calls claim their events first: people.set's attribute value does not take the track that carries the same value", () => {
  const traits = callWith({ kind: "identify", method: "people.set", name: null, properties: { plan: "pro" } });
  const track = callWith({ name: "signup_success", properties: { plan: "pro" } });
  const batch = { ...collectOf([]), events: [{ strings: ["signup_success", "pro"], raw: {} }] };
  const engage = { ...collectOf([], 400), events: [{ strings: ["$set", "pro"], raw: {} }] };
  const deliveries = matchDeliveries([traits, track], [batch, engage]);
  expect(deliveries.map(({ delivery, ingested: _ingested, request: _request, ...call }) => [call, delivery])).toEqual([
    [traits, "rejected"],
    [track, "accepted"],
  ]);
});

test("an event name claims its event before a user id does: the page view PostHog sends before its $identify carries the new user's id too", () => {
  const identify = callWith({ kind: "identify", method: "identify", name: "user_4411", atMs: 678 });
  const pageView = callWith({ kind: "page", method: "capture", name: "$pageview", atMs: 714 });
  const pageViewSent = { ...collectOf([]), events: [{ strings: ["$pageview", "user_4411"], raw: {} }] };
  const identifySent = { ...collectOf([], 400), events: [{ strings: ["$identify", "user_4411"], raw: {} }] };
  const deliveries = matchDeliveries([identify, pageView], [pageViewSent, identifySent]);
  expect(deliveries.map((call) => [call.name, call.delivery, call.request])).toEqual([
    ["user_4411", "rejected", 1],
    ["$pageview", "accepted", 0],
  ]);
});

test("lost, unmatched and failed calls are dropped", () => {
  const lost = callWith({ state: "lost" });
  const unmatched = callWith({ name: "never_sent" });
  const aborted = callWith({ name: "aborted" });
  const deliveries = matchDeliveries([lost, unmatched, aborted], [collectOf([aborted], null, "net::ERR_ABORTED")]);
  expect(deliveries.map((match) => match.delivery)).toEqual(["dropped", "dropped", "dropped"]);
});

test("delivery is settled once every deliverable call has an answered request", () => {
  const call = callWith();
  expect(deliverySettled([call], [])).toBe(false);
  expect(deliverySettled([call], [collectOf([call], null)])).toBe(false);
  expect(deliverySettled([call], [collectOf([call], 202)])).toBe(true);
  expect(deliverySettled([callWith({ state: "lost" })], [])).toBe(true);
});

test("a call the audit answered inside the browser (traffic.collect: intercept) is intercepted; a refused one rejected", () => {
  const answered = callWith({ name: "answered" });
  const refused = callWith({ name: "refused" });
  const deliveries = matchDeliveries(
    [answered, refused],
    [
      { ...collectOf([answered], 200), intercepted: true },
      { ...collectOf([refused], 400), intercepted: true },
    ],
  );
  expect(deliveries.map((match) => match.delivery)).toEqual(["intercepted", "rejected"]);
});

test("a variation's preview, whose requests the audit answers, never claims the events the service ingested: those vouch for the page's own calls", () => {
  const call = callWith({ name: "cta_clicked" });
  const asIs = pageWith({ calls: [call], collect: [collectOf([call])] });
  const previewed = {
    ...asIs,
    collect: [{ ...collectOf([call]), intercepted: true }],
    variation: { experiment: "CTA wording", name: "Long copy", errors: [] },
  };
  const ingested = [{ kind: "track" as const, name: "cta_clicked", receivedAtMs: null }];
  const [forPreview, forPage] = reconcileDeliveries([previewed, asIs], ingested);
  const judgement = (page: JudgedPage | undefined) =>
    page?.calls.map(({ delivery, ingested, request }) => ({ delivery, ingested, request }));
  expect(judgement(forPreview)).toEqual([{ delivery: "intercepted", ingested: null, request: 0 }]);
  expect(judgement(forPage)).toEqual([{ delivery: "accepted", ingested: true, request: 0 }]);
});

test("the service's list of ingested events vouches for tracks and identifies only: a page view keeps the collector's answer", () => {
  const pageView = callWith({ kind: "page", method: "page", name: "/pricing" });
  const track = callWith({ name: "cta_clicked" });
  const page = pageWith({ calls: [pageView, track], collect: [collectOf([pageView, track])] });
  const [judged] = reconcileDeliveries([page], [{ kind: "track", name: "cta_clicked", receivedAtMs: null }]);
  expect(judged?.calls.map(({ kind, delivery, ingested }) => ({ kind, delivery, ingested }))).toEqual([
    { kind: "page", delivery: "accepted", ingested: null },
    { kind: "track", delivery: "accepted", ingested: true },
  ]);
});
