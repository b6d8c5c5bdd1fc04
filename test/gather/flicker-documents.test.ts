import { expect, test } from "@playwright/test";
import { joinDocuments, type DocumentSample } from "../../src/gather/flicker.js";

/** The frames of the documents a page showed (a client-side redirect, a reload) joined on the first navigation's clock. */
const box = { x: 0, y: 0, width: 240, height: 40 };
const document = (
  timeOrigin: number,
  looks: string[],
  frames: DocumentSample["frames"],
  costMs = 2,
): DocumentSample => ({ timeOrigin, looks, boxes: looks.map(() => box), frames, costMs });

test("each document's frames move onto the first's clock, in the order the documents started; the same look on two documents is one look", () => {
  const second = document(
    1_000_500,
    ["long", "control"],
    [
      [10, 0, -1],
      [30, 0, 0],
      [50, 0, 1],
    ],
    3,
  );
  const first = document(
    1_000_000,
    ["control"],
    [
      [20, 0, -1],
      [40, 0, 0],
      [400, 1, -2],
    ],
  );
  expect(joinDocuments([second, first])).toEqual({
    timeOrigin: 1_000_000,
    startsMs: [0, 500],
    looks: ["control", "long"],
    boxes: [box, box],
    frames: [
      [20, 0, -1],
      [40, 0, 0],
      [400, 1, -2],
      // Absent and hidden stay what they are; the second document's looks are the joined ones.
      [510, 0, -1],
      [530, 0, 1],
      [550, 0, 0],
    ],
    costMs: 5,
  });
});

test("one document is itself; none is nothing", () => {
  expect(joinDocuments([document(7, ["control"], [[16, 0, 0]])])).toMatchObject({
    startsMs: [0],
    frames: [[16, 0, 0]],
    looks: ["control"],
  });
  expect(joinDocuments([])).toBeNull();
});
