import { expect, test } from "@playwright/test";
import type { SelectorMatch } from "../../../src/artifacts/types.js";
import { experimentGoals } from "../../../src/checks/experiment/goals.js";
import { experimentName, vagueNameReason } from "../../../src/checks/experiment/name.js";
import { experimentSelector, fragileSelectorReasons } from "../../../src/checks/experiment/selector.js";
import { contextOf, pageWith, specWith } from "../../support/artifacts.js";

const PAGES = [
  { id: "home", path: "/" },
  { id: "pricing", path: "/pricing" },
];
const GOALS = [
  { name: "Signup completed", event: "signup_success" },
  { name: "Plan chosen", event: "plan_chosen" },
];
const CTA = {
  name: "Pricing CTA copy, short vs long",
  page: "pricing",
  selector: "#cta-primary",
  goals: ["Signup completed"],
};
const withExperiments = (experiments: unknown[]) => specWith({ pages: PAGES, goals: GOALS, experiments });

test.describe("vagueNameReason", () => {
  const cases: [string, string | null][] = [
    ["test", "only generic words"],
    ["test 2", "only generic words"],
    ["New experiment", "only generic words"],
    ["Experiment 1", "only generic words"],
    ["A/B test", "only generic words"],
    ["Untitled experiment", "a default name"],
    ["Copy of Pricing CTA copy", "a copy's default name"],
    ["Pricing CTA copy (copy)", "a copy's default name"],
    ["Pricing CTA copy (copy 2)", "a copy's default name"],
    ["CTA red", "too short to say what it tests"],
    ["Homepage", "a single word"],
    ["Pricing CTA copy, short vs long", null],
    ["Hero headline copy", null],
    ["Checkout: one-page vs three steps", null],
  ];
  for (const [name, reason] of cases) {
    test(`${JSON.stringify(name)} → ${reason ?? "fine"}`, () => {
      expect(vagueNameReason(name)).toBe(reason);
    });
  }
});

test.describe("experiment.name", () => {
  test("passes when every name says what it tests, with one finding for the spec", () => {
    const findings = experimentName.evaluate(
      contextOf([pageWith()], withExperiments([CTA, { ...CTA, name: "Hero headline: price first vs benefit first" }])),
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      check: "experiment.name",
      status: "pass",
      page: null,
      viewport: null,
      experiment: null,
      variation: null,
      message: "All 2 experiment name(s) say what they test.",
    });
  });

  test("fails with one finding listing every vague name", () => {
    const findings = experimentName.evaluate(
      contextOf(
        [pageWith()],
        withExperiments([CTA, { ...CTA, name: "test 2" }, { ...CTA, name: "Copy of Pricing CTA copy" }]),
      ),
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]?.status).toBe("fail");
    expect(findings[0]?.message).toBe(
      'Vague experiment name(s): "test 2" (only generic words), "Copy of Pricing CTA copy" (a copy\'s default name). Rename each to say what changes and where, like "Pricing CTA copy, short vs long".',
    );
  });

  test("skips a spec without experiments", () => {
    const findings = experimentName.evaluate(contextOf([pageWith()], withExperiments([])));
    expect(findings.map((finding) => [finding.status, finding.message])).toEqual([
      ["skip", "The spec defines no experiment."],
    ]);
  });
});

test.describe("experiment.goals", () => {
  test("passes when every experiment has goals the spec defines", () => {
    const [finding] = experimentGoals.evaluate(contextOf([pageWith()], withExperiments([CTA])));
    expect(finding).toMatchObject({ check: "experiment.goals", status: "pass", page: null, viewport: null });
  });

  test("fails on an experiment without a goal and on an unknown goal, with a did-you-mean", () => {
    const findings = experimentGoals.evaluate(
      contextOf(
        [pageWith()],
        withExperiments([
          { ...CTA, goals: [] },
          { ...CTA, name: "Hero headline: price first", goals: ["Sigup completed", "Revenue"] },
        ]),
      ),
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]?.status).toBe("fail");
    expect(findings[0]?.message).toBe(
      '"Pricing CTA copy, short vs long" has no goal; "Hero headline: price first" names goal "Sigup completed", which the spec does not define — did you mean "Signup completed"?; ' +
        '"Hero headline: price first" names goal "Revenue", which the spec does not define. Give each experiment at least one goal from the spec\'s goals (the spec\'s goals are "Signup completed", "Plan chosen").',
    );
  });

  test("skips a spec without experiments", () => {
    const [finding] = experimentGoals.evaluate(contextOf([pageWith()], withExperiments([])));
    expect(finding?.status).toBe("skip");
  });
});

test.describe("fragileSelectorReasons", () => {
  const cases: [string, string[]][] = [
    ["#cta-primary", []],
    ['[data-testid="hero-cta"]', []],
    [".pricing .plan-card button", []],
    ["ul > li:nth-child(2) > a", ["position-based (:nth-child)"]],
    ["li:first-child, li:eq(3)", ["position-based (:first-child, :eq)"]],
    ["main section div.card a", ["a chain of 4 nested selectors"]],
    ["div:nth-child(2n + 1)", ["position-based (:nth-child)"]],
    [".css-1x2y3z", ["generated class name(s) (.css-1x2y3z)"]],
    [".sc-bdVaJa > .jsx-123", ["generated class name(s) (.sc-bdVaJa, .jsx-123)"]],
    [".Button_primary__3xYz1", ["generated class name(s) (.Button_primary__3xYz1)"]],
    [".e1x2y3z0", ["generated class name(s) (.e1x2y3z0)"]],
    [".css-grid .col12 .h2", []],
    ["#post-123456", ["an id with a long number (#post-123456)"]],
    ['a[href="#top-12345"]', []],
  ];
  for (const [selector, reasons] of cases) {
    test(`${selector} → ${reasons.length === 0 ? "stable" : reasons.join("; ")}`, () => {
      expect(fragileSelectorReasons(selector)).toEqual(reasons);
    });
  }
});

const pricing = (viewport: string, selectors: SelectorMatch[]) =>
  pageWith({ page: "pricing", viewport, mobile: viewport === "mobile", selectors });
const matchOf = (overrides: Partial<SelectorMatch> = {}): SelectorMatch => ({
  experiment: CTA.name,
  selector: CTA.selector,
  matched: 1,
  visible: 1,
  stableAlternative: "#cta-primary",
  ...overrides,
});

test.describe("experiment.selector", () => {
  test("passes on exactly one visible match, one finding per experiment × viewport", () => {
    const findings = experimentSelector.evaluate(
      contextOf([pricing("desktop", [matchOf()]), pricing("mobile", [matchOf()])], withExperiments([CTA])),
    );
    expect(
      findings.map((finding) => [finding.check, finding.status, finding.page, finding.viewport, finding.experiment]),
    ).toEqual([
      ["experiment.selector", "pass", "pricing", "desktop", CTA.name],
      ["experiment.selector", "pass", "pricing", "mobile", CTA.name],
    ]);
    expect(findings[0]?.message).toBe("`#cta-primary` matches exactly one visible element on desktop.");
  });

  test("fails when nothing visible matches on mobile", () => {
    const findings = experimentSelector.evaluate(
      contextOf(
        [pricing("desktop", [matchOf()]), pricing("mobile", [matchOf({ visible: 0, stableAlternative: null })])],
        withExperiments([CTA]),
      ),
    );
    expect(findings.map((finding) => finding.status)).toEqual(["pass", "fail"]);
    expect(findings[1]?.message).toBe(
      "`#cta-primary` matches no visible element on mobile (1 element(s) matched, none visible). Target an element that is shown on mobile too, or the experiment changes nothing there.",
    );
  });

  test("fails with the count when several visible elements match, suggesting a stabler selector", () => {
    const experiment = { ...CTA, selector: ".plan-card" };
    const [finding] = experimentSelector.evaluate(
      contextOf(
        [
          pricing("desktop", [
            matchOf({ selector: ".plan-card", matched: 3, visible: 3, stableAlternative: '[data-plan="free"]' }),
          ]),
        ],
        withExperiments([experiment]),
      ),
    );
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      '`.plan-card` matches 3 visible elements on desktop. Narrow it to the one element the experiment changes — try `[data-plan="free"]`.',
    );
  });

  test("fails on an invalid selector", () => {
    const [finding] = experimentSelector.evaluate(
      contextOf(
        [pricing("desktop", [matchOf({ selector: "#cta[", matched: null, visible: 0 })])],
        withExperiments([{ ...CTA, selector: "#cta[" }]),
      ),
    );
    expect(finding).toMatchObject({
      status: "fail",
      message: "`#cta[` is not a valid CSS selector. Fix the experiment's selector.",
    });
  });

  test("warns on a fragile selector, with the stabler one when the element has it", () => {
    const selector = ".css-1x2y3z";
    const [withAlternative] = experimentSelector.evaluate(
      contextOf(
        [pricing("desktop", [matchOf({ selector, stableAlternative: '[data-banner="spring"]' })])],
        withExperiments([{ ...CTA, selector }]),
      ),
    );
    expect(withAlternative?.status).toBe("warn");
    expect(withAlternative?.message).toBe(
      '`.css-1x2y3z` matches one element on desktop but looks fragile: generated class name(s) (.css-1x2y3z). Target a stable id or data-* attribute instead — try `[data-banner="spring"]`.',
    );
    const [without] = experimentSelector.evaluate(
      contextOf(
        [pricing("desktop", [matchOf({ selector, stableAlternative: null })])],
        withExperiments([{ ...CTA, selector }]),
      ),
    );
    expect(without?.message).toContain("Give the element an id or a data-* attribute and target that.");
  });

  test("skips a viewport where the page did not load, was not audited, or the selector was not counted", () => {
    const home = pageWith({ viewport: "tablet" });
    const findings = experimentSelector.evaluate(
      contextOf(
        [pageWith({ page: "pricing", loadError: "HTTP 500" }), pricing("mobile", []), home],
        withExperiments([CTA]),
      ),
    );
    expect(findings.map((finding) => [finding.viewport, finding.status, finding.message])).toEqual([
      ["desktop", "skip", "Not judged: the experiment's page did not load."],
      ["mobile", "skip", "Not judged: the selector was not counted on this page."],
      ["tablet", "skip", 'Not judged: the experiment\'s page "pricing" was not audited on tablet.'],
    ]);
  });
});
