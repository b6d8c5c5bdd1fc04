import { readdirSync, readFileSync } from "node:fs";

/** Resident memory (bytes) of a process and all its descendants, read from /proc. */
export function treeRss(rootPid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      const ppid = Number(status.match(/^PPid:\s+(\d+)/m)?.[1]);
      const kb = Number(status.match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? 0);
      rss.set(Number(entry), kb * 1024);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0;
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Samples a process tree's memory until stopped; `peak()` is the highest total seen. */
export function watchPeakRss(rootPid: number, everyMs = 100): { stop(): number } {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, treeRss(rootPid));
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
