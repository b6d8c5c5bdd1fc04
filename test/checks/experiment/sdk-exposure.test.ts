import { expect, test } from "@playwright/test";
import type {
  CapturedCall,
  ExperimentSdkSeen,
  FlagEvaluation,
  SdkExposure,
  SdkTrackedEvent,
  SelectorMatch,
} from "../../../src/artifacts/types.js";
import { experimentExposure } from "../../../src/checks/experiment/exposure.js";
import type { ExperimentPresetName } from "../../../src/vendors/experiment-presets.js";
import { callWith, contextOf, pageWith, specWith } from "../../support/artifacts.js";

/** A shop whose experiment runs on Statsig, which logs its exposures itself: `flag`, no `exposure` mapping. */
function specOn(preset: ExperimentPresetName = "statsig", overrides: Record<string, unknown> = {}) {
  return specWith({
    ...overrides,
    environments: {
      staging: { key: "prj_demo_staging", experimentKey: "client-staging", baseUrl: "http://127.0.0.1:47412" },
    },
    experimentSdk: { preset },
    goals: [{ name: "CTA clicked", event: "cta_clicked" }],
    pages: [{ id: "pricing", path: "/pricing" }],
    experiments: [
      {
        name: "Pricing CTA copy",
        page: "pricing",
        selector: "#cta",
        goals: ["CTA clicked"],
        flag: "pricing_cta",
        variations: [{ name: "Long copy", css: "#cta { color: green }", id: "cta-long" }],
      },
    ],
  });
}

const served = (overrides: Partial<FlagEvaluation> = {}): FlagEvaluation => ({
  method: "getExperiment",
  flag: "pricing_cta",
  variation: "cta-long",
  reason: "Network:Recognized",
  clientReady: true,
  atMs: 900,
  ...overrides,
});

const exposure = (overrides: Partial<SdkExposure> = {}): SdkExposure => ({
  flag: "pricing_cta",
  variation: "cta-long",
  visitor: "visitor-1",
  atMs: 901,
  request: { atMs: 1100, status: 202, failure: null },
  ...overrides,
});

const seenWith = (
  evaluations: FlagEvaluation[],
  exposures: SdkExposure[] | undefined,
  tracked: SdkTrackedEvent[] = [],
): ExperimentSdkSeen => ({
  inits: [{ method: "Statsig.StatsigClient", key: "client-staging", atMs: 100, readyAtMs: 850 }],
  evaluations,
  ...(exposures === undefined ? {} : { exposures, tracked }),
});

/** The goal's event, sent through the SDK (Statsig's logEvent) for `visitor`. */
const conversion = (visitor: string, atMs = 2000): SdkTrackedEvent => ({
  name: "cta_clicked",
  visitor,
  atMs,
  request: { atMs: atMs + 100, status: 202, failure: null },
});

const goal = (atMs: number): CapturedCall => callWith({ kind: "track", name: "cta_clicked", atMs });

/** experiment.exposure's finding on the pricing page as it is, desktop. */
function judged(seen: ExperimentSdkSeen | null | undefined, calls: CapturedCall[] = [goal(2000)], spec = specOn()) {
  const page = pageWith({ page: "pricing", viewport: "desktop", experimentSdk: seen, calls });
  const findings = experimentExposure.evaluate(contextOf([page], spec));
  return findings.find((finding) => finding.variation === null);
}

test("passes when the SDK logged the variation it served, delivered, before the goal's event; the control counts too", () => {
  expect(judged(seenWith([served()], [exposure()]))).toMatchObject({
    check: "experiment.exposure",
    status: "pass",
    page: "pricing",
    experiment: "Pricing CTA copy",
    message:
      'The exposure of "Pricing CTA copy" on pricing as it is (desktop): Statsig (@statsig/js-client) logged "pricing_cta" for visitor-1 at 901 ms, naming "cta-long", delivered (202), before the goal\'s event.',
    evidence: { fired: 1, variations: ["cta-long"], visitors: ["visitor-1"], atMs: [901], statuses: [202] },
  });
  const control = seenWith([served({ variation: "control" })], [exposure({ variation: "control" })]);
  expect(judged(control)!.status).toBe("pass");
  // An SDK that logs one exposure per evaluation logs the same variation twice: one visitor, one group.
  expect(judged(seenWith([served(), served()], [exposure(), exposure({ atMs: 950 })]))!.status).toBe("pass");
});

test("an exposure of the fallback, logged for a read before the values came, counts the visitor in no variation: the served one decides", () => {
  // Statsig logs `Uninitialized` reads too, with no rule: then the served value's exposure.
  const early = exposure({ variation: null, atMs: 300 });
  const evaluations = [served({ variation: null, reason: "Uninitialized", atMs: 300 }), served()];
  expect(judged(seenWith(evaluations, [early, exposure()]))).toMatchObject({
    status: "pass",
    message: expect.stringContaining('logged "pricing_cta" for visitor-1 at 901 ms, naming "cta-long"'),
    evidence: { fired: 2, variations: [null, "cta-long"] },
  });
  // The fallback's exposure alone is no exposure of what was served.
  expect(judged(seenWith(evaluations, [early]))!.message).toContain("but logged no exposure of it");
});

test("fails when the SDK served the flag but logged no exposure of it, the control included, saying what keeps it from logging", () => {
  const finding = judged(seenWith([served({ variation: "control" })], [exposure({ flag: "other_flag" })]));
  expect(finding).toMatchObject({
    status: "fail",
    message: expect.stringContaining(
      'Statsig (@statsig/js-client) served "pricing_cta" `control` at 900 ms but logged no exposure of it: the visitor is not counted in the experiment. Statsig logs no exposure for a value read with `disableExposureLog`',
    ),
    evidence: { fired: 0 },
  });
});

test("fails when an exposure was not delivered: refused, or its request failed", () => {
  const refused = exposure({ request: { atMs: 1100, status: 500, failure: null } });
  expect(judged(seenWith([served()], [refused]))!.message).toContain(
    "its exposure at 901 ms was not delivered (HTTP 500). Make sure the SDK's events endpoint",
  );
  const failed = exposure({ request: { atMs: 1100, status: null, failure: "net::ERR_FAILED" } });
  expect(judged(seenWith([served()], [failed]))!.message).toContain("was not delivered (net::ERR_FAILED)");
});

test("fails when the visitor changed groups on identify, naming both ids and variations, and when one visitor is bucketed again", () => {
  const identified = exposure({ variation: "control", visitor: "user-4411", atMs: 1300 });
  const switched = judged(seenWith([served(), served({ variation: "control" })], [exposure(), identified]));
  expect(switched).toMatchObject({
    status: "fail",
    message: expect.stringContaining(
      'the visitor changed groups on identify (visitor-1 in "cta-long" at 901 ms, then user-4411 in "control" at 1300 ms): counted in both. Evaluate the flag once the visitor\'s identity is final',
    ),
    evidence: { variations: ["cta-long", "control"], visitors: ["visitor-1", "user-4411"] },
  });
  const again = judged(seenWith([served()], [exposure(), exposure({ variation: "control", atMs: 1300 })]));
  expect(again!.message).toContain(
    'it named another variation for the same visitor ("cta-long", then "control"): the visitor was bucketed again',
  );
});

test("fails when the goal's event was sent before the first exposure", () => {
  expect(judged(seenWith([served()], [exposure()]), [goal(500)])!.message).toContain(
    "it came after the goal's event `cta_clicked` (500 ms, the exposure 901 ms). Evaluate the flag before anything tracks the goal",
  );
});

test("fails when the goal's event was sent through the SDK for another id than the exposure's; for the same id it passes", () => {
  const other = judged(seenWith([served()], [exposure()], [conversion("user-4411")]), []);
  expect(other).toMatchObject({
    status: "fail",
    message: expect.stringContaining(
      "the goal's event `cta_clicked` was sent through Statsig (@statsig/js-client) for user-4411 at 2000 ms, but the exposure for visitor-1: the conversion cannot be joined to the exposure. Send the goal's event for the id the exposure was logged for",
    ),
    evidence: { conversions: [{ name: "cta_clicked", visitor: "user-4411" }] },
  });
  expect(judged(seenWith([served()], [exposure()], [conversion("visitor-1")]), [])!.status).toBe("pass");
  // Sent through the SDK before the exposure: the conversion came first.
  expect(judged(seenWith([served()], [exposure()], [conversion("visitor-1", 500)]), [])!.message).toContain(
    "it came after the goal's event `cta_clicked` (500 ms, the exposure 901 ms)",
  );
});

test("after a reload in the same browser, the same visitor in the same variation passes; a new id, or another variation, fails", () => {
  const reloaded = (again: SdkExposure[]) => ({ ...seenWith([served()], [exposure()]), reloadExposures: again });
  expect(judged(reloaded([exposure({ atMs: 4000 })]))).toMatchObject({
    status: "pass",
    message: expect.stringContaining("before the goal's event, and again after a reload."),
    evidence: { afterReload: ["cta-long"], visitorsAfterReload: ["visitor-1"] },
  });
  expect(judged(reloaded([exposure({ atMs: 4000, visitor: "visitor-9" })]))).toMatchObject({
    status: "fail",
    message: expect.stringContaining(
      'after a reload in the same browser it logged visitor-9 in "cta-long", where the page had visitor-1 in "cta-long": the visitor\'s id is not kept across page views, so each view counts as a new visitor. Keep the visitor\'s id across page views',
    ),
  });
  expect(judged(reloaded([exposure({ atMs: 4000, variation: "control" })]))!.message).toContain(
    'where the page had visitor-1 in "cta-long": the visitor was bucketed again',
  );
  // A visitor signed in during the journey, logged in the same variation, is the one the reload logs: no new id.
  const signedIn = {
    ...seenWith([served(), served()], [exposure(), exposure({ atMs: 1500, visitor: "user-4411" })]),
    reloadExposures: [exposure({ atMs: 4000, visitor: "user-4411" })],
  };
  expect(judged(signedIn)!.status).toBe("pass");
  expect(
    judged({ ...signedIn, reloadExposures: [exposure({ atMs: 4000, visitor: "user-4411", variation: "control" })] })!
      .message,
  ).toContain(
    'after a reload in the same browser it logged user-4411 in "control", where the page had user-4411 in "cta-long": the visitor was bucketed again',
  );
  // A reload that logged none (an SDK that logs a visitor once) is not judged.
  expect(judged(reloaded([]))).toMatchObject({ status: "pass", evidence: { afterReload: [] } });
});

test("warns when the experiment's target was visible at no point the audit looked, and passes once it was at one", () => {
  const look = (visible: number): SelectorMatch => ({
    experiment: "Pricing CTA copy",
    selector: "#cta",
    matched: 1,
    visible,
    stableAlternative: null,
  });
  const judgedWith = (selectors: SelectorMatch[]) => {
    const page = pageWith({
      page: "pricing",
      viewport: "desktop",
      experimentSdk: seenWith([served()], [exposure()]),
      calls: [goal(2000)],
      selectors,
    });
    return experimentExposure.evaluate(contextOf([page], specOn())).find((finding) => finding.variation === null);
  };
  expect(judgedWith([look(0)])).toMatchObject({
    status: "warn",
    message: expect.stringContaining(
      'logged "pricing_cta" for visitor-1 at 901 ms, naming "cta-long", but the experiment\'s target `#cta` was visible at no point the audit looked (before the journey, and once the page was done): the visitor is counted without having seen the change',
    ),
    evidence: { targetShown: false, fired: 1 },
  });
  expect(judgedWith([look(1)])!.status).toBe("pass");
  // A journey step that clicked it saw it: a click waits for its element to be visible (a drawer the journey opened, then closed).
  const spec = specOn();
  const clicking = { ...spec, pages: [{ ...spec.pages[0]!, steps: [{ click: "#cta" }] }] };
  const clicked = pageWith({
    page: "pricing",
    viewport: "desktop",
    experimentSdk: seenWith([served()], [exposure()]),
    calls: [goal(2000)],
    selectors: [look(0)],
  });
  const judgedClicked = (page: typeof clicked) =>
    experimentExposure.evaluate(contextOf([page], clicking)).find((finding) => finding.variation === null)!.status;
  expect(judgedClicked(clicked)).toBe("pass");
  expect(judgedClicked({ ...clicked, stepError: { step: 0, message: 'click "#cta" failed' } })).toBe("warn");
  // A selector that is not valid CSS showed nothing to look at: page.selectors says so.
  expect(judgedWith([{ ...look(0), matched: null }])!.status).toBe("pass");
});

test("skips when the flag was never served a variation, when the artifacts predate exposures, and without experimentSdk", () => {
  const fallback = served({ variation: null, reason: "Network:Unrecognized" });
  expect(judged(seenWith([fallback], [exposure({ variation: null })]))).toMatchObject({
    status: "skip",
    message: expect.stringContaining('never served "pricing_cta" a variation here (experiment.assignment says why)'),
  });
  expect(judged(seenWith([served()], undefined))).toMatchObject({
    status: "skip",
    message: expect.stringContaining("saved before the experimentation SDK's exposures were recorded"),
  });
  expect(judged(null)!.status).toBe("skip");
});

test("gives no finding for an SDK whose exposures are not read (GrowthBook's go through the analytics SDK: `exposure` maps them)", () => {
  const growthbook = specOn("growthbook");
  const page = pageWith({ page: "pricing", viewport: "desktop", experimentSdk: seenWith([served()], undefined) });
  expect(experimentExposure.evaluate(contextOf([page], growthbook))).toEqual([]);
});

test("warns, once per page × viewport, where the SDK logged an exposure of the flag on a page that shows none of its experiments", () => {
  const spec = specOn();
  const pricing = pageWith({ page: "pricing", viewport: "desktop", experimentSdk: seenWith([served()], [exposure()]) });
  const home = (exposures: SdkExposure[]) =>
    pageWith({ page: "home", viewport: "desktop", experimentSdk: seenWith([served()], exposures) });
  const startUp = experimentExposure
    .evaluate(contextOf([pricing, home([exposure({ atMs: 300 }), exposure({ atMs: 310 })])], spec))
    .filter((finding) => finding.page === "home");
  expect(startUp).toEqual([
    expect.objectContaining({
      status: "warn",
      experiment: "Pricing CTA copy",
      message: expect.stringContaining(
        'Statsig (@statsig/js-client) logged an exposure of "pricing_cta" on home, which shows none of its experiments ("Pricing CTA copy" on pricing), at 300 ms, naming "cta-long": every visitor of this page is counted in the experiment without having seen the change',
      ),
      evidence: { fired: 2, variations: ["cta-long", "cta-long"], atMs: [300, 310] },
    }),
  ]);
  // Another flag's exposure, or none, says nothing of this one.
  const quiet = experimentExposure.evaluate(contextOf([pricing, home([exposure({ flag: "new_nav" })])], spec));
  expect(quiet.filter((finding) => finding.page === "home")).toEqual([]);
});

test("an SDK whose evaluations are its exposures (PostHog's) that logged none says so without advice of another SDK's", () => {
  const spec = specOn("posthog", { sdk: { preset: "posthog" } });
  const finding = judged(seenWith([served({ reason: "condition_match" })], []), [], spec);
  expect(finding!.message).toMatch(/logged no exposure of it: the visitor is not counted in the experiment\.$/);
});
