import { expect, test } from "@playwright/test";
import { drawText, fitText, textWidth } from "../../src/report/pixel-font.js";

/** `text` drawn at 1× on a raster just its size, as rows of '#' (ink) and '.' (none). */
function rendered(text: string): string[] {
  const raster = { width: textWidth(text, 1), height: 7, data: Buffer.alloc(textWidth(text, 1) * 7 * 4) };
  drawText(raster, text, 0, 0, 1, [0, 0, 0]);
  return Array.from({ length: raster.height }, (_, y) =>
    Array.from({ length: raster.width }, (_, x) => (raster.data[(y * raster.width + x) * 4 + 3] === 255 ? "#" : ".")).join(""),
  );
}

test("glyphs are 5 × 7 with a blank column between; a character outside printable ASCII is drawn as '?'", () => {
  expect(rendered("H")).toEqual(["#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"]);
  expect(textWidth("Hi", 1)).toBe(11);
  expect(textWidth("Hi", 2)).toBe(22);
  expect(rendered("é😀")).toEqual(rendered("??"));
});

test("a text too wide is cut to the longest start that fits with '...'", () => {
  expect(fitText("control", 100, 2)).toBe("control");
  // 12 pixels a character at 2×: 8 characters take 94 pixels, 9 take 106.
  expect(fitText("bigger button", 100, 2)).toBe("bigge...");
  expect(fitText("big  button", 100, 2)).toBe("big...");
  expect(fitText("bigger button", 30, 2)).toBe("");
});
