import { expect, test } from "@playwright/test";
import { recentEventListSchema } from "../../src/api/schemas.js";
import { eventsDelivered } from "../../src/checks/events/delivered.js";
import {
  carrierOf,
  ingestedEvents,
  ingestionUnverified,
  reconcileDeliveries,
  type JudgedPage,
} from "../../src/artifacts/delivery.js";
import { callRecords } from "../../src/results/run-result.js";
import {
  apiWith,
  callWith,
  collectOf,
  contextOf,
  exchangeOf,
  failedExchange,
  normalised,
  pageWith,
  specWithApi,
} from "../support/artifacts.js";

/** Ingestion reconciliation: called → sent → ingested, with the service's recent events as the last word. */

const STARTED = "2030-01-01T10:00:00.000Z";
const AFTER = "2030-01-01T10:00:05.000Z";
const BEFORE = "2030-01-01T09:59:00.000Z";

const recent = (events: Record<string, unknown>[]) =>
  apiWith({
    startedAt: STARTED,
    recentEvents: exchangeOf(
      normalised(recentEventListSchema, events),
      "http://127.0.0.1:47411/v1/projects/prj_demo_staging/events",
    ),
  });
const spec = specWithApi({ recentEventsPath: "/v1/projects/{project}/events" });

const signup = callWith({ name: "signup_success" });
const identify = callWith({ kind: "identify", name: "u_42", properties: { plan: "pro" } });
const page = pageWith({ page: "signup", calls: [identify, signup], collect: [collectOf([identify, signup], 202)] });

test("only events received after the API gather began count, by the service's clock", () => {
  const api = recent([
    { kind: "track", name: "signup_success", receivedAt: AFTER },
    { kind: "track", name: "old_event", receivedAt: BEFORE },
    { kind: "identify", userId: "u_42", receivedAt: AFTER },
    { kind: "track", name: "untimed" },
    { kind: "pageview", name: "ignored", receivedAt: AFTER },
  ]);
  expect(ingestedEvents(api)).toEqual([
    { kind: "track", name: "signup_success", receivedAtMs: Date.parse(AFTER) },
    { kind: "identify", name: "u_42", receivedAtMs: Date.parse(AFTER) },
    { kind: "track", name: "untimed", receivedAtMs: null },
  ]);
  expect(ingestedEvents(apiWith())).toBeNull();
  expect(ingestedEvents(null)).toBeNull();
});

test("a call the collector accepted is accepted only if the service lists it", () => {
  const ingested = ingestedEvents(recent([{ kind: "identify", userId: "u_42", receivedAt: AFTER }]))!;
  const [judged] = reconcileDeliveries([page], ingested);
  expect(
    judged!.calls.map((call) => [call.kind, call.delivery, call.ingested, carrierOf(judged!, call)?.status]),
  ).toEqual([
    ["identify", "accepted", true, 202],
    ["track", "dropped", false, 202],
  ]);
});

test("without recent events, delivery is the collector's answer", () => {
  const [judged] = reconcileDeliveries([page], null);
  expect(judged!.calls.map((call) => [call.delivery, call.ingested])).toEqual([
    ["accepted", null],
    ["accepted", null],
  ]);
});

test("each listed event vouches for one call, across pages in order", () => {
  const mobile = { ...page, viewport: "mobile" };
  const ingested = ingestedEvents(
    recent([
      { kind: "track", name: "signup_success", receivedAt: AFTER },
      { kind: "identify", userId: "u_42", receivedAt: AFTER },
    ]),
  )!;
  const judged = reconcileDeliveries([page, mobile], ingested);
  expect(judged.map((each) => each.calls.map((call) => call.delivery))).toEqual([
    ["accepted", "accepted"],
    ["dropped", "dropped"],
  ]);
});

test("the service is the ground truth: a call whose request the browser never saw, but that it lists, is accepted", () => {
  const unseen = pageWith({ calls: [signup], collect: [] });
  const [judged] = reconcileDeliveries(
    [unseen],
    ingestedEvents(recent([{ kind: "track", name: "signup_success", receivedAt: AFTER }])),
  );
  expect(judged!.calls.map((call) => call.delivery)).toEqual(["accepted"]);
});

test("lost and rejected calls stay as they are", () => {
  const lost = callWith({ name: "early", state: "lost" });
  const coupon = callWith({ name: "coupon_applied" });
  const broken = pageWith({ calls: [lost, coupon], collect: [collectOf([coupon], 400)] });
  const listed = recent([
    { kind: "track", name: "early", receivedAt: AFTER },
    { kind: "track", name: "coupon_applied", receivedAt: AFTER },
  ]);
  const [judged] = reconcileDeliveries([broken], ingestedEvents(listed));
  expect(judged!.calls.map((call) => call.delivery)).toEqual(["dropped", "rejected"]);
});

test("events.delivered fails on a 2xx the service never ingested, saying so", () => {
  const api = recent([{ kind: "identify", userId: "u_42", receivedAt: AFTER }]);
  const [finding] = eventsDelivered.evaluate(contextOf([page], spec, api));
  expect(finding?.status).toBe("fail");
  expect(finding?.message).toBe(
    'track("signup_success") got HTTP 202 from the collector, but the service never ingested it (it is not in the project\'s recent events). ' +
      "Check that the page sends this environment's project key and that the service does not filter the traffic (bots, blocked origins).",
  );
  expect(finding?.evidence).toMatchObject({
    deliveries: [
      { call: "identify(…)", delivery: "accepted", ingested: true },
      { call: 'track("signup_success")', delivery: "dropped", ingested: false },
    ],
  });
});

test("events.delivered passes when the service lists every call", () => {
  const api = recent([
    { kind: "track", name: "signup_success", receivedAt: AFTER },
    { kind: "identify", userId: "u_42", receivedAt: AFTER },
  ]);
  const [finding] = eventsDelivered.evaluate(contextOf([page], spec, api));
  expect(finding).toMatchObject({
    status: "pass",
    message: "All 2 call(s) were delivered and accepted and listed by the service as ingested.",
  });
});

test("events.delivered warns when ingestion was asked for but could not be checked", () => {
  const unread = apiWith({
    recentEvents: failedExchange({ kind: "http", status: 404, detail: "HTTP 404 with an empty body" }),
  });
  const [finding] = eventsDelivered.evaluate(contextOf([page], spec, unread));
  expect(finding).toMatchObject({
    status: "warn",
    message:
      "All 2 call(s) were accepted by the collector, but whether the service ingested them is unknown: the service API failed (HTTP 404 with an empty body). " +
      "Fix the API access (see the api.* checks) or the spec's api.recentEventsPath.",
  });
  expect(ingestionUnverified(spec, apiWith({ keySet: false, projects: null, goals: null }))).toBe(
    "no API key is set in SERVICE_API_KEY",
  );
  expect(ingestionUnverified(spec, apiWith({ projects: exchangeOf([]) }))).toBe(
    "the project is not in the service's project list",
  );
  expect(ingestionUnverified(specWithApi(), apiWith())).toBeNull();
});

test("summary.json's calls carry the deliveries the checks judged, not the collector's answers", () => {
  const [identify, track] = page.calls;
  const judged: JudgedPage = {
    ...page,
    reload: null,
    calls: [
      { ...identify!, delivery: "accepted", ingested: true, request: 0 },
      { ...track!, delivery: "dropped", ingested: false, request: 0 },
    ],
  };
  expect(
    callRecords({ spec: "audits/demo.yaml", environment: "staging", pages: [judged] }).map((call) => [
      call.kind,
      call.name,
      call.delivery,
    ]),
  ).toEqual([
    ["identify", null, "accepted"],
    ["track", "signup_success", "dropped"],
  ]);
});
