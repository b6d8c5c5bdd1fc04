import { expect } from "@playwright/test";
import { PNG } from "pngjs";
import { renderPicture } from "../../src/cli/pictures.js";
import {
  COLUMN_GUTTER,
  sideBySidePage,
  type Box,
  type SideBySideColumn,
  type SideBySideOptions,
} from "../../src/report/side-by-side.js";
import { test as browserTest } from "../support/browser.js";

/** An opaque colour: red, green, blue, 0–255 each. */
type Rgb = readonly [number, number, number];

/** The colours the tests look for: the synthetic pages', and the ones the image is drawn with. */
const COLOURS = {
  white: [255, 255, 255],
  page: [200, 220, 240],
  navy: [40, 40, 160],
  purple: [150, 60, 160],
  teal: [0, 130, 130],
  orange: [230, 120, 20],
  placeholder: [232, 232, 232],
  pass: [46, 160, 67],
  warn: [242, 169, 0],
  fail: [218, 54, 51],
} satisfies Record<string, Rgb>;
type Colour = keyof typeof COLOURS;

const COLUMN_WIDTH = 360;
const DESKTOP = { width: 1280, height: 720 };
const MOBILE = { width: 1080, height: 2400 };
/** A wide element in the desktop page: its crop is shrunk to the column's width. */
const DESKTOP_TARGET: Box = { x: 320, y: 200, width: 640, height: 240 };

/** A screenshot of a page in one colour, with the target element in another when there is one. */
function screenshot(size: { width: number; height: number }, target?: { box: Box; colour: Colour }): Buffer {
  const rowOf = (colourAt: (x: number) => Colour) =>
    Buffer.concat(Array.from({ length: size.width }, (_, x) => Buffer.from([...COLOURS[colourAt(x)], 255])));
  const plain = rowOf(() => "page");
  const box = target?.box;
  const crossing =
    box === undefined ? plain : rowOf((x) => (x >= box.x && x < box.x + box.width ? target!.colour : "page"));
  const image = new PNG(size);
  for (let y = 0; y < size.height; y++) {
    const inside = box !== undefined && y >= box.y && y < box.y + box.height;
    (inside ? crossing : plain).copy(image.data, y * size.width * 4);
  }
  return PNG.sync.write(image);
}

function column(
  label: string,
  status: SideBySideColumn["status"],
  colour: Colour,
  size = DESKTOP,
  box = DESKTOP_TARGET,
): SideBySideColumn {
  return { label, status, screen: screenshot(size, { box, colour }), target: box };
}

function pixel(image: PNG, x: number, y: number): Rgb {
  const at = (y * image.width + x) * 4;
  return [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!];
}

const isColour = (value: Rgb, colour: Rgb) => value.every((channel, i) => channel === colour[i]);

/**
 * Going down one column of pixels, where each colour of COLOURS begins: pixels of no colour of
 * COLOURS (text, blends at edges) are passed over, so a run of one colour is a section of the image.
 */
function runsDown(image: PNG, x: number): Array<{ colour: Colour; top: number }> {
  const runs: Array<{ colour: Colour; top: number }> = [];
  for (let y = 0; y < image.height; y++) {
    const value = pixel(image, x, y);
    const colour = (Object.keys(COLOURS) as Colour[]).find((name) => isColour(value, COLOURS[name]));
    if (colour !== undefined && runs.at(-1)?.colour !== colour) runs.push({ colour, top: y });
  }
  return runs;
}

const centreOf = (index: number, width = COLUMN_WIDTH) => index * (width + COLUMN_GUTTER) + width / 2;
const colours = (runs: ReadonlyArray<{ colour: Colour }>) => runs.map((run) => run.colour);

/** Pixels inside `box` of the image that are not `colour`: text, where a box of one colour holds some. */
function pixelsOtherThan(image: PNG, box: Box, colour: Rgb): number {
  let count = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) if (!isColour(pixel(image, x, y), colour)) count++;
  }
  return count;
}

/** Tests with `compose`: the picture of some columns as the browser renders it, decoded. */
const test = browserTest.extend<{
  compose: (columns: readonly SideBySideColumn[], options?: SideBySideOptions) => Promise<PNG>;
}>({
  compose: async ({ browser }, use) => {
    const page = await browser.newPage();
    await use(async (columns, options) => PNG.sync.read(await renderPicture(page, sideBySidePage(columns, options))));
    await page.close();
  },
});

test("columns keep their order, each as wide as asked with a gutter between, under a band of its verdict's colour", async ({
  compose,
}) => {
  const columns = [
    column("control", null, "navy"),
    column("bigger button", "pass", "purple"),
    column("no button", "warn", "teal"),
    column("red button", "fail", "orange"),
  ];
  const image = await compose(columns);
  expect(image.width).toBe(4 * COLUMN_WIDTH + 3 * COLUMN_GUTTER);
  // The crop (the element with its margin of page), a gap, then the first screen (page, element, page).
  expect(colours(runsDown(image, centreOf(0)))).toEqual([
    "white",
    "page",
    "navy",
    "page",
    "white",
    "page",
    "navy",
    "page",
  ]);
  expect(colours(runsDown(image, centreOf(1)))).toEqual([
    "white",
    "pass",
    "white",
    "page",
    "purple",
    "page",
    "white",
    "page",
    "purple",
    "page",
  ]);
  expect(colours(runsDown(image, centreOf(2)))).toEqual([
    "white",
    "warn",
    "white",
    "page",
    "teal",
    "page",
    "white",
    "page",
    "teal",
    "page",
  ]);
  expect(colours(runsDown(image, centreOf(3)))).toEqual([
    "white",
    "fail",
    "white",
    "page",
    "orange",
    "page",
    "white",
    "page",
    "orange",
    "page",
  ]);
  expect(colours(runsDown(image, COLUMN_WIDTH + COLUMN_GUTTER / 2))).toEqual(["white"]);
});

test("a column width of its own sets the image's width", async ({ compose }) => {
  const image = await compose([column("control", null, "navy"), column("bigger button", "pass", "purple")], {
    columnWidth: 200,
  });
  expect(image.width).toBe(2 * 200 + COLUMN_GUTTER);
  expect(colours(runsDown(image, centreOf(1, 200)))).toEqual([
    "white",
    "pass",
    "white",
    "page",
    "purple",
    "page",
    "white",
    "page",
    "purple",
    "page",
  ]);
});

test("a variation whose element matched nothing, or lies below the first screen, shows a grey placeholder with text as tall as the crop row", async ({
  compose,
}) => {
  const unmatched = { label: "no element", status: "warn", screen: screenshot(DESKTOP), target: null } as const;
  const below = column("below the fold", "fail", "teal", DESKTOP, { x: 100, y: 900, width: 200, height: 50 });
  const image = await compose([column("control", null, "navy"), unmatched, below]);
  const control = runsDown(image, centreOf(0));
  for (const index of [1, 2]) {
    const runs = runsDown(image, centreOf(index));
    expect(colours(runs).slice(2)).toEqual(["white", "placeholder", "white", "page"]);
    // Its placeholder fills the crop row the control's crop sets: from the crop's top to the gap under it.
    expect([runs[3]!.top, runs[4]!.top]).toEqual([control[1]!.top, control[4]!.top]);
    const placeholder = {
      x: index * (COLUMN_WIDTH + COLUMN_GUTTER),
      y: runs[3]!.top,
      width: COLUMN_WIDTH,
      height: runs[4]!.top - runs[3]!.top,
    };
    expect(pixelsOtherThan(image, placeholder, COLOURS.placeholder)).toBeGreaterThan(0);
  }
});

test("an element partly outside the screenshot is cropped to it, and a small crop is enlarged twice at most", async ({
  compose,
}) => {
  const small = { width: 400, height: 300 };
  // The element overhangs the bottom right corner: 50 × 50 pixels of it show, 16 of margin above and to the left.
  const image = await compose([column("control", null, "navy", small, { x: 350, y: 250, width: 200, height: 200 })]);
  const runs = runsDown(image, centreOf(0));
  expect(colours(runs)).toEqual(["white", "page", "navy", "white", "page"]);
  const cropMiddle = runs[2]!.top + 10;
  let cropWidth = 0;
  for (let x = 0; x < image.width; x++) if (!isColour(pixel(image, x, cropMiddle), COLOURS.white)) cropWidth++;
  expect(cropWidth).toBe(2 * 66);
  expect(runs[3]!.top - runs[1]!.top).toBe(2 * 66);
});

test("every column's crop is drawn at one zoom, so a shorter button looks shorter beside a longer one", async ({
  compose,
}) => {
  const small = { width: 400, height: 300 };
  const short = column("control", null, "navy", small, { x: 50, y: 50, width: 100, height: 40 });
  const long = column("longer button", "pass", "purple", small, { x: 50, y: 50, width: 300, height: 40 });
  const image = await compose([short, long]);
  /** In the crop's row through the element: pixels of the element's colour, and pixels of the crop (not white). */
  const widthsAt = (index: number, colour: Colour) => {
    const runs = runsDown(image, centreOf(index));
    const y = runs.find((run) => run.colour === colour)!.top + 2;
    const left = index * (COLUMN_WIDTH + COLUMN_GUTTER);
    const row = Array.from({ length: COLUMN_WIDTH }, (_, x) => pixel(image, left + x, y));
    return {
      element: row.filter((value) => isColour(value, COLOURS[colour])).length,
      crop: row.filter((value) => !isColour(value, COLOURS.white)).length,
    };
  };
  // The longer crop (332 px with its margin) sets the zoom, 360 / 332: the control's alone would have been enlarged twice.
  const zoom = COLUMN_WIDTH / 332;
  const [shorter, longer] = [widthsAt(0, "navy"), widthsAt(1, "purple")];
  expect([shorter.crop, longer.crop]).toEqual([Math.round(132 * zoom), COLUMN_WIDTH]);
  expect(longer.element / shorter.element).toBeCloseTo(3, 1);
  // The browser scales the crop smoothly: a pixel at the element's edge blends it with the page.
  expect(Math.abs(shorter.element - 100 * zoom)).toBeLessThan(1.5);
});

test("a desktop and a phone screenshot line up: crops in one row, first screens in the next, each as tall as its tallest", async ({
  compose,
}) => {
  const phone = column("bigger button", "pass", "purple", MOBILE, { x: 40, y: 600, width: 1000, height: 400 });
  const image = await compose([column("control", null, "navy"), phone]);
  const desktop = runsDown(image, centreOf(0));
  const mobile = runsDown(image, centreOf(1));
  expect(colours(desktop)).toEqual(["white", "page", "navy", "page", "white", "page", "navy", "page", "white"]);
  expect(colours(mobile)).toEqual([
    "white",
    "pass",
    "white",
    "page",
    "purple",
    "page",
    "white",
    "page",
    "purple",
    "page",
  ]);
  expect(mobile[3]!.top).toBe(desktop[1]!.top);
  expect(mobile[7]!.top).toBe(desktop[5]!.top);
  // The phone's first screen, scaled to the column, is the tallest: 2400 × 360 / 1080 pixels; the desktop's ends above it.
  expect(image.height - mobile[7]!.top).toBe(800);
  expect(desktop[8]!.top - desktop[5]!.top).toBe(Math.round((720 * COLUMN_WIDTH) / 1280));
});

test("a label too long for its column is cut there, leaving the gutter white", async ({ compose }) => {
  const long = column("a variation whose name is far too long for one column", "pass", "purple");
  const image = await compose([long, column("control", null, "navy")]);
  let rightmostText = -1;
  for (let y = 0; y < 30; y++) {
    for (let x = 0; x < COLUMN_WIDTH + COLUMN_GUTTER; x++)
      if (!isColour(pixel(image, x, y), COLOURS.white)) rightmostText = Math.max(rightmostText, x);
  }
  expect(rightmostText).toBeLessThan(COLUMN_WIDTH);
  expect(rightmostText).toBeGreaterThan(COLUMN_WIDTH - 24);
});

test("a label is drawn in its own script: one labelled 'Größe 中文' differs from one labelled 'Gr??e ??'", async ({
  compose,
}) => {
  const labelRow = (image: PNG) => image.data.subarray(0, 30 * image.width * 4);
  const labelled = async (label: string) => compose([column(label, null, "navy")]);
  const [script, substituted] = [await labelled("Größe 中文"), await labelled("Gr??e ??")];
  expect(labelRow(script).equals(labelRow(substituted))).toBe(false);
  // Part by part, each script's letters are drawn as themselves: the Latin with its diacritics, the Han, right to left the Arabic.
  for (const [text, asQuestionMarks] of [
    ["Größe", "Gr??e"],
    ["中文", "??"],
    ["مرحبا", "?????"],
  ] as const) {
    const [drawn, substitute] = [await labelled(text), await labelled(asQuestionMarks)];
    expect(labelRow(drawn).equals(labelRow(substitute)), text).toBe(false);
    expect(
      pixelsOtherThan(drawn, { x: 0, y: 0, width: COLUMN_WIDTH, height: 30 }, COLOURS.white),
      text,
    ).toBeGreaterThan(0);
  }
});

test("a label is text, never markup", () => {
  const { html } = sideBySidePage([column('<img src="x"> & co', null, "navy")]);
  expect(html).toContain(">&lt;img src=&quot;x&quot;&gt; &amp; co</div>");
});

test("no column, or a screenshot that is not a PNG, is refused with a clear error", () => {
  expect(() => sideBySidePage([])).toThrow("sideBySidePage needs at least one column (the control); it was given none");
  const broken = { ...column("control", null, "navy"), screen: Buffer.from("<html>not a screenshot</html>") };
  expect(() => sideBySidePage([broken])).toThrow('The screenshot of column "control" is not a PNG');
});
