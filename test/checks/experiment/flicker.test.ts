import { expect, test } from "@playwright/test";
import { flickerTimes } from "../../../src/artifacts/flicker.js";
import type { FlickerFrames, PageArtifacts } from "../../../src/artifacts/types.js";
import { experimentFlicker, judgeFlicker } from "../../../src/checks/experiment/flicker.js";
import { contextOf, pageWith, specWith } from "../../support/artifacts.js";

/** experiment.flicker on frames: what each frame showed, on the page's clock. */
const CONTROL = 0;
const VARIATION = 1;
/** Frames every 16 ms from `from` to `to`, each showing `look`, hidden or not. */
const frames = (from: number, to: number, look: number, hidden: 0 | 1 = 0): FlickerFrames["frames"] => {
  const rows: FlickerFrames["frames"] = [];
  for (let at = from; at < to; at += 16) rows.push([at, hidden, look]);
  return rows;
};
const sampled = (rows: FlickerFrames["frames"], readAtMs = rows.at(-1)![0] + 16): FlickerFrames => ({
  frames: rows,
  signatures: ["a".repeat(40), "b".repeat(40)],
  readAtMs,
  costMs: 12,
  filmstrip: [{ atMs: 40, screen: "views/film0.png", crop: null }],
});

test("times: the control painted until the variation's look stays, hidden frames in all and after it", () => {
  expect(flickerTimes(sampled([...frames(40, 440, CONTROL), ...frames(440, 900, VARIATION)]))).toEqual({
    firstFrameMs: 40,
    appliedAtMs: 440,
    controlPaintedMs: 400,
    hiddenMs: 0,
    hiddenAfterAppliedMs: 0,
  });
  // Hidden until the variation, then shown: nothing of the control was seen.
  expect(flickerTimes(sampled([...frames(40, 440, CONTROL, 1), ...frames(440, 900, VARIATION)]))).toMatchObject({
    controlPaintedMs: 0,
    hiddenMs: 400,
    hiddenAfterAppliedMs: 0,
  });
  // Hidden by a snippet's own timer long after the variation was in place; an absent target (-1) is no control.
  expect(
    flickerTimes(
      sampled([...frames(40, 104, -1), ...frames(104, 1240, VARIATION, 1), ...frames(1240, 1400, VARIATION)]),
    ),
  ).toMatchObject({ appliedAtMs: 104, controlPaintedMs: 0, hiddenMs: 1136, hiddenAfterAppliedMs: 1136 });
  expect(flickerTimes({ frames: [], readAtMs: 0 })).toBeNull();
});

test("times: a page hidden before its first frame counts from when it was hidden until it was shown, however late the first frame", () => {
  // A snippet hid the page at 40 ms and its own 1.5 s timer showed it at 1540 ms, the variation in place at once.
  const hiddenChanges: FlickerFrames["hiddenChanges"] = [
    [2, 0],
    [40, 1],
    [1540, 0],
  ];
  const idle = { ...sampled([...frames(56, 1540, VARIATION, 1), ...frames(1540, 1700, VARIATION)]), hiddenChanges };
  // A busy machine rendered the first frame at 1300 ms: the frames saw 240 ms of it hidden.
  const late = { ...sampled([...frames(1300, 1540, VARIATION, 1), ...frames(1540, 1700, VARIATION)]), hiddenChanges };
  expect(flickerTimes(idle)).toMatchObject({ firstFrameMs: 56, hiddenMs: 1500, hiddenAfterAppliedMs: 1484 });
  expect(flickerTimes(late)).toMatchObject({ firstFrameMs: 1300, hiddenMs: 1500, hiddenAfterAppliedMs: 240 });
  for (const times of [flickerTimes(idle)!, flickerTimes(late)!]) expect(judgeFlicker(times).status).toBe("warn");
  // Rendered only once it was shown again: the visitor waited on a hidden page all the same.
  const afterShown = { ...sampled(frames(1700, 1900, VARIATION)), hiddenChanges };
  expect(flickerTimes(afterShown)).toMatchObject({ firstFrameMs: 1700, hiddenMs: 1500, hiddenAfterAppliedMs: 0 });
  expect(judged([unit("Long copy", afterShown)])[0]).toMatchObject({
    status: "warn",
    message: expect.stringContaining("the page was hidden for 1500 ms in all"),
  });
  // Hidden again and never shown (a redirect that hides the page once more): until the frames were read.
  const hiddenAgain = {
    ...sampled(frames(60, 1000, VARIATION), 2000),
    hiddenChanges: [...hiddenChanges, [1800, 1]] satisfies FlickerFrames["hiddenChanges"],
  };
  expect(flickerTimes(hiddenAgain)).toMatchObject({ hiddenMs: 1700, hiddenAfterAppliedMs: 1680 });
});

test("the verdict: no control frame passes; up to 100 ms warns, beyond fails; hidden 1000 ms or more warns; the worst wins", () => {
  const times = { firstFrameMs: 40, appliedAtMs: 40, controlPaintedMs: 0, hiddenMs: 0, hiddenAfterAppliedMs: 0 };
  expect(judgeFlicker(times).status).toBe("pass");
  expect(judgeFlicker({ ...times, controlPaintedMs: 100 }).status).toBe("warn");
  expect(judgeFlicker({ ...times, controlPaintedMs: 101 }).status).toBe("fail");
  expect(judgeFlicker({ ...times, hiddenMs: 999 }).status).toBe("pass");
  expect(judgeFlicker({ ...times, hiddenMs: 1000 })).toEqual({
    status: "warn",
    reasons: ["the page was hidden for 1000 ms in all"],
  });
  expect(judgeFlicker({ ...times, controlPaintedMs: 700, hiddenMs: 800 }).status).toBe("fail");
});

const EXPERIMENT = "Pricing CTA copy";
const spec = specWith({
  pages: [{ id: "pricing", path: "/pricing" }],
  experiments: [
    {
      name: EXPERIMENT,
      page: "pricing",
      selector: "#cta",
      variations: [
        { name: "Long copy", query: { "cta-copy": "1" } },
        { name: "Bold copy", css: "#cta { font-weight: 700 }" },
      ],
    },
  ],
});
const unit = (name: string, flicker: FlickerFrames | null) =>
  pageWith({ page: "pricing", viewport: "desktop", variation: { experiment: EXPERIMENT, name, errors: [] }, flicker });
const judged = (variations: PageArtifacts[]) =>
  experimentFlicker.evaluate(contextOf([pageWith({ page: "pricing" })], spec, null, variations));

test("a variation forced by query is judged, with the page, experiment, variation and viewport, its times and filmstrip as evidence", () => {
  const [late] = judged([unit("Long copy", sampled([...frames(40, 600, CONTROL), ...frames(600, 900, VARIATION)]))]);
  expect(late).toMatchObject({
    check: "experiment.flicker",
    status: "fail",
    page: "pricing",
    viewport: "desktop",
    experiment: EXPERIMENT,
    variation: "Long copy",
    evidence: {
      controlPaintedMs: 560,
      hiddenMs: 0,
      hiddenAfterAppliedMs: 0,
      appliedAtMs: 600,
      filmstrip: [{ atMs: 40, screen: "views/film0.png" }],
    },
  });
  expect(late!.message).toBe(
    'Variation "Long copy" of "Pricing CTA copy" on desktop: the target showed the control\'s content for 560 ms before the variation replaced it (at 600 ms). Load the experiment SDK before the first paint: a synchronous tag in <head>, or an async tag with blocking="render", instead of one inserted late.',
  );
  expect(judged([unit("Long copy", sampled(frames(40, 900, VARIATION)))])[0]).toMatchObject({
    status: "pass",
    message: expect.stringContaining("shows without flicker"),
  });
  // Across a client-side redirect: the control on the first document counts, the documents are evidence.
  const redirected = judged([
    unit("Long copy", {
      ...sampled([...frames(40, 500, CONTROL), ...frames(560, 900, VARIATION)]),
      documentStartsMs: [0, 520],
    }),
  ])[0]!;
  expect(redirected).toMatchObject({
    status: "fail",
    evidence: { controlPaintedMs: 520, appliedAtMs: 560, documents: 2 },
  });
});

test("a js or css variation is skipped, saying why; so is one without frames", () => {
  expect(judged([unit("Bold copy", null)])[0]).toMatchObject({
    status: "skip",
    variation: "Bold copy",
    message: expect.stringContaining("the audit applies its css itself, and the audit's timing is not the site's"),
  });
  expect(judged([unit("Long copy", null)])[0]).toMatchObject({
    status: "skip",
    message: expect.stringContaining("no frame of it was sampled"),
  });
});

test("a target on screen in no frame is skipped, saying how each frame missed it; a page hidden long enough still warns", () => {
  const offScreen = judged([
    unit("Long copy", sampled([...frames(40, 200, -1), ...frames(200, 400, -2), ...frames(400, 600, VARIATION, 1)])),
  ])[0]!;
  expect(offScreen).toMatchObject({
    status: "skip",
    evidence: { frames: 36, absent: 10, hidden: 13, pageHidden: 13 },
  });
  expect(offScreen.message).toBe(
    'Variation "Long copy" of "Pricing CTA copy" on desktop: not judged, its target was on screen in none of the 36 frames sampled until 608 ms (the selector matched nothing in 10, the target was hidden in 13, the page was hidden in 13), so no frame could show flicker. Check that `#cta` is the element the variation changes, shown before the journey.',
  );
  expect(judged([unit("Long copy", sampled(frames(40, 1200, -2)))])[0]!.message).toContain(
    "(the target was hidden in 73)",
  );
  expect(judged([unit("Long copy", sampled(frames(40, 1200, VARIATION, 1)))])[0]).toMatchObject({
    status: "warn",
    message: expect.stringContaining("the page was hidden for 1168 ms in all"),
  });
  // One frame that shows the target is evidence enough for a pass.
  expect(
    judged([unit("Long copy", sampled([...frames(40, 200, -2), ...frames(200, 216, VARIATION)]))])[0],
  ).toMatchObject({ status: "pass" });
});
