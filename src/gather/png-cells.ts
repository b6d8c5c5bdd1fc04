import type { TargetPixels } from "../artifacts/types.js";
import { decodePng } from "./png.js";

/**
 * A target's pixels in coarse cells: the mean colour of each square of CELL_CSS_PX CSS pixels of
 * its clip. Chromium rasters the page in tiles, so the same target drawn at another place can
 * differ by a few edge pixels where a tile boundary crosses it; cell means barely move then,
 * while a change of glyphs, spacing or colour moves them by far more.
 */

/** The side of a cell, in CSS pixels. */
export const CELL_CSS_PX = 8;

/** The cells of a target's PNG, whose clip is `clipWidth` × `clipHeight` CSS pixels; null when the PNG cannot be read here. */
export function pngCells(
  png: Buffer,
  clipWidth: number,
  clipHeight: number,
): NonNullable<TargetPixels["cells"]> | null {
  const image = decodePng(png);
  if (image === null) return null;
  const columns = Math.ceil(clipWidth / CELL_CSS_PX);
  const rows = Math.ceil(clipHeight / CELL_CSS_PX);
  const sums = new Float64Array(columns * rows * 3);
  const counts = new Float64Array(columns * rows);
  for (let y = 0; y < image.height; y++) {
    const row = Math.min(rows - 1, Math.floor((y * clipHeight) / image.height / CELL_CSS_PX));
    for (let x = 0; x < image.width; x++) {
      const cell = row * columns + Math.min(columns - 1, Math.floor((x * clipWidth) / image.width / CELL_CSS_PX));
      const at = (y * image.width + x) * image.bpp;
      for (let channel = 0; channel < 3; channel++) sums[cell * 3 + channel]! += image.pixels[at + channel]!;
      counts[cell]! += 1;
    }
  }
  const means = Buffer.from(sums.map((sum, index) => Math.round(sum / Math.max(1, counts[Math.floor(index / 3)]!))));
  return { columns, rows, means: means.toString("base64") };
}
