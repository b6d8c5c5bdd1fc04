import { deflateSync, inflateSync } from "node:zlib";

/**
 * The PNGs Chromium hands the audit (screenshots, screencast frames), read and written without a
 * library: 8-bit RGB or RGBA, not interlaced, which is all Chromium writes.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Bytes per pixel of the 8-bit colour types read here: RGB and RGBA. */
const BYTES_PER_PIXEL: Record<number, number> = { 2: 3, 6: 4 };

/** A PNG's pixels, row after row without their filter bytes. */
export interface DecodedPng {
  width: number;
  height: number;
  /** 3 (RGB) or 4 (RGBA). */
  bpp: number;
  pixels: Buffer;
}

/** The image's pixels; null for any other PNG (another depth, a palette, interlaced). */
export function decodePng(png: Buffer): DecodedPng | null {
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

/** The image as a PNG, each row unfiltered. */
export function encodePng({ width, height, bpp, pixels }: DecodedPng): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, bpp === 4 ? 6 : 2, 0, 0, 0], 8);
  const stride = width * bpp;
  const rows = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) pixels.copy(rows, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(data.length + 12);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A box in an image's pixels. */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The colour Playwright's screenshot `mask` paints over a field: the same in every picture. */
const MASK_RGB = [0xff, 0x00, 0xff] as const;

/** `png` with each of `boxes` painted over in the mask's colour, cut to the image (the same bytes without any box); null when it cannot be read here. */
export function maskedPng(png: Buffer, boxes: readonly PixelBox[]): Buffer | null {
  if (boxes.length === 0) return png;
  const image = decodePng(png);
  if (image === null) return null;
  for (const box of boxes) {
    const left = Math.max(0, Math.floor(box.x));
    const top = Math.max(0, Math.floor(box.y));
    const right = Math.min(image.width, Math.ceil(box.x + box.width));
    const bottom = Math.min(image.height, Math.ceil(box.y + box.height));
    for (let y = top; y < bottom; y++) {
      for (let x = left; x < right; x++) {
        const at = (y * image.width + x) * image.bpp;
        image.pixels.set(MASK_RGB, at);
        if (image.bpp === 4) image.pixels[at + 3] = 0xff;
      }
    }
  }
  return encodePng(image);
}
