import { expect, test } from "@playwright/test";
import { Signal } from "../../src/gather/signal.js";

/** A second clock the test moves by hand: each wait resolves when the test says so. */
function handClock() {
  const waits: { ms: number; pass: () => void; fail: (error: Error) => void }[] = [];
  const clock = (ms: number) => new Promise<void>((pass, fail) => waits.push({ ms, pass, fail }));
  return { clock, waits };
}

test("quiet needs the window on both clocks: the wait ends only once the page's clock has passed it too", async () => {
  const signal = new Signal();
  const { clock, waits } = handClock();
  let ended = false;
  const quiet = signal
    .waitForQuiet(
      () => true,
      () => 0,
      50,
      2_000,
      { pageClock: clock },
    )
    .then((met) => (ended = met));
  await new Promise((resolve) => setTimeout(resolve, 150));
  expect(ended).toBe(false);
  expect(waits.map((wait) => wait.ms)).toEqual([50]);
  waits[0]!.pass();
  expect(await quiet).toBe(true);
});

test("activity starts the page's clock again, and a page clock that fails (the page navigated) counts as passed", async () => {
  const signal = new Signal();
  const { clock, waits } = handClock();
  let calls = 0;
  let ended = false;
  const quiet = signal
    .waitForQuiet(
      () => true,
      () => calls,
      50,
      2_000,
      { pageClock: clock },
    )
    .then((met) => (ended = met));
  calls = 1;
  signal.notify();
  expect(waits).toHaveLength(2);
  // The first clock is stale: its passing does not end the wait.
  waits[0]!.pass();
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(ended).toBe(false);
  waits[1]!.fail(new Error("Execution context was destroyed"));
  expect(await quiet).toBe(true);
});

test("a page clock that never passes is bounded by the timeout", async () => {
  const { clock } = handClock();
  expect(
    await new Signal().waitForQuiet(
      () => true,
      () => 0,
      20,
      200,
      { pageClock: clock },
    ),
  ).toBe(false);
});

/** A wait with a 300 ms timeout, a request sent at once and answered 400 ms later: whether the wait saw the answer. */
async function answerAfterTheTimeout(options: { lateActivityMs?: number }): Promise<boolean> {
  const signal = new Signal();
  let requests = 0;
  let answered = false;
  const quiet = signal.waitForQuiet(
    () => answered,
    () => requests,
    10,
    300,
    options,
  );
  requests = 1;
  signal.notify();
  await new Promise((resolve) => setTimeout(resolve, 400));
  answered = true;
  requests = 2;
  signal.notify();
  return quiet;
}

test("what comes late moves the end: a request sent before the timeout gets its answer after it", async () => {
  expect(await answerAfterTheTimeout({ lateActivityMs: 5_000 })).toBe(true);
  expect(await answerAfterTheTimeout({})).toBe(false);
});

test("a page that never stops does not hold the wait past the timeout and the late window", async () => {
  const signal = new Signal();
  let requests = 0;
  const busy = setInterval(() => {
    requests++;
    signal.notify();
  }, 10);
  try {
    expect(
      await signal.waitForQuiet(
        () => false,
        () => requests,
        10,
        50,
        { lateActivityMs: 100 },
      ),
    ).toBe(false);
  } finally {
    clearInterval(busy);
  }
});
