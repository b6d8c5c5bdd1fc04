import { expect, test } from "@playwright/test";
import type { RunSummary } from "../../src/results/summary.js";
import type { Finding } from "../../src/findings/finding.js";
import { allowRunOf, e2eSpec, readSummary, runCli } from "./cli.js";
import { join } from "node:path";

/**
 * The single-page app (Vue 3 and vue-router, fixtures/vendors/spa.ts) on the real Segment and
 * PostHog bundles, both viewports. Every page walks one journey: a link to /pricing, the same
 * click in two steps, a link to /about, back and forward. The correct app has one page view per
 * route and one track per click, and no check fails; each planted fault gives exactly its finding
 * (events.pageviews or events.duplicate), the route in its evidence, and nothing else fails.
 * On PostHog, two more apps: the correct app on a hash router (`#/pricing`), and billing filters
 * that change the query alone, audited with `sdk.routeQuery` keep (spa-posthog.yaml) and ignore
 * (spa-posthog-query.yaml).
 */
test.describe.configure({ mode: "serial" });

const VENDORS = ["segment", "posthog"] as const;
const VIEWPORTS = ["desktop", "mobile"] as const;
const specOf = (vendor: (typeof VENDORS)[number]) => `spa-${vendor}.yaml`;
const QUERY_SPEC = "spa-posthog-query.yaml";
/** Each fault: the check that fails, and the routes its message names, in order, as `route how: problem`. */
const FAULTS = {
  double: {
    check: "events.pageviews",
    told: [
      "pricing (after a route change) got 2 page views",
      "about (after a route change) got 2 page views",
      "pricing (after back) got 2 page views",
      "about (after forward) got 2 page views",
    ],
  },
  "no-back": {
    check: "events.pageviews",
    told: ["pricing (after back) got no page view", "about (after forward) got no page view"],
  },
  "bound-twice": {
    check: "events.duplicate",
    told: [
      '"Plan Selected" was made 2 times with equal properties less than 1 s apart during step 3 (click "#cta") on /spa/',
      '"Plan Selected" was made 2 times with equal properties less than 1 s apart during step 4 (click "#cta") on /spa/',
    ],
  },
} as const;

let summary: RunSummary;

test.beforeAll(async ({}, testInfo) => {
  const specs = [...VENDORS.map(specOf), QUERY_SPEC].map(e2eSpec);
  allowRunOf(testInfo, specs);
  const out = join(testInfo.project.outputDir, "spa-run");
  const run = await runCli(["run", ...specs, "--out", out, "--workers", "4"]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  summary = readSummary(out);
});

function findingsOf(
  vendor: (typeof VENDORS)[number],
  page: string,
  viewport: string,
  spec = specOf(vendor),
): Finding[] {
  return summary.findings.filter(
    (finding) => finding.spec.endsWith(spec) && finding.page === page && finding.viewport === viewport,
  );
}

/** A pageviews finding's routes as `[route, how, page views]`. */
function routesOf(pageviews: Finding): [string, string, number][] {
  const routes = pageviews.evidence.routes as { route: string; how: string; pageViews: unknown[] }[];
  return routes.map(({ route, how, pageViews }) => [route, how, pageViews.length]);
}

for (const vendor of VENDORS) {
  test.describe(vendor, () => {
    test("the correct app: one page view per route on load, links, back and forward, one track per click, and no check fails", () => {
      for (const viewport of VIEWPORTS) {
        const findings = findingsOf(vendor, "correct", viewport);
        expect(
          findings
            .filter((finding) => finding.status === "fail")
            .map((finding) => `${finding.check}: ${finding.message}`),
        ).toEqual([]);
        const pageviews = findings.find((finding) => finding.check === "events.pageviews")!;
        expect(pageviews.status).toBe("pass");
        const routes = pageviews.evidence.routes as { route: string; how: string; pageViews: unknown[] }[];
        expect(
          routes.map(({ route, how, pageViews }) => [
            route.replace(`/spa/${vendor}/correct/`, "/"),
            how,
            pageViews.length,
          ]),
        ).toEqual([
          ["/", "load", 1],
          ["/pricing", "push", 1],
          ["/about", "push", 1],
          ["/pricing", "back", 1],
          ["/about", "forward", 1],
        ]);
        // The same click in two steps: one track in each, and no duplicate.
        expect(findings.find((finding) => finding.check === "events.duplicate")?.status).toBe("pass");
        const calls = summary.calls.filter(
          (call) => call.spec.endsWith(specOf(vendor)) && call.page === "correct" && call.viewport === viewport,
        );
        expect(
          calls
            .filter((call) => call.kind === "track")
            .map((call) => [call.name, call.step, call.route, call.delivery]),
        ).toEqual([
          ["Plan Selected", 2, `/spa/${vendor}/correct/pricing`, "accepted"],
          ["Plan Selected", 3, `/spa/${vendor}/correct/pricing`, "accepted"],
        ]);
        expect(
          calls
            .filter((call) => call.kind === "page")
            .map((call) => call.route.replace(`/spa/${vendor}/correct/`, "/")),
        ).toEqual(["/", "/pricing", "/about", "/pricing", "/about"]);
      }
    });

    for (const [fault, { check, told }] of Object.entries(FAULTS)) {
      test(`${fault}: exactly its ${check} finding on both viewports, naming the routes`, () => {
        for (const viewport of VIEWPORTS) {
          const failing = findingsOf(vendor, fault, viewport).filter((finding) => finding.status === "fail");
          expect(failing.map((finding) => finding.check)).toEqual([check]);
          const message = failing[0]!.message;
          for (const sentence of told)
            expect(message).toContain(sentence.startsWith('"') ? sentence : `/spa/${vendor}/${fault}/${sentence}`);
          expect(JSON.stringify(failing[0]!.evidence)).toContain(`/spa/${vendor}/${fault}/pricing`);
        }
      });
    }

    test("previous: exactly its events.pageviews finding on both viewports, the page view counted for the route it names", () => {
      // Segment's page() in beforeEach is made while the route left is current; PostHog's in afterEach names the route left.
      const told =
        vendor === "segment"
          ? [
              "/spa/segment/previous/ (loaded) got 2 page views",
              "/spa/segment/previous/about (after a route change) got no page view",
            ]
          : [
              "/spa/posthog/previous/pricing (after a route change) got a page view whose URL names /spa/posthog/previous/",
              "/spa/posthog/previous/about (after a route change) got a page view whose URL names /spa/posthog/previous/pricing",
            ];
      for (const viewport of VIEWPORTS) {
        const failing = findingsOf(vendor, "previous", viewport).filter((finding) => finding.status === "fail");
        expect(failing.map((finding) => finding.check)).toEqual(["events.pageviews"]);
        for (const sentence of told) expect(failing[0]!.message).toContain(sentence);
      }
    });
  });
}

test.describe("posthog routes", () => {
  test("hash router: each hash route (#/pricing) gets the app's one page view, on links, back and forward, PostHog's defaults sending none on a fragment change; no check fails", () => {
    for (const viewport of VIEWPORTS) {
      const findings = findingsOf("posthog", "hash", viewport);
      expect(
        findings
          .filter((finding) => finding.status === "fail")
          .map((finding) => `${finding.check}: ${finding.message}`),
      ).toEqual([]);
      const pageviews = findings.find((finding) => finding.check === "events.pageviews")!;
      expect(pageviews.status).toBe("pass");
      // The router starts on /hash/ and replaces it with /hash/#/: the load's visit under its last name.
      expect(routesOf(pageviews)).toEqual([
        ["/spa/posthog/hash/#/", "load", 1],
        ["/spa/posthog/hash/#/pricing", "push", 1],
        ["/spa/posthog/hash/#/about", "push", 1],
        ["/spa/posthog/hash/#/pricing", "back", 1],
        ["/spa/posthog/hash/#/about", "forward", 1],
      ]);
      const calls = summary.calls.filter(
        (call) => call.spec.endsWith(specOf("posthog")) && call.page === "hash" && call.viewport === viewport,
      );
      expect(calls.filter((call) => call.kind === "page").map((call) => call.route)).toEqual([
        expect.stringMatching(/^\/spa\/posthog\/hash\/(#\/)?$/),
        "/spa/posthog/hash/#/pricing",
        "/spa/posthog/hash/#/about",
        "/spa/posthog/hash/#/pricing",
        "/spa/posthog/hash/#/about",
      ]);
    }
  });

  test("query filters: with routeQuery ignore a filter change is no route change and the page passes; with the default keep each filtered route got no page view", () => {
    for (const viewport of VIEWPORTS) {
      const ignored = findingsOf("posthog", "filters", viewport, QUERY_SPEC);
      expect(ignored.filter((finding) => finding.status === "fail").map((finding) => finding.check)).toEqual([]);
      const pageviews = ignored.find((finding) => finding.check === "events.pageviews")!;
      expect(pageviews.status).toBe("pass");
      expect(routesOf(pageviews)).toEqual([
        ["/spa/posthog/filters/", "load", 1],
        ["/spa/posthog/filters/pricing?billing=annual", "push", 1],
      ]);
      const kept = findingsOf("posthog", "filters", viewport).filter((finding) => finding.status === "fail");
      expect(kept.map((finding) => finding.check)).toEqual(["events.pageviews"]);
      expect(routesOf(kept[0]!)).toEqual([
        ["/spa/posthog/filters/", "load", 1],
        ["/spa/posthog/filters/pricing", "push", 1],
        ["/spa/posthog/filters/pricing?billing=annual", "push", 0],
        ["/spa/posthog/filters/pricing?billing=monthly", "push", 0],
        ["/spa/posthog/filters/pricing?billing=annual", "back", 0],
      ]);
    }
  });
});
