import { expect, test } from "@playwright/test";
import { Signal } from "../../src/gather/signal.js";

/** A second clock the test moves by hand: each wait resolves when the test says so. */
function handClock() {
  const all: { ms: number; pass: () => void; fail: (error: Error) => void }[] = [];
  const clock = (ms: number) => new Promise<void>((pass, fail) => all.push({ ms, pass, fail }));
  /** The waits of `ms`, in the order they began. */
  const waitsOf = (ms: number) => all.filter((wait) => wait.ms === ms);
  return { clock, waitsOf };
}

test("quiet needs the window on both clocks: the wait ends only once the page's clock has passed it too", async () => {
  const signal = new Signal();
  const { clock, waitsOf } = handClock();
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
  expect(waitsOf(50)).toHaveLength(1);
  waitsOf(50)[0]!.pass();
  expect(await quiet).toBe(true);
});

test("activity starts the page's clock again, and a page clock that fails (the page navigated) counts as passed", async () => {
  const signal = new Signal();
  const { clock, waitsOf } = handClock();
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
  const waits = waitsOf(50);
  expect(waits).toHaveLength(2);
  // The first clock is stale: its passing does not end the wait.
  waits[0]!.pass();
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(ended).toBe(false);
  waits[1]!.fail(new Error("Execution context was destroyed"));
  expect(await quiet).toBe(true);
});

test("the timeout runs on the page's clock too: a page whose thread runs late gets its time, on the audit's clock up to three times as long", async () => {
  const { clock, waitsOf } = handClock();
  const signal = new Signal();
  let ended: boolean | null = null;
  const wait = signal
    .waitForQuiet(
      () => false,
      () => 0,
      20,
      200,
      { pageClock: clock },
    )
    .then((met) => (ended = met));
  // Past the timeout on the audit's clock, not yet on the page's: still waiting.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(ended).toBeNull();
  waitsOf(200)[0]!.pass();
  expect(await wait).toBe(false);
});

test("a page clock that never passes is bounded by three times the timeout", async () => {
  const { clock } = handClock();
  const started = Date.now();
  expect(
    await new Signal().waitForQuiet(
      () => true,
      () => 0,
      20,
      200,
      { pageClock: clock },
    ),
  ).toBe(false);
  expect(Date.now() - started).toBeGreaterThanOrEqual(600);
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
