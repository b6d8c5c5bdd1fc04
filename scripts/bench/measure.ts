import { spawn } from "node:child_process";
import { watchPeakRss } from "./process-tree.js";

/** One measured command. */
export interface Measure {
  wallMs: number;
  peakRss: number;
}

/**
 * Runs `node ARGS…` from the current folder and measures its wall time and the peak memory of
 * its process tree; exit 0 or 1 (an audit's failed verdict) count as run. Its output is
 * dropped, or returned as `stdout` with `{ stdout: true }`.
 */
export function measure(args: string[]): Promise<Measure>;
export function measure(args: string[], options: { stdout: true }): Promise<Measure & { stdout: string }>;
export function measure(args: string[], options: { stdout?: boolean } = {}): Promise<Measure & { stdout?: string }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, args, {
      stdio: ["ignore", options.stdout ? "pipe" : "ignore", "inherit"],
      env: { ...process.env, SERVICE_API_KEY: process.env.SERVICE_API_KEY ?? "test-api-key" },
    });
    const memory = watchPeakRss(child.pid!);
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.on("error", reject);
    // Timed at exit; answered once the output is read to its end.
    let ended: Measure & { code: number | null } = { wallMs: 0, peakRss: 0, code: null };
    child.on("exit", (code) => (ended = { wallMs: Date.now() - started, peakRss: memory.stop(), code }));
    child.on("close", () => {
      const { code, wallMs, peakRss } = ended;
      if (code !== 0 && code !== 1) reject(new Error(`${args.join(" ")} exited ${code}`));
      else resolve({ wallMs, peakRss, ...(options.stdout ? { stdout } : {}) });
    });
  });
}

/** The median of some numbers (the mean of the middle two when there is an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
