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
   */
  async waitForQuiet(condition: () => boolean, activity: () => number, quietMs: number, timeoutMs: number): Promise<boolean> {
    let seen = activity();
    let since = Date.now();
    let wake: ReturnType<typeof setTimeout> | undefined;
    const settled = () => {
      const current = activity();
      if (current !== seen) {
        seen = current;
        since = Date.now();
      }
      if (!condition()) return false;
      const left = since + quietMs - Date.now();
      if (left <= 0) return true;
      clearTimeout(wake);
      wake = setTimeout(() => this.notify(), left);
      return false;
    };
    try {
      return await this.waitFor(settled, timeoutMs);
    } finally {
      clearTimeout(wake);
    }
  }
}
