import { expect, test } from "@playwright/test";
import { joinDocuments, type DocumentSample } from "../../src/gather/flicker.js";

/** The frames of the documents a page showed (a client-side redirect, a reload) joined on the first navigation's clock. */
const box = { x: 0, y: 0, width: 240, height: 40 };
const document = (
  timeOrigin: number,
  looks: string[],
  frames: DocumentSample["frames"],
  costMs = 2,
  hiddenChanges: DocumentSample["hiddenChanges"] = [[0, 0]],
): DocumentSample => ({ timeOrigin, looks, boxes: looks.map(() => box), frames, hiddenChanges, costMs });

test("each document's frames and hidden changes move onto the first's clock, in the order the documents started; the same look on two documents is one look", () => {
  const second = document(
    1_000_500,
    ["long", "control"],
    [
      [10, 0, -1],
      [30, 0, 0],
      [50, 0, 1],
    ],
    3,
    [
      [2, 1],
      [40, 0],
    ],
  );
  const first = document(
    1_000_000,
    ["control"],
    [
      [20, 0, -1],
      [40, 0, 0],
      [400, 1, -2],
    ],
    2,
    [
      [1, 0],
      [380, 1],
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
    // Hidden from 380 ms on the first document until the second showed its page, at 540 ms.
    hiddenChanges: [
      [1, 0],
      [380, 1],
      [502, 1],
      [540, 0],
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
