/**
 * Playwright records a stack for every API call and every fixture step, and in the workers that
 * load the audit's TypeScript it maps each frame of each stack through source maps: measured
 * with `--cpu-prof` on 200 pages, a sixth of a gather worker's CPU. No stack a worker records
 * reaches the user (the audit's messages are its own), so the gather workers keep V8's plain
 * stacks.
 */
export function keepPlainStacks(): void {
  Reflect.deleteProperty(Error, "prepareStackTrace");
}
