import { expect, test } from "@playwright/test";
import { reconcileDeliveries } from "../../src/artifacts/delivery.js";
import { callRecords } from "../../src/results/run-result.js";
import { callWith, pageWith } from "../support/artifacts.js";

/** summary.json's calls: the page's own, then its reload's (experiment.exposure), each with its unit. */
test("a page's reload lists its calls as the reload unit's, delivered as its collector answered", () => {
  const exposure = callWith({ name: "Experiment Viewed", atMs: 2200 });
  const collected = (atMs: number) => ({
    url: "http://127.0.0.1:47411/v1/collect",
    method: "POST",
    atMs,
    status: 202,
    failure: null,
    events: [{ strings: ["Experiment Viewed"], raw: {} }],
    decodeError: null,
    intercepted: false,
  });
  const [page] = reconcileDeliveries(
    [
      pageWith({
        calls: [callWith({ name: "Experiment Viewed", atMs: 200 })],
        collect: [collected(300)],
        reload: { atMs: 2000, loadError: null, calls: [exposure], collect: [] },
      }),
    ],
    null,
  );
  expect(
    callRecords({ spec: "audits/demo.yaml", environment: "staging", pages: [page!] }).map((call) => [
      call.unit,
      call.name,
      call.atMs,
      call.delivery,
    ]),
  ).toEqual([
    ["page", "Experiment Viewed", 200, "accepted"],
    ["reload", "Experiment Viewed", 2200, "dropped"],
  ]);
  const [answered] = reconcileDeliveries(
    [pageWith({ reload: { atMs: 2000, loadError: null, calls: [exposure], collect: [collected(2300)] } })],
    null,
  );
  expect(callRecords({ spec: "audits/demo.yaml", environment: "staging", pages: [answered!] })).toEqual([
    expect.objectContaining({ unit: "reload", delivery: "accepted", variation: null }),
  ]);
});

test("a call read from the network, made on the SDK's instance or a page view the SDK made on its own, is listed as seen on the network; a watched one as seen on the global", () => {
  const [page] = reconcileDeliveries(
    [
      pageWith({
        calls: [
          callWith({ name: "watched", atMs: 200 }),
          callWith({ name: "on_instance", atMs: 300, seenOn: "network" }),
          callWith({ kind: "page", name: "$pageview", atMs: 100, madeBy: "sdk" }),
        ],
      }),
    ],
    null,
  );
  expect(
    callRecords({ spec: "audits/demo.yaml", environment: "staging", pages: [page!] }).map((call) => [
      call.name,
      call.seenOn,
    ]),
  ).toEqual([
    ["watched", "global"],
    ["on_instance", "network"],
    ["$pageview", "network"],
  ]);
});
