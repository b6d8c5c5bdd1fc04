import { expect, test } from "@playwright/test";
import { PNG } from "pngjs";
import { pngCells } from "../../src/gather/png-cells.js";

/** A PNG of `width` × `height` device pixels, each pixel's RGBA from `colour`, with the row filter pngjs picks (`filterType: -1`: per row, every kind). */
function png(
  width: number,
  height: number,
  colour: (x: number, y: number) => [number, number, number],
  colorType: 2 | 6 = 6,
): Buffer {
  const image = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = colour(x, y);
      image.data.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  return PNG.sync.write(image, { colorType, filterType: -1 });
}

const meansOf = (cells: ReturnType<typeof pngCells>) => [...Buffer.from(cells!.means, "base64")];

test("each 8 CSS px cell holds the mean colour of its pixels, row by row, whatever the row filters", () => {
  // A 16 × 8 clip: a left cell of a gradient, a right cell half black, half white.
  const image = png(16, 8, (x, y) => (x < 8 ? [x * 16, y * 16, 100] : y < 4 ? [0, 0, 0] : [255, 255, 255]));
  expect(pngCells(image, 16, 8)).toEqual({ columns: 2, rows: 1, means: expect.any(String) });
  expect(meansOf(pngCells(image, 16, 8))).toEqual([56, 56, 100, 128, 128, 128]);
  expect(
    meansOf(
      pngCells(
        png(16, 8, (x, y) => (x < 8 ? [x * 16, y * 16, 100] : [9, 9, 9]), 2),
        16,
        8,
      ),
    ),
  ).toEqual([56, 56, 100, 9, 9, 9]);
});

test("on a phone the cells are 8 CSS px of the clip, whatever the device pixels per CSS pixel; a last partial cell counts", () => {
  // A 10 × 4 CSS px clip at 2.5 device pixels per CSS pixel: 25 × 10 device pixels, 2 × 1 cells.
  const image = png(25, 10, (x) => (x < 20 ? [200, 0, 0] : [0, 0, 200]));
  expect(pngCells(image, 10, 4)).toMatchObject({ columns: 2, rows: 1 });
  expect(meansOf(pngCells(image, 10, 4))).toEqual([200, 0, 0, 0, 0, 200]);
});

test("a PNG read elsewhere (another bit depth, a palette) gives no cells", () => {
  const grey = new PNG({ width: 2, height: 2, colorType: 0, inputColorType: 0, bitDepth: 8 });
  expect(pngCells(PNG.sync.write(grey, { colorType: 0, inputColorType: 0 }), 2, 2)).toBeNull();
  expect(pngCells(Buffer.from("not a png"), 2, 2)).toBeNull();
});
