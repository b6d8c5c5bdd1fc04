import type { PageArtifacts } from "../../artifacts/types.js";

/** Why the audit could not watch the calls, and what it did instead. */
export function unwatchable(limit: NonNullable<PageArtifacts["callsFromNetwork"]>): string {
  const why = {
    frozen: `\`${limit.detail}\` is frozen (non-writable and non-configurable), so it cannot be watched without changing the page`,
    redefined: `the page redefined \`${limit.detail}\` beyond the audit's reach (a non-configurable property)`,
    "no-global": `the page never defined \`${limit.detail}\` (an npm install that keeps the SDK in its own scope)`,
  }[limit.reason];
  return `${why}; its calls were judged from what the collect requests carried`;
}
