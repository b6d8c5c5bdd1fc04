import { inflateSync } from "node:zlib";
import type { TargetPixels } from "../artifacts/types.js";

/**
 * A target's pixels in coarse cells: the mean colour of each square of CELL_CSS_PX CSS pixels of
 * its clip. Chromium rasters the page in tiles, so the same target drawn at another place can
 * differ by a few edge pixels where a tile boundary crosses it; cell means barely move then,
 * while a change of glyphs, spacing or colour moves them by far more.
 */

/** The side of a cell, in CSS pixels. */
export const CELL_CSS_PX = 8;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Bytes per pixel of the 8-bit colour types read here: RGB and RGBA. */
const BYTES_PER_PIXEL: Record<number, number> = { 2: 3, 6: 4 };

/** The image's pixels, 8-bit RGB or RGBA rows without their filter bytes; null for any other PNG (another depth, a palette, interlaced). */
function decodePng(png: Buffer): { width: number; height: number; bpp: number; pixels: Buffer } | null {
  if (png.length < 33 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const [depth, colourType, , , interlace] = png.subarray(24, 29);
  const bpp = BYTES_PER_PIXEL[colourType!];
  if (depth !== 8 || bpp === undefined || interlace !== 0) return null;
  const data: Buffer[] = [];
  for (let offset = 8; offset + 8 <= png.length; ) {
    const length = png.readUInt32BE(offset);
    if (png.toString("latin1", offset + 4, offset + 8) === "IDAT")
      data.push(png.subarray(offset + 8, offset + 8 + length));
    offset += length + 12;
  }
  const filtered = inflateSync(Buffer.concat(data));
  const stride = width * bpp;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = filtered[y * (stride + 1)]!;
    const row = filtered.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= bpp ? pixels[y * stride + x - bpp]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const upLeft = x >= bpp && y > 0 ? pixels[(y - 1) * stride + x - bpp]! : 0;
      pixels[y * stride + x] = (row[x]! + predictor(filter, left, up, upLeft)) & 0xff;
    }
  }
  return { width, height, bpp, pixels };
}

/** The value a PNG row filter predicts from the bytes left, up and up-left. */
function predictor(filter: number, left: number, up: number, upLeft: number): number {
  if (filter === 1) return left;
  if (filter === 2) return up;
  if (filter === 3) return (left + up) >> 1;
  if (filter === 4) {
    const estimate = left + up - upLeft;
    const [toLeft, toUp, toUpLeft] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
    return toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft;
  }
  return 0;
}

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
