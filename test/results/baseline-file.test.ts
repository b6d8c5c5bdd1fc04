import { expect, test } from "@playwright/test";
import type { PageArtifacts } from "../../src/artifacts/types.js";
import {
  baselinesFromSummary,
  defaultBaselinePath,
  formatBaselineFile,
  parseBaselineFile,
  parseSummaryForBaseline,
} from "../../src/results/baseline-file.js";
import { type CallBaseline } from "../../src/artifacts/baseline.js";
import { runChecks } from "../../src/checks/index.js";
import { buildSummary, type TargetResult } from "../../src/results/run-result.js";
import type { RunSummary } from "../../src/results/summary.js";
import { callWith, contextOf, pageWith } from "../support/artifacts.js";

const signup = (viewport: string) =>
  pageWith({
    page: "signup",
    viewport,
    calls: [
      callWith({ kind: "identify", name: "user-8812", properties: { plan: "platinum_tier" } }),
      callWith(),
      callWith({ atMs: 700 }),
      callWith({ name: "cta_click" }),
    ],
  });

/** A real summary.json of these pages, as `run` builds it. */
function summaryOf(targets: { spec: string; pages: PageArtifacts[] }[]): RunSummary {
  const results: TargetResult[] = targets.map(({ spec, pages }) => {
    const context = { ...contextOf(pages), specFile: spec };
    return {
      spec,
      project: "Demo shop",
      environment: "staging",
      collect: "send",
      findings: runChecks(context),
      pages: [...context.pages],
      api: null,
    };
  });
  return buildSummary(results, {
    startedAt: new Date("2030-01-01T10:00:00Z"),
    durationMs: 1000,
    strict: false,
    secrets: [],
  });
}

test("a baseline lists what fired on every audited page × viewport: track names, identify as a kind, pages that fired nothing", () => {
  const summary = summaryOf([{ spec: "audits/demo.yaml", pages: [pageWith(), signup("desktop"), signup("mobile")] }]);
  const built = baselinesFromSummary(summary);
  expect(built).toEqual([
    {
      spec: "audits/demo.yaml",
      environment: "staging",
      project: "Demo shop",
      pages: {
        home: { desktop: { identify: false, track: [] } },
        signup: {
          desktop: { identify: true, track: ["cta_click", "signup_success"] },
          mobile: { identify: true, track: ["cta_click", "signup_success"] },
        },
      },
    },
  ]);
  // An identify's user id and every attribute or property stay out of the file.
  const text = formatBaselineFile(built);
  expect(text).not.toContain("user-8812");
  expect(text).not.toContain("platinum_tier");
});

test("calls go to the spec that audited their page × viewport", () => {
  const summary = summaryOf([
    { spec: "audits/shop.yaml", pages: [signup("desktop")] },
    { spec: "audits/blog.yaml", pages: [pageWith({ page: "article", calls: [callWith({ name: "article_read" })] })] },
  ]);
  const built = baselinesFromSummary(summary);
  expect(built.map((baseline) => [baseline.spec, baseline.pages])).toEqual([
    ["audits/shop.yaml", { signup: { desktop: { identify: true, track: ["cta_click", "signup_success"] } } }],
    ["audits/blog.yaml", { article: { desktop: { identify: false, track: ["article_read"] } } }],
  ]);
});

test("two specs with the same page id on the same viewport keep their own calls", () => {
  const summary = summaryOf([
    { spec: "audits/shop.yaml", pages: [signup("desktop")] },
    { spec: "audits/other.yaml", pages: [pageWith({ page: "signup", calls: [callWith({ name: "other_signup" })] })] },
  ]);
  expect(baselinesFromSummary(summary).map((baseline) => [baseline.spec, baseline.pages])).toEqual([
    ["audits/shop.yaml", { signup: { desktop: { identify: true, track: ["cta_click", "signup_success"] } } }],
    ["audits/other.yaml", { signup: { desktop: { identify: false, track: ["other_signup"] } } }],
  ]);
});

test("the file is sorted, pretty and has no timestamp, so an unchanged run writes the same bytes", () => {
  const baseline = (spec: string): CallBaseline => ({
    spec,
    environment: "staging",
    project: "Shop",
    pages: {
      signup: {
        mobile: { identify: true, track: ["b_event", "a_event", "a_event"] },
        desktop: { identify: false, track: [] },
      },
      home: { mobile: { identify: false, track: [] } },
    },
  });
  const text = formatBaselineFile([baseline("audits/z.yaml"), baseline("audits/a.yaml")]);
  expect(text).toBe(formatBaselineFile([baseline("audits/a.yaml"), baseline("audits/z.yaml")]));
  const parsed = JSON.parse(text) as { version: number; baselines: CallBaseline[] };
  expect(parsed.version).toBe(1);
  expect(parsed.baselines.map((entry) => entry.spec)).toEqual(["audits/a.yaml", "audits/z.yaml"]);
  expect(Object.keys(parsed.baselines[0]!.pages)).toEqual(["home", "signup"]);
  expect(Object.keys(parsed.baselines[0]!.pages.signup!)).toEqual(["desktop", "mobile"]);
  expect(parsed.baselines[0]!.pages.signup!.mobile).toEqual({ identify: true, track: ["a_event", "b_event"] });
  expect(text).toContain('\n  "baselines": [\n    {\n      "spec": "audits/a.yaml",\n      "environment": "staging",');
  expect(text.endsWith("}\n")).toBe(true);
  expect(parseBaselineFile(text)).toEqual({ ok: true, value: parsed });
});

test("a baseline file that is not one says where and what is wrong", () => {
  expect(parseBaselineFile("{ nope")).toMatchObject({
    ok: false,
    problem: expect.stringMatching(/^the file is not JSON \(/),
  });
  expect(parseBaselineFile(JSON.stringify({ version: 1, baselines: [] }))).toEqual({
    ok: false,
    problem: "baselines needs at least 1 item",
  });
  const entry = {
    spec: "audits/a.yaml",
    environment: "staging",
    project: "Shop",
    pages: { home: { desktop: { identify: "yes", track: [] } } },
  };
  expect(parseBaselineFile(JSON.stringify({ version: 1, baselines: [entry] }))).toEqual({
    ok: false,
    problem: 'baselines[0].pages.home.desktop.identify must be true or false, not text ("yes")',
  });
  const typo = { ...entry, pages: { home: { desktop: { identify: true, track: [], tracks: [] } } } };
  expect(parseBaselineFile(JSON.stringify({ version: 1, baselines: [typo] }))).toMatchObject({
    ok: false,
    problem: expect.stringContaining("baselines[0].pages.home.desktop"),
  });
  expect(parseBaselineFile(JSON.stringify({ version: 2, baselines: [entry] }))).toMatchObject({
    ok: false,
    problem: expect.stringMatching(/^version /),
  });
});

test("a summary is read leniently: unknown fields are fine, a missing verdict is not", () => {
  const summary = summaryOf([{ spec: "audits/demo.yaml", pages: [pageWith()] }]);
  expect(parseSummaryForBaseline(JSON.stringify({ ...summary, junit: "junit.xml" }))).toMatchObject({
    ok: true,
    value: { verdict: summary.verdict, runs: [{ spec: "audits/demo.yaml" }] },
  });
  const { verdict: _verdict, ...noVerdict } = summary;
  expect(parseSummaryForBaseline(JSON.stringify(noVerdict))).toMatchObject({
    ok: false,
    problem: expect.stringMatching(/^verdict /),
  });
});

test("the default baseline lives beside its spec, named by spec and environment", () => {
  expect(defaultBaselinePath("audits/demo-shop.yaml", "staging")).toBe("audits/demo-shop.staging.baseline.json");
  expect(defaultBaselinePath("specs/shop.yml", "production")).toBe("specs/shop.production.baseline.json");
});

test("a variation's preview is not the page: its calls stay out of the baseline, and summary.json names its experiment and variation", () => {
  const previewed = {
    ...signup("desktop"),
    calls: [callWith({ name: "variant_seen" })],
    variation: { experiment: "Signup copy", name: "Short form", errors: [] },
  };
  const summary = summaryOf([{ spec: "audits/demo.yaml", pages: [signup("desktop"), previewed] }]);
  expect(summary.calls.filter((call) => call.variation !== null)).toEqual([
    expect.objectContaining({
      name: "variant_seen",
      page: "signup",
      experiment: "Signup copy",
      variation: "Short form",
    }),
  ]);
  expect(summary.calls.filter((call) => call.variation === null).every((call) => call.experiment === null)).toBe(true);
  expect(baselinesFromSummary(summary)[0]!.pages.signup).toEqual({
    desktop: { identify: true, track: ["cta_click", "signup_success"] },
  });
});

test("a reload's calls and a refused consent unit's are not the page's: they stay out of the baseline", () => {
  const reloaded = {
    ...signup("desktop"),
    reload: { atMs: 5000, loadError: null, calls: [callWith({ name: "exposure_again" })], collect: [] },
  };
  const refused = {
    ...signup("mobile"),
    calls: [callWith({ name: "tracked_after_refusal" })],
    consent: { unit: "reject" as const } as PageArtifacts["consent"],
  };
  const summary = summaryOf([{ spec: "audits/demo.yaml", pages: [reloaded, refused] }]);
  expect(summary.calls.map((call) => [call.name, call.unit])).toEqual(
    expect.arrayContaining([
      ["exposure_again", "reload"],
      ["tracked_after_refusal", "reject"],
    ]),
  );
  expect(baselinesFromSummary(summary)[0]!.pages.signup).toEqual({
    desktop: { identify: true, track: ["cta_click", "signup_success"] },
    mobile: { identify: false, track: [] },
  });
});
