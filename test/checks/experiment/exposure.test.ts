import { expect, test } from "@playwright/test";
import type { FlickerFrames, PageArtifacts } from "../../../src/artifacts/types.js";
import { experimentExposure } from "../../../src/checks/experiment/exposure.js";
import { callWith, collectOf, contextOf, pageWith, specWith } from "../../support/artifacts.js";

/** experiment.exposure on artifact values: the page as it is (with its reload) and each variation's preview. */
const EXPERIMENT = "Pricing CTA copy";
const spec = specWith({
  goals: [{ name: "CTA clicked", event: "cta_clicked" }],
  pages: [{ id: "pricing", path: "/pricing", steps: [{ click: "#cta" }] }],
  experiments: [
    {
      name: EXPERIMENT,
      page: "pricing",
      selector: "#cta",
      goals: ["CTA clicked"],
      exposure: {
        event: "Experiment Viewed",
        properties: { experiment_id: "cta-copy" },
        variationProperty: "variation_id",
      },
      variations: [
        { name: "Long copy", query: { visitor: "visitor-fixed-1" }, id: "cta-long" },
        { name: "Bold copy", css: "#cta { font-weight: 700 }" },
        { name: "Preview link", query: { "cta-copy": "1" } },
      ],
    },
  ],
});
const exposed = (variation: string, atMs = 200, experiment = "cta-copy") =>
  callWith({ name: "Experiment Viewed", properties: { experiment_id: experiment, variation_id: variation }, atMs });
const goal = (atMs = 600) => callWith({ name: "cta_clicked", atMs });
const reloadWith = (...calls: ReturnType<typeof callWith>[]): PageArtifacts["reload"] => ({
  atMs: 2000,
  loadError: null,
  calls,
  collect: [],
});
const pricing = (changes: Partial<PageArtifacts> = {}) =>
  pageWith({
    page: "pricing",
    viewport: "mobile",
    calls: [exposed("cta-long"), goal()],
    reload: reloadWith(exposed("cta-long", 2200)),
    ...changes,
  });
const preview = (name: string, calls: ReturnType<typeof callWith>[]) =>
  pricing({ variation: { experiment: EXPERIMENT, name, errors: [] }, calls, reload: null });
const judged = (pages: PageArtifacts[], variations: PageArtifacts[] = []) =>
  experimentExposure.evaluate(contextOf(pages, spec, null, variations));
const asIs = (page: PageArtifacts) => judged([page])[0]!;

test("the page as it is passes with one exposure before the goal and the same variation after a reload, naming experiment, page and viewport, variation null", () => {
  expect(asIs(pricing())).toMatchObject({
    check: "experiment.exposure",
    status: "pass",
    page: "pricing",
    viewport: "mobile",
    experiment: EXPERIMENT,
    variation: null,
    message:
      'The exposure of "Pricing CTA copy" on pricing as it is (mobile) fired once, naming "cta-long", before the goal\'s event, and again after a reload.',
    evidence: { fired: 1, variations: ["cta-long"], afterReload: ["cta-long"] },
  });
  // Any variation may be shown there: its id is not judged.
  expect(asIs(pricing({ calls: [exposed("0"), goal()], reload: reloadWith(exposed("0", 2300)) })).status).toBe("pass");
});

test("on the page as it is: never, twice, after the goal or re-bucketed on reload each fail, saying so", () => {
  expect(asIs(pricing({ calls: [goal()], reload: reloadWith() }))).toMatchObject({
    status: "fail",
    message: expect.stringContaining("as it is (mobile): it did not fire. Send the exposure"),
  });
  expect(asIs(pricing({ calls: [exposed("cta-long"), exposed("cta-long", 201), goal()] })).message).toContain(
    'it fired 2 times on one page ("cta-long", "cta-long")',
  );
  expect(asIs(pricing({ calls: [goal(100), exposed("cta-long", 300)] })).message).toContain(
    "it came after the goal's event `cta_clicked`",
  );
  expect(asIs(pricing({ reload: reloadWith(exposed("control", 2200)) })).message).toContain(
    'it named another variation after a reload in the same browser ("cta-long", then "control"): the visitor was bucketed again. Keep the visitor\'s id',
  );
  expect(asIs(pricing({ reload: reloadWith() })).message).toContain("it did not fire again after a reload");
  // Another experiment's exposure, or another event, is not this one's.
  expect(
    asIs(
      pricing({
        calls: [
          exposed("cta-long"),
          exposed("b", 210, "hero-copy"),
          callWith({ name: "Experiment Seen", properties: { experiment_id: "cta-copy" } }),
          goal(),
        ],
      }),
    ).status,
  ).toBe("pass");
});

test("a journey that moves to another page may fire it again there, once, naming the same variation; another variation there is a bucketing again", () => {
  const on = (path: string, call: ReturnType<typeof callWith>) => ({
    ...call,
    documentUrl: `http://127.0.0.1:47412${path}`,
  });
  const journey = (second: string) =>
    pricing({
      calls: [on("/pricing", exposed("cta-long")), on("/pricing", goal()), on("/checkout", exposed(second, 900))],
    });
  expect(asIs(journey("cta-long")).status).toBe("pass");
  expect(asIs(journey("control")).message).toContain(
    'it named another variation on another page of the journey ("cta-long", "control"): the visitor was bucketed again. Keep the visitor\'s id',
  );
  expect(
    asIs(
      pricing({
        calls: [
          on("/pricing", exposed("cta-long")),
          on("/checkout", exposed("cta-long", 900)),
          on("/checkout", exposed("cta-long", 901)),
          goal(950),
        ],
      }),
    ).message,
  ).toContain("it fired 2 times on one page");
});

test("the page as it is without a reload in its artifacts (saved before reloads) is judged on its load; a page that did not load is skipped", () => {
  expect(asIs(pricing({ reload: undefined })).status).toBe("pass");
  expect(asIs(pricing({ loadError: "net::ERR_CONNECTION_REFUSED" }))).toMatchObject({
    status: "skip",
    message: expect.stringContaining("the page did not load"),
  });
});

test("a forced variation passes once with its id before the goal, fails twice, with another id or after the goal, and is skipped without an exposure", () => {
  const forced = (calls: ReturnType<typeof callWith>[]) =>
    judged([pricing()], [preview("Long copy", calls)]).find((found) => found.variation === "Long copy")!;
  expect(forced([exposed("cta-long"), goal()])).toMatchObject({
    status: "pass",
    variation: "Long copy",
    page: "pricing",
    viewport: "mobile",
    experiment: EXPERIMENT,
  });
  expect(forced([exposed("cta-long"), exposed("cta-long", 250), goal()]).message).toContain("it fired 2 times");
  expect(forced([exposed("1"), goal()]).message).toContain(
    'it named "1" instead of the variation\'s id "cta-long". Send the variation\'s key',
  );
  expect(forced([goal(100), exposed("cta-long")]).message).toContain("it came after the goal's event `cta_clicked`");
  expect(forced([goal()])).toMatchObject({
    status: "skip",
    message: expect.stringContaining("sent no `Experiment Viewed` for the forced preview"),
  });
});

test("the default id is the variation's 1-based position; a js or css variation is skipped, saying the audit applies it", () => {
  const found = judged([pricing()], [preview("Preview link", [exposed("3")]), preview("Bold copy", [exposed("2")])]);
  expect(found.find((each) => each.variation === "Preview link")!.status).toBe("pass");
  expect(found.find((each) => each.variation === "Bold copy")).toMatchObject({
    status: "skip",
    message: expect.stringContaining("the audit applies this variation's css itself"),
  });
});

test("an experiment without exposure gives no finding", () => {
  const without = { ...spec, experiments: [{ ...spec.experiments[0]!, exposure: undefined }] };
  expect(experimentExposure.evaluate(contextOf([pricing()], without, null, [preview("Long copy", [])]))).toEqual([]);
});

test("calls of one task share their millisecond: the order the page made them decides what came first", () => {
  expect(asIs(pricing({ calls: [goal(300), exposed("cta-long", 300)] })).message).toContain(
    "it came after the goal's event `cta_clicked`",
  );
  expect(asIs(pricing({ calls: [exposed("cta-long", 300), goal(300)] })).status).toBe("pass");
});

/** Frames every 16 ms from `from` to `to` showing `look` (0 the control's, 1 the variation's), on the page's clock. */
const frames = (from: number, to: number, look: number, hidden: 0 | 1 = 0): FlickerFrames["frames"] => {
  const rows: FlickerFrames["frames"] = [];
  for (let at = from; at < to; at += 16) rows.push([at, hidden, look]);
  return rows;
};
/** The page test's clock started 100 ms before the first navigation: a call at `atMs` on it is at `atMs - 100` on the frames'. */
const NAVIGATION_START_MS = 100;
const sampledFrames = (rows: FlickerFrames["frames"], documentStartsMs = [0]): FlickerFrames => ({
  frames: rows,
  signatures: ["a".repeat(40), "b".repeat(40)],
  readAtMs: rows.at(-1)![0] + 16,
  costMs: 10,
  documentStartsMs,
  navigationStartMs: NAVIGATION_START_MS,
  filmstrip: [],
});
const onScreen = (
  calls: ReturnType<typeof callWith>[],
  flicker: FlickerFrames,
  collect: PageArtifacts["collect"] = [collectOf(calls)],
) =>
  judged([pricing()], [{ ...preview("Long copy", calls), flicker, collect }]).find(
    (found) => found.variation === "Long copy",
  )!;

test("on a variation's frames: an exposure made while the target still shows the control's content fails, with the frame times; made as it renders, it passes", () => {
  const rendersAt600 = sampledFrames([...frames(40, 600, 0), ...frames(600, 900, 1)]);
  // Made at 300 ms on the page's clock (400 on the test's): the control showed until 600 ms.
  const early = onScreen([exposed("cta-long", 400), goal(1000)], rendersAt600);
  expect(early).toMatchObject({
    status: "fail",
    evidence: { exposedAtMs: [300], appliedAtMs: 600, controlFrameMs: 312, documentStartsMs: [0] },
  });
  expect(early.message).toContain(
    "it was exposed before it rendered: made at 300 ms while the target still showed the control's content (frame at 312 ms); the variation showed from 600 ms. Send the exposure once the variation is on screen",
  );
  // Hidden by an anti-flicker snippet, the control's content is still what the target holds.
  expect(
    onScreen([exposed("cta-long", 400), goal(1000)], sampledFrames([...frames(40, 600, 0, 1), ...frames(600, 900, 1)]))
      .message,
  ).toContain("(frame at 312 ms, the page hidden)");
  // Made in the task that renders it (the next frame shows the variation): no fault.
  expect(onScreen([exposed("cta-long", 690), goal(1000)], rendersAt600).status).toBe("pass");
  // One frame of the control after it is no evidence: the sampler may run before a render that lands in that frame.
  expect(onScreen([exposed("cta-long", 670), goal(1000)], rendersAt600).status).toBe("pass");
  expect(onScreen([exposed("cta-long", 650), goal(1000)], rendersAt600)).toMatchObject({
    status: "fail",
    evidence: { controlFrameMs: 552 },
  });
  // Before the target exists, it is judged on the first frames that show it: the control's, then the variation's.
  const absentFirst = (showing: number) =>
    sampledFrames([...frames(40, 200, -1), ...frames(200, 600, showing), ...frames(600, 900, 1)]);
  expect(onScreen([exposed("cta-long", 200), goal(1000)], absentFirst(0))).toMatchObject({
    status: "fail",
    evidence: { exposedAtMs: [100], controlFrameMs: 200 },
  });
  expect(onScreen([exposed("cta-long", 200), goal(1000)], absentFirst(1)).status).toBe("pass");
});

test("calls read from the network (the SDK's global could not be wrapped) carry the requests' times, not the page's: the screen is not judged", () => {
  const rendersAt600 = sampledFrames([...frames(40, 600, 0), ...frames(600, 900, 1)]);
  const calls = [exposed("cta-long", 400), goal(1000)];
  const fromNetwork = judged(
    [pricing()],
    [
      {
        ...preview("Long copy", calls),
        flicker: rendersAt600,
        collect: [collectOf(calls)],
        callsFromNetwork: { reason: "frozen", detail: "the global is frozen" },
      },
    ],
  ).find((found) => found.variation === "Long copy")!;
  expect(fromNetwork.status).toBe("pass");
  expect(fromNetwork.evidence).not.toHaveProperty("controlFrameMs");
});

test("a variation that redirects: its exposure may come before the target exists, on the page it leaves, but must be delivered before it leaves", () => {
  // The control on the first document until 500 ms, the variation's URL from then.
  const redirected = sampledFrames([...frames(40, 500, 0), ...frames(560, 900, 1)], [0, 500]);
  const exposure = exposed("cta-long", 300);
  expect(onScreen([exposure, goal(1000)], redirected)).toMatchObject({
    status: "pass",
    evidence: { exposedAtMs: [200], documentStartsMs: [0, 500] },
  });
  const lost = onScreen([exposure, goal(1000)], redirected, [collectOf([goal(1000)])]);
  expect(lost).toMatchObject({ status: "fail", evidence: { lostAtMs: 200 } });
  expect(lost.message).toContain(
    "it was lost: made at 200 ms on a page that left for another URL at 500 ms, before it was delivered. Let the exposure leave before the redirect",
  );
});

test("without frames on the calls' clock (saved before documents were followed), the screen is not judged", () => {
  const {
    documentStartsMs: _starts,
    navigationStartMs: _start,
    ...older
  } = sampledFrames([...frames(40, 600, 0), ...frames(600, 900, 1)]);
  expect(onScreen([exposed("cta-long", 400), goal(1000)], older).status).toBe("pass");
});
