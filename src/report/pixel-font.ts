import { fillBox, type Raster, type Rgb } from "./raster.js";

/**
 * A 5×7 bitmap font for printable ASCII, so the report's images can carry a label without a font
 * file or a canvas library. Anything else is drawn as '?'.
 */

const GLYPH_WIDTH = 5;
const GLYPH_HEIGHT = 7;
/** One blank column between glyphs. */
const ADVANCE = GLYPH_WIDTH + 1;
/** What a cut text ends with; '…' itself is not in the font. */
const ELLIPSIS = "...";

/**
 * Each line: characters, then their glyphs in the same order, 5 columns of 2 hex digits each, left
 * to right; bit 0 of a column is the glyph's top row.
 */
const GLYPH_TABLE: ReadonlyArray<readonly [string, string]> = [
  [" !\"#$%&'()*+,-./", "0000000000 00005f0000 0007000700 147f147f14 242a7f2a12 2313086462 3649552250 0005030000 001c224100 0041221c00 14083e0814 08083e0808 0050300000 0808080808 0060600000 2010080402"],
  ["0123456789:;<=>?", "3e5149453e 00427f4000 4261514946 2141454b31 1814127f10 2745454539 3c4a494930 0171090503 3649494936 064949291e 0036360000 0056360000 0814224100 1414141414 0041221408 0201510906"],
  ["@ABCDEFGHIJKLMNO", "324979413e 7e1111117e 7f49494936 3e41414122 7f4141221c 7f49494941 7f09090901 3e4149497a 7f0808087f 00417f4100 2040413f01 7f08142241 7f40404040 7f020c027f 7f0408107f 3e4141413e"],
  ["PQRSTUVWXYZ[\\]^_", "7f09090906 3e4151215e 7f09192946 4649494931 01017f0101 3f4040403f 1f2040201f 3f4038403f 6314081463 0708700807 6151494543 007f414100 0204081020 0041417f00 0402010204 4040404040"],
  ["`abcdefghijklmno", "0001020400 2054545478 7f48444438 3844444420 384444487f 3854545418 087e090102 0c5252523e 7f08040478 00447d4000 2040443d00 7f10284400 00417f4000 7c04180478 7c08040478 3844444438"],
  ["pqrstuvwxyz{|}~", "7c14141408 081414187c 7c08040408 4854545420 043f444020 3c4040207c 1c2040201c 3c4030403c 4428102844 0c5050503c 4464544c44 0008364100 00007f0000 0041360800 1008081008"],
];

/** Each printable ASCII character → its 5 column bitmasks. */
const GLYPHS: ReadonlyMap<string, Buffer> = new Map(
  GLYPH_TABLE.flatMap(([characters, glyphs]) => glyphs.split(" ").map((glyph, i) => [characters[i]!, Buffer.from(glyph, "hex")] as const)),
);

/** The width of `text` drawn at `scale` (each font pixel a scale × scale square). */
export function textWidth(text: string, scale: number): number {
  const characters = [...text].length;
  return characters === 0 ? 0 : (characters * ADVANCE - 1) * scale;
}

/** The height of a line of text drawn at `scale`. */
export function lineHeight(scale: number): number {
  return GLYPH_HEIGHT * scale;
}

/** `text` as it fits in `maxWidth` at `scale`: whole, or cut with '...'; nothing when not even that fits. */
export function fitText(text: string, maxWidth: number, scale: number): string {
  if (textWidth(text, scale) <= maxWidth) return text;
  const characters = [...text];
  for (let kept = characters.length - 1; kept > 0; kept--) {
    const cut = `${characters.slice(0, kept).join("").trimEnd()}${ELLIPSIS}`;
    if (textWidth(cut, scale) <= maxWidth) return cut;
  }
  return textWidth(ELLIPSIS, scale) <= maxWidth ? ELLIPSIS : "";
}

/** Draws `text` on one line with its top left corner at (x, y); the caller makes sure it fits. */
export function drawText(raster: Raster, text: string, x: number, y: number, scale: number, colour: Rgb): void {
  [...text].forEach((character, index) => {
    const glyph = GLYPHS.get(character) ?? GLYPHS.get("?")!;
    const left = x + index * ADVANCE * scale;
    glyph.forEach((column, dx) => {
      for (let dy = 0; dy < GLYPH_HEIGHT; dy++) {
        if (column & (1 << dy)) fillBox(raster, { x: left + dx * scale, y: y + dy * scale, width: scale, height: scale }, colour);
      }
    });
  });
}
