import { expect, test } from "@playwright/test";
import { drawScaled, type Raster } from "../../src/report/raster.js";

/** A raster from rows of grey levels, opaque. */
function greys(rows: number[][]): Raster {
  const width = rows[0]!.length;
  return { width, height: rows.length, data: Buffer.from(rows.flat().flatMap((level) => [level, level, level, 255])) };
}

/** The grey levels of a raster's red channel, row by row. */
function levels(raster: Raster): number[][] {
  return Array.from({ length: raster.height }, (_, y) => Array.from({ length: raster.width }, (_, x) => raster.data[(y * raster.width + x) * 4]!));
}

test("shrinking averages the pixels each target pixel covers", () => {
  const source = greys([
    [0, 100, 200, 200],
    [100, 200, 200, 0],
  ]);
  const target = greys([[9, 9, 9]]);
  drawScaled(source, { x: 0, y: 0, width: 4, height: 2 }, target, { x: 1, y: 0, width: 2, height: 1 });
  expect(levels(target)).toEqual([[9, 100, 150]]);
});

test("enlarging repeats the nearest pixel of the part copied", () => {
  const source = greys([
    [7, 7, 7],
    [7, 10, 20],
  ]);
  const target = greys([
    [0, 0, 0, 0],
    [0, 0, 0, 0],
  ]);
  drawScaled(source, { x: 1, y: 1, width: 2, height: 1 }, target, { x: 0, y: 0, width: 4, height: 2 });
  expect(levels(target)).toEqual([
    [10, 10, 20, 20],
    [10, 10, 20, 20],
  ]);
});
