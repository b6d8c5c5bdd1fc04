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
}
