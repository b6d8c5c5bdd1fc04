/** Wakes waiters whenever something they watch may have changed: event-driven waits, no polling. */
export class Signal {
  private readonly waiters = new Set<() => void>();

  /** Tells every waiter to look again. */
  notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Resolves true as soon as `condition` holds, or false when `timeoutMs` passes first. */
  waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
    const endsAt = Date.now() + timeoutMs;
    return this.waitUntil(condition, () => endsAt);
  }

  /** Resolves true as soon as `condition` holds, or false once `endsAt()` (epoch milliseconds, read anew at each change) passed first. */
  private waitUntil(condition: () => boolean, endsAt: () => number): Promise<boolean> {
    if (condition()) return Promise.resolve(true);
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let timerAt = 0;
      const finish = (met: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(met);
      };
      const check = () => {
        if (condition()) return finish(true);
        const at = endsAt();
        if (at <= Date.now()) return finish(false);
        if (at === timerAt) return;
        clearTimeout(timer);
        timerAt = at;
        timer = setTimeout(() => {
          timerAt = 0;
          check();
        }, at - Date.now());
      };
      this.waiters.add(check);
      check();
    });
  }

  /**
   * Resolves true once `condition` holds and `activity()` has not changed for `quietMs`, or false
   * when `timeoutMs` passes first. `activity` counts what may still come (calls, requests).
   * `pageClock(ms)`, when given, resolves once `ms` have passed on a second clock (the page's
   * own): quiet then also needs `quietMs` of that clock since the last activity, so that a page
   * whose thread runs late (a busy page, a starved renderer on a loaded machine) still gets its
   * quiet window. It settling either way counts as the time passed.
   * `lateActivityMs`, when given, is how long anything new is waited for: activity seen during the
   * wait moves its end to that long after it, up to that long past `timeoutMs` (a request the page
   * sends just before the end gets its answer; a page that never stops does not hold the wait).
   */
  async waitForQuiet(
    condition: () => boolean,
    activity: () => number,
    quietMs: number,
    timeoutMs: number,
    { pageClock, lateActivityMs = 0 }: { pageClock?: (ms: number) => Promise<unknown>; lateActivityMs?: number } = {},
  ): Promise<boolean> {
    let seen = activity();
    let since = Date.now();
    const endsAt = since + timeoutMs;
    let lastActivityAt = Number.NEGATIVE_INFINITY;
    let wake: ReturnType<typeof setTimeout> | undefined;
    let round = 0;
    let pageQuiet = pageClock === undefined;
    const startPageClock = () => {
      if (pageClock === undefined) return;
      const started = ++round;
      pageQuiet = false;
      const passed = () => {
        if (started !== round) return;
        pageQuiet = true;
        this.notify();
      };
      pageClock(quietMs).then(passed, passed);
    };
    const settled = () => {
      const current = activity();
      if (current !== seen) {
        seen = current;
        since = Date.now();
        lastActivityAt = since;
        startPageClock();
      }
      if (!condition()) return false;
      const left = since + quietMs - Date.now();
      if (left <= 0) return pageQuiet;
      clearTimeout(wake);
      wake = setTimeout(() => this.notify(), left);
      return false;
    };
    startPageClock();
    try {
      return await this.waitUntil(settled, () =>
        Math.max(endsAt, Math.min(lastActivityAt + lateActivityMs, endsAt + lateActivityMs)),
      );
    } finally {
      clearTimeout(wake);
      round++;
    }
  }
}
