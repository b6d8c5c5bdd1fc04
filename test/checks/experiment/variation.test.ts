import { expect, test } from "@playwright/test";
import type { ExperimentView, PageArtifacts } from "../../../src/artifacts/types.js";
import { experimentVariation, judgeVariation, type VariationUnit } from "../../../src/checks/experiment/variation.js";
import { visibleChange } from "../../../src/checks/experiment/visible-change.js";
import { callWith, contextOf, pageWith, specWith } from "../../support/artifacts.js";

const target = {
  text: "Start your free trial",
  attributes: { id: "cta-primary", class: "button" },
  style: { color: "rgb(0, 0, 0)", "font-size": "16px" },
  box: { x: 10, y: 20, width: 200, height: 40 },
};
const control: VariationUnit = {
  matched: 1,
  visible: 1,
  target,
  overflows: false,
  errors: [],
  events: ["cta_clicked", "signup_success"],
  journeyError: null,
};
const unitWith = (changes: Partial<VariationUnit>): VariationUnit => ({
  ...control,
  target: { ...target, text: "Start now" },
  ...changes,
});

test("a variation that changes the target and keeps the needed events passes", () => {
  expect(judgeVariation(control, unitWith({}), ["signup_success"])).toEqual({ status: "pass", reasons: [] });
});

test("a change to the box alone is a visible change; less than half a CSS pixel is not", () => {
  expect(
    judgeVariation(control, unitWith({ target: { ...target, box: { ...target.box, width: 240 } } }), []).status,
  ).toBe("pass");
  expect(
    judgeVariation(control, unitWith({ target: { ...target, box: { ...target.box, width: 200.4 } } }), []).status,
  ).toBe("fail");
});

const pixels = (sha256: string, steady = true) => ({ sha256, clip: { x: 10, y: 20, width: 200, height: 40 }, steady });
const shown = { ...target, pixels: pixels("a".repeat(64)) };

test("pixels decide when text and box are the control's: a letter-spacing-only change passes, a cursor-only one fails", () => {
  const spaced = { ...shown, style: { ...shown.style, "letter-spacing": "1px" }, pixels: pixels("b".repeat(64)) };
  expect(judgeVariation({ ...control, target: shown }, { ...control, target: spaced }, [])).toEqual({
    status: "pass",
    reasons: [],
  });
  const pointer = { ...shown, style: { ...shown.style, cursor: "pointer" } };
  expect(judgeVariation({ ...control, target: shown }, { ...control, target: pointer }, [])).toEqual({
    status: "fail",
    reasons: ["it changes nothing visible in the target: its text, box and pixels are the control's"],
  });
  // An attribute alone changes nothing a visitor sees.
  expect(
    judgeVariation(
      { ...control, target: shown },
      { ...control, target: { ...shown, attributes: { ...shown.attributes, "data-variant": "b" } } },
      [],
    ).status,
  ).toBe("fail");
  // A clip of another size is another picture.
  expect(
    visibleChange(shown, {
      ...shown,
      pixels: { ...pixels("a".repeat(64)), clip: { x: 10, y: 20, width: 201, height: 40 } },
    }).shownBy,
  ).toEqual(["pixels"]);
});

test("a target whose pixels change by themselves, or were not taken, is judged on the style that paints", () => {
  const restless = { ...shown, pixels: pixels("c".repeat(64), false) };
  expect(
    visibleChange(restless, {
      ...restless,
      style: { ...shown.style, "letter-spacing": "1px" },
      pixels: pixels("d".repeat(64), false),
    }),
  ).toEqual({ shownBy: ["style"], styleDiff: ["letter-spacing"], moved: null });
  expect(
    visibleChange(restless, {
      ...restless,
      style: { ...shown.style, cursor: "pointer" },
      pixels: pixels("d".repeat(64), false),
    }).shownBy,
  ).toEqual([]);
  // Artifacts saved before pixels were kept.
  expect(visibleChange(target, { ...target, style: { ...target.style, "font-size": "18px" } }).shownBy).toEqual([
    "style",
  ]);
  expect(
    judgeVariation(control, { ...control, target: { ...target, style: { ...target.style, cursor: "pointer" } } }, [])
      .reasons,
  ).toEqual(["it changes nothing visible in the target: its text, box and painted style are the control's"]);
});

test("a box that only moved, its size, text and own pixels the control's, is no visible change", () => {
  const movedBox = { ...target.box, x: 22, y: 60 };
  const moved = {
    ...shown,
    box: movedBox,
    style: { ...shown.style, position: "relative", top: "40px", left: "12px" },
    pixels: { ...pixels("a".repeat(64)), clip: { x: 22, y: 60, width: 200, height: 40 } },
  };
  expect(visibleChange(shown, moved)).toEqual({
    shownBy: [],
    styleDiff: ["left", "position", "top"],
    moved: { dx: 12, dy: 40 },
  });
  expect(judgeVariation({ ...control, target: shown }, { ...control, target: moved }, [])).toEqual({
    status: "fail",
    reasons: [
      "it changes nothing visible in the target, it only moves it 12 px right and 40 px down: its text, size and pixels are the control's",
    ],
  });
  const up = { ...moved, box: { ...target.box, y: 5 } };
  expect(judgeVariation({ ...control, target: shown }, { ...control, target: up }, []).reasons).toEqual([
    "it changes nothing visible in the target, it only moves it 15 px up: its text, size and pixels are the control's",
  ]);
  // Less than half a CSS pixel is the same place.
  expect(visibleChange(shown, { ...shown, box: { ...target.box, x: 10.4 } }).moved).toBeNull();
});

test("a moved box that also changed its pixels, its size or its text is a visible change", () => {
  const movedBox = { ...target.box, y: 60 };
  const clip = { x: 10, y: 60, width: 200, height: 40 };
  expect(visibleChange(shown, { ...shown, box: movedBox, pixels: { ...pixels("b".repeat(64)), clip } })).toMatchObject({
    shownBy: ["pixels"],
    moved: { dx: 0, dy: 40 },
  });
  // Moved to the edge of the first screen: the clip is cut, so less of the target shows.
  expect(
    visibleChange(shown, {
      ...shown,
      box: movedBox,
      pixels: { ...pixels("a".repeat(64)), clip: { ...clip, height: 25 } },
    }).shownBy,
  ).toEqual(["pixels"]);
  expect(visibleChange(shown, { ...shown, box: { ...movedBox, height: 48 } })).toMatchObject({
    shownBy: ["box"],
    moved: null,
  });
  expect(visibleChange(shown, { ...shown, text: "Start now", box: movedBox }).shownBy).toEqual(["text"]);
});

test("a moved target is the same picture when its cells' mean colours are within 2 of the control's: tile edges, not a change", () => {
  const cells = (...means: number[]) => ({ columns: 2, rows: 1, means: Buffer.from(means).toString("base64") });
  const before = { ...shown, pixels: { ...pixels("a".repeat(64)), cells: cells(50, 80, 200, 250, 250, 250) } };
  const movedTo = (sha256: string, means: number[]) => ({
    ...before,
    box: { ...target.box, y: 60 },
    pixels: { ...pixels(sha256), clip: { x: 10, y: 60, width: 200, height: 40 }, cells: cells(...means) },
  });
  expect(visibleChange(before, movedTo("e".repeat(64), [51, 78, 200, 250, 251, 250]))).toMatchObject({
    shownBy: [],
    moved: { dx: 0, dy: 40 },
  });
  expect(visibleChange(before, movedTo("e".repeat(64), [50, 80, 200, 247, 250, 250])).shownBy).toEqual(["pixels"]);
  // In place, the PNG alone decides: the cells stand in for it only where a tile edge may have moved across the target.
  expect(
    visibleChange(before, {
      ...before,
      pixels: { ...before.pixels, sha256: "e".repeat(64), cells: cells(51, 80, 200, 250, 250, 250) },
    }).shownBy,
  ).toEqual(["pixels"]);
  // Artifacts saved before the cells were kept: another PNG is another picture.
  expect(
    visibleChange(shown, {
      ...movedTo("e".repeat(64), []),
      pixels: { ...pixels("e".repeat(64)), clip: { x: 10, y: 60, width: 200, height: 40 } },
    }).shownBy,
  ).toEqual(["pixels"]);
});

test("a moved box whose pixels were not taken is judged on the style that paints, without what only places it", () => {
  const movedBox = { ...target.box, y: 60 };
  const placed = {
    ...target,
    box: movedBox,
    style: { ...target.style, position: "relative", top: "40px", "margin-top": "0px", translate: "none" },
  };
  expect(visibleChange(target, placed)).toMatchObject({ shownBy: [], moved: { dx: 0, dy: 40 } });
  expect(judgeVariation(control, { ...control, target: placed }, []).reasons).toEqual([
    "it changes nothing visible in the target, it only moves it 40 px down: its text, size and painted style are the control's",
  ]);
  expect(visibleChange(target, { ...placed, style: { ...placed.style, color: "rgb(0, 0, 255)" } }).shownBy).toEqual([
    "style",
  ]);
});

test("js that throws fails, naming the error and its line", () => {
  expect(
    judgeVariation(
      control,
      unitWith({ errors: [{ message: "Cannot read properties of null (reading 'style')", line: 3 }] }),
      [],
    ),
  ).toEqual({
    status: "fail",
    reasons: ["its js throws \"Cannot read properties of null (reading 'style')\" at line 3"],
  });
});

test("a selector that matches no visible element, or several, once applied fails", () => {
  expect(judgeVariation(control, unitWith({ visible: 0, target: null }), []).reasons).toEqual([
    "the selector matches no visible element once it is applied (1 matched)",
  ]);
  expect(judgeVariation(control, unitWith({ matched: 2, visible: 2 }), []).reasons).toEqual([
    "the selector matches 2 visible elements once it is applied, so the change may land on the wrong one",
  ]);
});

test("a variation that leaves the target as it was fails", () => {
  expect(judgeVariation(control, unitWith({ target }), [])).toEqual({
    status: "fail",
    reasons: ["it changes nothing visible in the target: its text, box and painted style are the control's"],
  });
});

test("a needed event the control fires and the variation does not fails; one the control does not fire either is left to the page's checks", () => {
  expect(
    judgeVariation(control, unitWith({ events: ["cta_clicked"] }), [
      "signup_success",
      "signup_success",
      "newsletter_joined",
    ]).reasons,
  ).toEqual(["the journey no longer fires `signup_success`, which the control fires"]);
  expect(judgeVariation(control, unitWith({ events: ["signup_success"] }), ["cta_clicked"]).status).toBe("fail");
  expect(judgeVariation(control, unitWith({ events: [] }), []).status).toBe("pass");
});

test("overflow warns only where the control does not overflow", () => {
  expect(judgeVariation(control, unitWith({ overflows: true }), [])).toEqual({
    status: "warn",
    reasons: ["it makes the page wider than the viewport, which the control is not"],
  });
  expect(judgeVariation({ ...control, overflows: true }, unitWith({ overflows: true }), []).status).toBe("pass");
});

test("one verdict lists every reason, failures before the warning", () => {
  const verdict = judgeVariation(
    control,
    unitWith({ target, overflows: true, errors: [{ message: "boom", line: null }], events: [] }),
    ["signup_success"],
  );
  expect(verdict.status).toBe("fail");
  expect(verdict.reasons).toEqual([
    'its js throws "boom"',
    "it changes nothing visible in the target: its text, box and painted style are the control's",
    "the journey no longer fires `signup_success`, which the control fires",
    "it makes the page wider than the viewport, which the control is not",
  ]);
});

// experiment.variation on artifacts: the page as it is beside each variation's preview.
const cta = {
  text: "Start your free trial",
  attributes: { id: "cta-primary" },
  style: { "font-weight": "400" },
  box: { x: 24, y: 350, width: 193, height: 44 },
};
const viewOf = (changes: Partial<ExperimentView> = {}): ExperimentView => ({
  experiment: "Pricing CTA copy",
  atMs: 300,
  matched: 1,
  visible: 1,
  target: cta,
  overflows: false,
  screen: null,
  ...changes,
});
const spec = specWith({
  goals: [{ name: "Signup completed", event: "signup_success" }],
  pages: [{ id: "pricing", path: "/pricing", steps: [{ click: "#cta-primary" }], expect: { track: ["cta_clicked"] } }],
  experiments: [
    {
      name: "Pricing CTA copy",
      page: "pricing",
      selector: "#cta-primary",
      goals: ["Signup completed"],
      variations: [{ name: "Long copy", js: "x()" }],
    },
  ],
});
const pricing = (changes: Partial<PageArtifacts> = {}) =>
  pageWith({
    page: "pricing",
    viewport: "mobile",
    experimentViews: [viewOf()],
    calls: [callWith({ name: "cta_clicked", atMs: 400 }), callWith({ name: "signup_success", atMs: 450 })],
    ...changes,
  });
const preview = (changes: Partial<PageArtifacts> = {}) =>
  pricing({
    variation: { experiment: "Pricing CTA copy", name: "Long copy", errors: [] },
    experimentViews: [viewOf({ target: { ...cta, text: "Start your free 30-day trial" } })],
    ...changes,
  });
const judged = (pages: PageArtifacts[], variations: PageArtifacts[]) =>
  experimentVariation.evaluate(contextOf(pages, spec, null, variations));

test("a sound preview passes, with page, experiment, variation and viewport named", () => {
  const [found] = judged([pricing()], [preview()]);
  expect(found).toMatchObject({
    check: "experiment.variation",
    status: "pass",
    page: "pricing",
    viewport: "mobile",
    experiment: "Pricing CTA copy",
    variation: "Long copy",
  });
  expect(found!.evidence).toMatchObject({
    needed: ["cta_clicked", "signup_success"],
    variation: { text: "Start your free 30-day trial", events: ["cta_clicked", "signup_success"] },
  });
});

test("a preview whose first screen or filmstrip was left out rather than saved with a secret in it says so, and why", () => {
  const why = "the page could not be searched for text that shows a secret of the run";
  const picturesLeftOut = [
    { picture: "view" as const, why },
    { picture: "filmstrip" as const, why },
  ];
  const [found] = judged([pricing()], [preview({ picturesLeftOut })]);
  expect(found?.status).toBe("pass");
  expect(found?.message).toContain(
    `Its first screen (the side-by-side picture's) was not saved: ${why}; its filmstrip was not saved: ${why}.`,
  );
  expect(found?.evidence).toMatchObject({ picturesLeftOut });
});

test("the preview's lost goal event fails it; a call made before the change, or lost, never counts", () => {
  const lostGoal = preview({
    calls: [
      callWith({ name: "cta_clicked", atMs: 400 }),
      callWith({ name: "signup_success", atMs: 200 }),
      callWith({ name: "signup_success", atMs: 500, state: "lost" }),
    ],
  });
  const [found] = judged([pricing()], [lostGoal]);
  expect(found!.status).toBe("fail");
  expect(found!.message).toBe(
    'Variation "Long copy" of "Pricing CTA copy" on mobile: the journey no longer fires `signup_success`, which the control fires. Change the target\'s content or style in place instead of replacing its markup, so that its listeners stay.',
  );
});

test("a call the page makes on load counts on neither side, whichever side of the view the machine's load put it; a journey's call does", () => {
  const onLoad = (atMs: number) => callWith({ name: "signup_success", atMs, step: null });
  const inJourney = callWith({ name: "cta_clicked", atMs: 350, step: 0 });
  // The control's load call came after its view, the preview's before: nothing was lost.
  const [kept] = judged([pricing({ calls: [onLoad(450), inJourney] })], [preview({ calls: [onLoad(200), inJourney] })]);
  expect(kept!.status).toBe("pass");
  expect(kept!.evidence).toMatchObject({
    control: { events: ["cta_clicked"] },
    variation: { events: ["cta_clicked"] },
  });
  // A journey's call the preview no longer makes is lost, made before the view or not.
  const [lost] = judged(
    [pricing({ calls: [onLoad(450), inJourney] })],
    [preview({ calls: [onLoad(200), { ...inJourney, step: null, atMs: 100 }] })],
  );
  expect(lost!.status).toBe("fail");
  expect(lost!.message).toContain("the journey no longer fires `cta_clicked`");
});

test("with no needed call made during the control's journey, the pass says none was compared", () => {
  const loadOnly = [callWith({ name: "cta_clicked", atMs: 400, step: null })];
  const [found] = judged([pricing({ calls: loadOnly })], [preview({ calls: loadOnly })]);
  expect(found!.status).toBe("pass");
  expect(found!.message).toBe(
    'Variation "Long copy" of "Pricing CTA copy" on mobile previews well: it changes the target, fits the screen (no call it needs was made during the control\'s journey steps, so none was compared).',
  );
  const [compared] = judged([pricing()], [preview()]);
  expect(compared!.message).toContain("keeps the journey's calls and fits the screen.");
});

test("its js's errors, a broken journey and a preview link that does not load fail it", () => {
  const thrown = preview({
    variation: {
      experiment: "Pricing CTA copy",
      name: "Long copy",
      errors: [{ message: "x is not defined", line: 1 }],
    },
  });
  expect(judged([pricing()], [thrown])[0]!.message).toContain('its js throws "x is not defined" at line 1');
  const stuck = preview({ stepError: { step: 0, message: "#cta-primary is not visible" } });
  expect(judged([pricing()], [stuck])[0]!.message).toContain(
    "the journey breaks (step 1: #cta-primary is not visible), which it does not on the control",
  );
  const unloaded = preview({ loadError: "the server answered HTTP 404" });
  expect(judged([pricing()], [unloaded])[0]).toMatchObject({
    status: "fail",
    message: expect.stringContaining("its preview did not load (the server answered HTTP 404)"),
  });
});

test("without its control (another shard's, or a page that did not load) a preview is skipped; a control alone gives no finding", () => {
  expect(judged([], [preview()])[0]).toMatchObject({
    status: "skip",
    message: expect.stringContaining("`merge` judges it"),
  });
  expect(judged([pricing({ loadError: "net::ERR_CONNECTION_REFUSED" })], [preview()])[0]).toMatchObject({
    status: "skip",
    message: expect.stringContaining("see page.load"),
  });
  expect(judged([pricing({ viewport: "desktop" })], [preview()])[0]!.status).toBe("skip");
  expect(judged([pricing()], [])).toEqual([]);
});

test("with a control forced by query, variations are compared with that control, not the page as it is", () => {
  const forcedSpec = { ...spec, experiments: [{ ...spec.experiments[0]!, control: { query: { "cta-copy": "0" } } }] };
  const forcedControl = pricing({
    variation: { experiment: "Pricing CTA copy", name: "control", control: true, errors: [] },
    experimentViews: [viewOf({ target: { ...cta, text: "Start your free 30-day trial" } })],
  });
  const judgedForced = (variations: PageArtifacts[]) =>
    experimentVariation.evaluate(contextOf([pricing()], forcedSpec, null, variations));
  // The page as it is showed other copy (its visitor was bucketed into another variation): only the forced control counts.
  expect(judgedForced([forcedControl, preview()])).toEqual([
    expect.objectContaining({
      variation: "Long copy",
      status: "fail",
      message: expect.stringContaining("it changes nothing visible"),
    }),
  ]);
  expect(judgedForced([preview()])[0]).toMatchObject({
    status: "skip",
    message: expect.stringContaining("`merge` judges it"),
  });
});
