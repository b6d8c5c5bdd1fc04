import { escapeHtml } from "../text/html.js";
import type { Status } from "../findings/finding.js";

/**
 * One picture of an experiment's control beside its variations on one viewport: what the target
 * element looks like in each, and the first screen around it, so a reviewer sees at a glance
 * whether a variation shows and where. Columns line up section by section, whatever each
 * screenshot's size, so the eye can move straight across.
 *
 * The picture is laid out here as a page of HTML (the screenshots in it as data URLs, cropped and
 * scaled by CSS) that a browser renders: its labels are set in the browser's fonts, so a
 * variation's name shows in whatever script it is written in.
 */

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

/** A picture as a page of HTML and its size: rendered at one pixel per CSS pixel, its screenshot is the picture. */
export interface PicturePage {
  html: string;
  width: number;
  height: number;
}

/** Turns a picture's page into PNG bytes: a browser loads it and takes its screenshot. */
export type RenderPicture = (picture: PicturePage) => Promise<Buffer>;

/** White space between two columns, in pixels. */
export const COLUMN_GUTTER = 24;

const LABEL_ROW_HEIGHT = 30;
const STATUS_BAND_HEIGHT = 8;
/** White space above the crop row and above the screen row. */
const SECTION_GAP = 12;
/** A small element is enlarged to be legible, but no more than this, or it turns into blocks. */
const MAX_CROP_ZOOM = 2;
/** The least height of the crop row when a column shows a placeholder instead, so its text fits. */
const PLACEHOLDER_HEIGHT = 64;

/** Every element is placed by its box; a text too long for its box ends with an ellipsis. */
const STYLE = `
body { margin: 0; position: relative; overflow: hidden; background: #fff; color: #333; font: 16px sans-serif; }
body > *, .crop > img { position: absolute; }
.label, .placeholder { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.crop { overflow: hidden; }
.placeholder { background: #e8e8e8; text-align: center; }
.pass { background: #2ea043; }
.warn { background: #f2a900; }
.fail { background: #da3633; }
`;

/** What a column shows in its crop row: part of its screenshot, scaled to a size, or a placeholder's text. */
type CropSection = { kind: "crop"; from: Box; width: number; height: number } | { kind: "placeholder"; text: string };

/** A screenshot's size in pixels. */
type Size = Pick<Box, "width" | "height">;

/**
 * The page of `columns` side by side, in their order (the control first). Each column, top to
 * bottom: its label, its status band, its target element with a margin of its page around it,
 * then its whole first screen.
 */
export function sideBySidePage(columns: readonly SideBySideColumn[], options: SideBySideOptions = {}): PicturePage {
  if (columns.length === 0)
    throw new Error("sideBySidePage needs at least one column (the control); it was given none");
  const { columnWidth = 360, margin = 16 } = options;
  const sizes = columns.map((column) => pngSize(column.screen, column.label));
  const areas = columns.map((column, i) => cropArea(column.target, sizes[i]!, margin));
  // One zoom for every column, so that the targets compare at their true sizes.
  const zoom = Math.min(
    MAX_CROP_ZOOM,
    ...areas.flatMap((area) => ("from" in area ? [columnWidth / area.from.width] : [])),
  );
  const crops = areas.map(
    (area): CropSection =>
      "from" in area
        ? {
            kind: "crop",
            from: area.from,
            width: Math.max(1, Math.round(area.from.width * zoom)),
            height: Math.max(1, Math.round(area.from.height * zoom)),
          }
        : area,
  );
  const cropRowHeight = Math.max(...crops.map((crop) => (crop.kind === "crop" ? crop.height : PLACEHOLDER_HEIGHT)));
  const screenHeights = sizes.map((size) => Math.max(1, Math.round((size.height * columnWidth) / size.width)));
  const cropTop = LABEL_ROW_HEIGHT + STATUS_BAND_HEIGHT + SECTION_GAP;
  const screenTop = cropTop + cropRowHeight + SECTION_GAP;
  const width = columns.length * columnWidth + (columns.length - 1) * COLUMN_GUTTER;
  const height = screenTop + Math.max(...screenHeights);

  const elements = columns.flatMap((column, i) => {
    const left = i * (columnWidth + COLUMN_GUTTER);
    const crop = crops[i]!;
    // The crop and the first screen show one data URL: the browser decodes it once.
    const source = `data:image/png;base64,${column.screen.toString("base64")}`;
    return [
      `<div class="label" dir="auto" style="${place({ x: left, y: 0, width: columnWidth, height: LABEL_ROW_HEIGHT })}; line-height: ${LABEL_ROW_HEIGHT}px">${escapeHtml(column.label)}</div>`,
      column.status === null
        ? ""
        : `<div class="${column.status}" style="${place({ x: left, y: LABEL_ROW_HEIGHT, width: columnWidth, height: STATUS_BAND_HEIGHT })}"></div>`,
      crop.kind === "crop"
        ? cropHtml(source, sizes[i]!, crop, {
            x: left + Math.floor((columnWidth - crop.width) / 2),
            y: cropTop,
            width: crop.width,
            height: crop.height,
          })
        : `<div class="placeholder" style="${place({ x: left, y: cropTop, width: columnWidth, height: cropRowHeight })}; line-height: ${cropRowHeight}px">${escapeHtml(crop.text)}</div>`,
      `<img alt="" src="${source}" style="${place({ x: left, y: screenTop, width: columnWidth, height: screenHeights[i]! })}">`,
    ];
  });
  return picturePage(elements, width, height);
}

/** A picture's page: its elements, each placed by its box, on a body of its size. */
function picturePage(elements: readonly string[], width: number, height: number): PicturePage {
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>${STYLE}</style></head><body style="width: ${width}px; height: ${height}px">${elements.join("")}</body></html>`;
  return { html, width, height };
}

/** The `from` box of a screenshot of `size`, scaled onto `to`: the whole screenshot scaled, in a box that shows that part alone. */
function cropHtml(source: string, size: Size, crop: Extract<CropSection, { kind: "crop" }>, to: Box): string {
  const [scaleX, scaleY] = [crop.width / crop.from.width, crop.height / crop.from.height];
  const scaled = {
    x: -crop.from.x * scaleX,
    y: -crop.from.y * scaleY,
    width: size.width * scaleX,
    height: size.height * scaleY,
  };
  return `<div class="crop" style="${place(to)}"><img alt="" src="${source}" style="${place(scaled)}"></div>`;
}

/** CSS that places an absolutely positioned element on `box`. */
function place(box: Box): string {
  return `left: ${box.x}px; top: ${box.y}px; width: ${box.width}px; height: ${box.height}px`;
}

/** `text` as the content of an HTML element, shown as it is. */
/**
 * The target element with `margin` pixels of its page around it, cut to the screenshot. A
 * placeholder when no element matched, or when it lies wholly off the first screen.
 */
function cropArea(
  target: Box | null,
  screen: Size,
  margin: number,
): { from: Box } | Extract<CropSection, { kind: "placeholder" }> {
  if (target === null) return { kind: "placeholder", text: "no element matched" };
  const onScreen =
    target.x < screen.width && target.y < screen.height && target.x + target.width > 0 && target.y + target.height > 0;
  if (!onScreen || target.width <= 0 || target.height <= 0)
    return { kind: "placeholder", text: "element off the first screen" };
  // The box comes from CSS pixels times the device scale factor, so its edges may fall between pixels.
  const left = Math.max(0, Math.floor(target.x - margin));
  const top = Math.max(0, Math.floor(target.y - margin));
  const right = Math.min(screen.width, Math.ceil(target.x + target.width + margin));
  const bottom = Math.min(screen.height, Math.ceil(target.y + target.height + margin));
  return { from: { x: left, y: top, width: right - left, height: bottom - top } };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A PNG's size, read from its header without decoding it: the layout needs every screenshot's
 * size. The header chunk always comes first, right after the signature.
 */
function pngSize(bytes: Buffer, label: string): Size {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString("latin1", 12, 16) !== "IHDR") {
    throw new Error(`The screenshot of column "${label}" is not a PNG`);
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** One frame of a filmstrip: when it was shown and what, and the target's area in its pixels (null: the whole frame). */
export interface FilmstripPictureFrame {
  /** Shown above the frame: its time on the page's clock, and whether the page was hidden. */
  label: string;
  /** The screencast frame as PNG bytes. */
  screen: Buffer;
  crop: Box | null;
}

/** The least width of a filmstrip frame, so that its label fits. */
const FILMSTRIP_MIN_WIDTH = 120;

/**
 * A variation's filmstrip as a page of HTML: a few frames of its target from the first paint until
 * it settled, left to right, each under its time, all at one zoom (at most 2, and at most 360
 * pixels wide), so that a switch from the control to the variation shows as it happened.
 */
export function filmstripPage(
  frames: readonly FilmstripPictureFrame[],
  options: { frameWidth?: number } = {},
): PicturePage {
  if (frames.length === 0) throw new Error("filmstripPage needs at least one frame; it was given none");
  const { frameWidth = 360 } = options;
  const sizes = frames.map((frame) => pngSize(frame.screen, frame.label));
  const areas = frames.map((frame, i) => cropArea(frame.crop, sizes[i]!, 0));
  const froms = areas.map((area, i): Box => ("from" in area ? area.from : { x: 0, y: 0, ...sizes[i]! }));
  const zoom = Math.min(MAX_CROP_ZOOM, ...froms.map((from) => frameWidth / from.width));
  const crops = froms.map((from) => ({
    kind: "crop" as const,
    from,
    width: Math.max(1, Math.round(from.width * zoom)),
    height: Math.max(1, Math.round(from.height * zoom)),
  }));
  const widths = crops.map((crop) => Math.max(FILMSTRIP_MIN_WIDTH, crop.width));
  const top = LABEL_ROW_HEIGHT + SECTION_GAP / 2;
  const width = widths.reduce((sum, each) => sum + each, 0) + (frames.length - 1) * COLUMN_GUTTER;
  const height = top + Math.max(...crops.map((crop) => crop.height));
  let left = 0;
  const elements = frames.flatMap((frame, i) => {
    const crop = crops[i]!;
    const x = left;
    left += widths[i]! + COLUMN_GUTTER;
    const source = `data:image/png;base64,${frame.screen.toString("base64")}`;
    return [
      `<div class="label" style="${place({ x, y: 0, width: widths[i]!, height: LABEL_ROW_HEIGHT })}; line-height: ${LABEL_ROW_HEIGHT}px">${escapeHtml(frame.label)}</div>`,
      cropHtml(source, sizes[i]!, crop, { x, y: top, width: crop.width, height: crop.height }),
    ];
  });
  return picturePage(elements, width, height);
}
