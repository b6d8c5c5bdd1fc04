import type { Page } from "playwright";
import { MIN_SCRUBBED_LENGTH } from "../privacy/secrets.js";
import { maskedPng, type PixelBox } from "./png.js";

/** A picture saved, or why it was not: its masks could not be placed. */
export type PictureOutcome = { saved: true } | { saved: false; why: string };

/**
 * The one rule of every picture the gatherer saves (the screenshot, the view screens, the
 * filmstrip's frames): each field a step types a secret or a canary into, and each text or field
 * value on the page that shows one of the run's secrets, is painted over in the mask's colour. A
 * picture whose masks cannot all be placed is not saved, and the page's artifacts say why.
 */

/** What the pictures of a page mask. */
export interface PictureMasks {
  page: Page;
  /** The fields a step of the page types a secret (`valueEnv`) or a canary into, by selector: masked wherever they are. */
  selectors: readonly string[];
  /** Those of them a step has typed into by now: a picture is not saved without each of them found. */
  typed: readonly string[];
  /** The run's secrets: every text and field value that shows one is masked. */
  secrets: readonly string[];
}

/** An area of the page, in CSS pixels of its document. */
export interface PageArea {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Where the masks of a picture go, or why they cannot be placed (and the picture is not saved). */
export type MaskPlacement = { areas: PageArea[] } | { unplaced: string };

/** A box in CSS pixels of the document. */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** True when a picture of the page has anything to mask, or to look for. */
export function hasMasks(masks: PictureMasks): boolean {
  return masks.selectors.length > 0 || shownSecrets(masks).length > 0;
}

/** The secrets long enough to be told from ordinary text (shorter ones are named in a warning instead). */
function shownSecrets(masks: PictureMasks): string[] {
  return masks.secrets.filter((secret) => secret.length >= MIN_SCRUBBED_LENGTH);
}

/** Where the page's masks go now: each field that is there, and each text that shows a secret. */
export async function placeMasks(masks: PictureMasks): Promise<MaskPlacement> {
  const { page, selectors, typed } = masks;
  const secrets = shownSecrets(masks);
  const [fields, texts] = await Promise.all([
    Promise.all(selectors.map((selector) => fieldBoxes(page, selector))),
    secrets.length === 0 ? [] : page.evaluate(secretTextBoxes, secrets).catch(() => null),
  ]);
  const missing = selectors.find((selector, index) => typed.includes(selector) && fields[index]!.length === 0);
  if (missing !== undefined)
    return {
      unplaced: `the field ${missing}, which a step typed a secret or a canary into, was not on the page to be masked`,
    };
  if (texts === null) return { unplaced: "the page could not be searched for text that shows a secret of the run" };
  return {
    areas: [...fields.flat(), ...texts].map((box) => ({
      left: box.x,
      top: box.y,
      right: box.x + box.width,
      bottom: box.y + box.height,
    })),
  };
}

/** The boxes of what `selector` matches now; none when it matches nothing, or the page cannot say. */
function fieldBoxes(page: Page, selector: string): Promise<Box[]> {
  return page
    .locator(selector)
    .evaluateAll((elements) =>
      elements.map((element) => {
        const rect = element.getBoundingClientRect();
        return { x: rect.x + scrollX, y: rect.y + scrollY, width: rect.width, height: rect.height };
      }),
    )
    .catch(() => []);
}

/**
 * `png`, a picture of the page area `clip` (CSS pixels of the document), with `areas` painted over;
 * null when it cannot be read to paint them.
 */
export function maskedPicture(png: Buffer, clip: Box, areas: readonly PageArea[]): Buffer | null {
  const scale = png.readUInt32BE(16) / clip.width;
  const boxes: PixelBox[] = areas.map((area) => ({
    x: (area.left - clip.x) * scale,
    y: (area.top - clip.y) * scale,
    width: (area.right - area.left) * scale,
    height: (area.bottom - area.top) * scale,
  }));
  return maskedPng(png, boxes);
}

/**
 * In the page: the box of each text that shows one of `secrets` (a secret split across elements
 * too, as the text reads), and of each field whose value or placeholder shows one, in the document,
 * its open shadow roots and its same-origin frames, in CSS pixels of the top document. Text that
 * is not rendered has no box. Serialised into the page, so it must be self-contained.
 */
function secretTextBoxes(secrets: readonly string[]): Box[] {
  const boxes: Box[] = [];
  const keep = (rect: DOMRect, offset: { x: number; y: number }) => {
    if (rect.width > 0 && rect.height > 0)
      boxes.push({ x: rect.x + offset.x, y: rect.y + offset.y, width: rect.width, height: rect.height });
  };
  const search = (root: Document | ShadowRoot, offset: { x: number; y: number }) => {
    const doc = (root.ownerDocument ?? root) as Document;
    const nodes: { node: Text; start: number; end: number }[] = [];
    let text = "";
    const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const start = text.length;
      text += node.nodeValue ?? "";
      nodes.push({ node: node as Text, start, end: text.length });
    }
    for (const secret of secrets) {
      for (let from = text.indexOf(secret); from !== -1; from = text.indexOf(secret, from + 1)) {
        const to = from + secret.length;
        const first = nodes.find((entry) => entry.end > from)!;
        const last = nodes.find((entry) => entry.end >= to)!;
        const range = doc.createRange();
        range.setStart(first.node, from - first.start);
        range.setEnd(last.node, to - last.start);
        for (const rect of range.getClientRects()) keep(rect, offset);
      }
    }
    for (const element of root.querySelectorAll("*")) {
      const field = element as HTMLInputElement;
      if (
        (element.localName === "input" || element.localName === "textarea") &&
        secrets.some((secret) => field.value.includes(secret) || field.placeholder.includes(secret))
      )
        keep(element.getBoundingClientRect(), offset);
      if (element.shadowRoot) search(element.shadowRoot, offset);
      const inner = element.localName === "iframe" ? (element as HTMLIFrameElement).contentDocument : null;
      if (inner) {
        const frame = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        search(inner, {
          x: offset.x + frame.x + element.clientLeft + Number.parseFloat(style.paddingLeft),
          y: offset.y + frame.y + element.clientTop + Number.parseFloat(style.paddingTop),
        });
      }
    }
  };
  search(document, { x: scrollX, y: scrollY });
  return boxes;
}
