/**
 * Drawing on decoded images, as pngjs hands them over: rows of RGBA bytes. Just what the report's
 * images need (filled boxes and scaled copies), so no canvas library and its native build.
 */

/** An image as rows of RGBA bytes, 4 a pixel, top row first: what pngjs decodes and encodes. */
export interface Raster {
  /** Pixels a row. */
  width: number;
  /** Rows. */
  height: number;
  /** width × height × 4 bytes. */
  data: Buffer;
}

/** A box in an image's pixels. */
export interface Box {
  /** Left edge. */
  x: number;
  /** Top edge. */
  y: number;
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
}

/** An opaque colour: red, green, blue, 0–255 each. */
export type Rgb = readonly [number, number, number];

/** Paints `box` (whole pixels, inside the raster) with one opaque colour. */
export function fillBox(raster: Raster, box: Box, colour: Rgb): void {
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      const at = (y * raster.width + x) * 4;
      raster.data[at] = colour[0];
      raster.data[at + 1] = colour[1];
      raster.data[at + 2] = colour[2];
      raster.data[at + 3] = 255;
    }
  }
}

/**
 * Copies the `from` box of `source` onto the `to` box of `target`, scaled to fit it (whole pixels,
 * both boxes inside their rasters). Each target pixel takes the average of the source pixels it
 * covers: an area average when shrinking, the nearest source pixel when enlarging.
 */
export function drawScaled(source: Raster, from: Box, target: Raster, to: Box): void {
  const columns = coveredSpans(from.x, from.width, to.width);
  const rows = coveredSpans(from.y, from.height, to.height);
  for (let row = 0; row < to.height; row++) {
    const [top, bottom] = [rows[2 * row]!, rows[2 * row + 1]!];
    for (let column = 0; column < to.width; column++) {
      const [left, right] = [columns[2 * column]!, columns[2 * column + 1]!];
      const at = ((to.y + row) * target.width + to.x + column) * 4;
      const covered = (bottom - top) * (right - left);
      for (let channel = 0; channel < 4; channel++) {
        let sum = 0;
        for (let y = top; y < bottom; y++) {
          for (let x = left; x < right; x++) sum += source.data[(y * source.width + x) * 4 + channel]!;
        }
        target.data[at + channel] = Math.round(sum / covered);
      }
    }
  }
}

/**
 * For each of `count` target pixels along one axis, the source pixels it covers as a [start, end)
 * pair, flattened. Floored bounds share the source out with no gap and no overlap when shrinking,
 * and give each target pixel at least one source pixel when enlarging.
 */
function coveredSpans(start: number, length: number, count: number): Int32Array {
  const spans = new Int32Array(2 * count);
  for (let i = 0; i < count; i++) {
    const first = start + Math.floor((i * length) / count);
    spans[2 * i] = first;
    spans[2 * i + 1] = Math.max(first + 1, start + Math.floor(((i + 1) * length) / count));
  }
  return spans;
}
