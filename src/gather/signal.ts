/** Wakes waiters whenever something they watch may have changed: event-driven waits, no polling. */
export class Signal {
  private readonly waiters = new Set<() => void>();

  /** Tells every waiter to look again. */
  notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Resolves true as soon as `condition` holds, or false when `timeoutMs` passes first. */
  waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
    if (condition()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (met: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(met);
      };
      const check = () => {
        if (condition()) finish(true);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.waiters.add(check);
    });
  }

  /**
   * Resolves true once `condition` holds and `activity()` has not changed for `quietMs`, or false
   * when `timeoutMs` passes first. `activity` counts what may still come (calls, requests).
   * `pageClock(ms)`, when given, resolves once `ms` have passed on a second clock (the page's
   * own): quiet then also needs `quietMs` of that clock since the last activity, so that a page
   * whose thread runs late (a busy page, a starved renderer on a loaded machine) still gets its
   * quiet window. It settling either way counts as the time passed.
   */
  async waitForQuiet(
    condition: () => boolean,
    activity: () => number,
    quietMs: number,
    timeoutMs: number,
    pageClock?: (ms: number) => Promise<unknown>,
  ): Promise<boolean> {
    let seen = activity();
    let since = Date.now();
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
      return await this.waitFor(settled, timeoutMs);
    } finally {
      clearTimeout(wake);
      round++;
    }
  }
}
