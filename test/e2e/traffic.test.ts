import { expect, test } from "@playwright/test";
import { FIXTURE_PORTS } from "../../fixtures/server.js";
import type { CollectorRecord } from "../../fixtures/service/collector.js";
import type { ShopRequest } from "../../fixtures/sites/shop.js";
import { e2eSpec, findingOf, readSummary, runCli } from "./cli.js";

/** The spec's own user-agent suffix: the shared fixtures also serve other tests' traffic. */
const SUFFIX = " setup-audit-e2e/traffic-intercept";

async function fixtureJson<T>(port: number, path: string): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return (await response.json()) as T;
}

test("intercept mode audits the demo shop's signup without sending the service anything", async ({}, testInfo) => {
  const out = testInfo.outputPath("out");
  const run = await runCli(["run", e2eSpec("traffic-intercept.yaml"), "--page", "signup", "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  // Nothing was sent, so there are no recent events to read back.
  expect(run.stdout).not.toContain("recent events");

  const summary = readSummary(out);
  expect(summary.runs).toEqual([
    expect.objectContaining({ spec: "test/e2e/specs/traffic-intercept.yaml", verdict: "pass", collect: "intercept" }),
  ]);
  expect(summary.calls.map((call) => [call.viewport, call.kind, call.delivery])).toEqual(
    expect.arrayContaining([
      ["desktop", "identify", "intercepted"],
      ["desktop", "track", "intercepted"],
      ["mobile", "identify", "intercepted"],
      ["mobile", "track", "intercepted"],
    ]),
  );
  expect(summary.calls).toHaveLength(4);
  expect(findingOf(summary, "events.delivered", { page: "signup", viewport: "mobile" })).toMatchObject({
    status: "pass",
    message:
      "All 2 call(s) were delivered and accepted by the audit inside the browser (traffic.collect: intercept); nothing was sent to the service.",
  });

  // The run's traffic was tagged where it went (the shop) and never reached the collector.
  const shop = await fixtureJson<{ received: ShopRequest[] }>(FIXTURE_PORTS.demoShop, "/__fixture/received");
  const tagged = shop.received.filter((request) => request.headers["user-agent"]?.endsWith(SUFFIX));
  expect(tagged.map((request) => `${request.method} ${request.path}`)).toEqual(
    expect.arrayContaining(["GET /signup", "POST /api/signup"]),
  );
  // Every request of the run carries the same run id in the header.
  expect([...new Set(tagged.map((request) => request.headers["x-setup-audit"]))]).toEqual([
    expect.stringMatching(/^\w+$/),
  ]);
  const collector = await fixtureJson<{ received: CollectorRecord[] }>(FIXTURE_PORTS.service, "/__fixture/collector");
  expect(collector.received.filter((record) => record.userAgent?.endsWith(SUFFIX))).toEqual([]);
});
