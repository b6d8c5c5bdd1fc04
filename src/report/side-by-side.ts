import { PNG } from "pngjs";
import type { Status } from "../results/summary.js";
import { drawText, fitText, lineHeight, textWidth } from "./pixel-font.js";
import { drawScaled, fillBox, type Box, type Raster, type Rgb } from "./raster.js";

/**
 * One image of an experiment's control beside its variations on one viewport: what the target
 * element looks like in each, and the first screen around it, so a reviewer sees at a glance
 * whether a variation shows and where. Columns line up section by section, whatever each
 * screenshot's size, so the eye can move straight across.
 */

/** A variation's verdict on one viewport. */
type Verdict = Exclude<Status, "skip">;

/** One column of the image: the control or a variation. */
export interface SideBySideColumn {
  /** Shown above the column: "control", or the variation's name. */
  label: string;
  /** The variation's verdict on this viewport, drawn as a coloured band under the label; null for the control. */
  status: Verdict | null;
  /** The first screen of the page (a viewport screenshot) as PNG bytes. */
  screen: Buffer;
  /** The experiment's target element in the screenshot's own pixels (already multiplied by the device scale factor); null when no element matched. */
  target: Box | null;
}

/** How the image is laid out; every field is optional. */
export interface SideBySideOptions {
  /** The width of each column in pixels; the first screen is scaled to it. */
  columnWidth?: number;
  /** Pixels of the page kept around the target element, when the screenshot has them. */
  margin?: number;
}

/** White space between two columns, in pixels. */
export const COLUMN_GUTTER = 24;

const TEXT_SCALE = 2;
const LABEL_PADDING = 8;
const LABEL_ROW_HEIGHT = lineHeight(TEXT_SCALE) + 2 * LABEL_PADDING;
const STATUS_BAND_HEIGHT = 8;
/** White space above the crop row and above the screen row. */
const SECTION_GAP = 12;
/** A small element is enlarged to be legible, but no more than this, or it turns into blocks. */
const MAX_CROP_ZOOM = 2;
/** The least height of the crop row when a column shows a placeholder instead, so its text fits. */
const PLACEHOLDER_HEIGHT = 64;

const WHITE: Rgb = [255, 255, 255];
const TEXT_COLOUR: Rgb = [51, 51, 51];
const PLACEHOLDER_COLOUR: Rgb = [232, 232, 232];
const STATUS_COLOURS: Record<Verdict, Rgb> = { pass: [46, 160, 67], warn: [242, 169, 0], fail: [218, 54, 51] };

/** What a column shows in its crop row: part of its screenshot, scaled to a size, or a placeholder's text. */
type CropSection = { kind: "crop"; from: Box; width: number; height: number } | { kind: "placeholder"; text: string };

/** A screenshot's size in pixels. */
type Size = Pick<Box, "width" | "height">;

/**
 * The PNG of `columns` side by side, in their order (the control first). Each column, top to bottom:
 * its label, its status band, its target element with a margin of its page around it, then its
 * whole first screen. Only one screenshot is decoded at a time, since a phone's takes ten megabytes or more.
 */
export function composeSideBySide(columns: readonly SideBySideColumn[], options: SideBySideOptions = {}): Buffer {
  if (columns.length === 0) throw new Error("composeSideBySide needs at least one column (the control); it was given none");
  const { columnWidth = 360, margin = 16 } = options;
  const sizes = columns.map((column) => pngSize(column.screen, column.label));
  const areas = columns.map((column, i) => cropArea(column.target, sizes[i]!, margin));
  // One zoom for every column, so that the targets compare at their true sizes.
  const zoom = Math.min(MAX_CROP_ZOOM, ...areas.flatMap((area) => ("from" in area ? [columnWidth / area.from.width] : [])));
  const crops = areas.map((area): CropSection => ("from" in area ? { kind: "crop", from: area.from, width: Math.max(1, Math.round(area.from.width * zoom)), height: Math.max(1, Math.round(area.from.height * zoom)) } : area));
  const cropRowHeight = Math.max(...crops.map((crop) => (crop.kind === "crop" ? crop.height : PLACEHOLDER_HEIGHT)));
  const screenHeights = sizes.map((size) => Math.max(1, Math.round((size.height * columnWidth) / size.width)));
  const cropTop = LABEL_ROW_HEIGHT + STATUS_BAND_HEIGHT + SECTION_GAP;
  const screenTop = cropTop + cropRowHeight + SECTION_GAP;

  const image = new PNG({ width: columns.length * columnWidth + (columns.length - 1) * COLUMN_GUTTER, height: screenTop + Math.max(...screenHeights) });
  fillBox(image, { x: 0, y: 0, width: image.width, height: image.height }, WHITE);
  columns.forEach((column, i) => {
    const left = i * (columnWidth + COLUMN_GUTTER);
    drawText(image, fitText(column.label, columnWidth, TEXT_SCALE), left, LABEL_PADDING, TEXT_SCALE, TEXT_COLOUR);
    if (column.status !== null) fillBox(image, { x: left, y: LABEL_ROW_HEIGHT, width: columnWidth, height: STATUS_BAND_HEIGHT }, STATUS_COLOURS[column.status]);
    const screen = PNG.sync.read(column.screen);
    const crop = crops[i]!;
    if (crop.kind === "crop") {
      drawScaled(screen, crop.from, image, { x: left + Math.floor((columnWidth - crop.width) / 2), y: cropTop, width: crop.width, height: crop.height });
    } else {
      drawPlaceholder(image, { x: left, y: cropTop, width: columnWidth, height: cropRowHeight }, crop.text);
    }
    drawScaled(screen, { x: 0, y: 0, width: screen.width, height: screen.height }, image, { x: left, y: screenTop, width: columnWidth, height: screenHeights[i]! });
  });
  return PNG.sync.write(image);
}

/**
 * The target element with `margin` pixels of its page around it, cut to the screenshot. A
 * placeholder when no element matched, or when it lies wholly off the first screen.
 */
function cropArea(target: Box | null, screen: Size, margin: number): { from: Box } | Extract<CropSection, { kind: "placeholder" }> {
  if (target === null) return { kind: "placeholder", text: "no element matched" };
  const onScreen = target.x < screen.width && target.y < screen.height && target.x + target.width > 0 && target.y + target.height > 0;
  if (!onScreen || target.width <= 0 || target.height <= 0) return { kind: "placeholder", text: "element off the first screen" };
  // The box comes from CSS pixels times the device scale factor, so its edges may fall between pixels.
  const left = Math.max(0, Math.floor(target.x - margin));
  const top = Math.max(0, Math.floor(target.y - margin));
  const right = Math.min(screen.width, Math.ceil(target.x + target.width + margin));
  const bottom = Math.min(screen.height, Math.ceil(target.y + target.height + margin));
  return { from: { x: left, y: top, width: right - left, height: bottom - top } };
}

/** A light grey block where a crop would be, with `text` in its middle saying why there is none. */
function drawPlaceholder(image: Raster, box: Box, text: string): void {
  fillBox(image, box, PLACEHOLDER_COLOUR);
  const fitted = fitText(text, box.width, TEXT_SCALE);
  const x = box.x + Math.floor((box.width - textWidth(fitted, TEXT_SCALE)) / 2);
  const y = box.y + Math.floor((box.height - lineHeight(TEXT_SCALE)) / 2);
  drawText(image, fitted, x, y, TEXT_SCALE, TEXT_COLOUR);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A PNG's size, read from its header without decoding it: the layout needs every screenshot's
 * size before the first is drawn. The header chunk always comes first, right after the signature.
 */
function pngSize(bytes: Buffer, label: string): Size {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString("latin1", 12, 16) !== "IHDR") {
    throw new Error(`The screenshot of column "${label}" is not a PNG`);
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
