/**
 * The retry policy of the API client: which answers are retried, how long to wait between
 * attempts, and when to give up. Pure, so the timing can be tested without waiting.
 *
 * Kept rather than undici's RetryAgent/RetryHandler, which waits without jitter, caps a
 * Retry-After at its maximum wait instead of budgeting it, has no total time bound, sleeps on
 * the real clock, and hands back neither the attempt count nor the body of the last failed answer
 * (both go into findings). Its `retry` callback could carry jitter and the budget, but the policy
 * would then be this one anyway, split across undici's callback protocol.
 */

/** How the client retries: bounded in attempts and in total time. */
export interface RetryPolicy {
  /** Requests per exchange at most, the first included. */
  attempts: number;
  /** Bound of the first wait; it doubles for each retry, and the wait is drawn below it (full jitter). */
  baseDelayMs: number;
  /** Cap on the bound of one wait (a Retry-After asked for by the service is not capped, only budgeted). */
  maxDelayMs: number;
  /** Budget of one exchange, requests and waits together. */
  totalTimeoutMs: number;
  /** Bound on one request, from sending it to reading the whole body. */
  timeoutMs: number;
}

/** The defaults of the public contract (docs/service-api.md), overridable in the spec's `api.retry`. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  attempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  totalTimeoutMs: 30_000,
  timeoutMs: 10_000,
};

/** True for the statuses worth another attempt: rate limiting and server errors, never other 4xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * The wait before retry number `retry` (1 for the first retry): a random share of
 * `baseDelayMs · 2^(retry-1)`, capped at `maxDelayMs`, so that many clients never retry in step.
 */
export function backoffMs(
  retry: number,
  policy: Pick<RetryPolicy, "baseDelayMs" | "maxDelayMs">,
  random: () => number,
): number {
  const bound = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * bound);
}

/**
 * The wait a `Retry-After` header asks for, in milliseconds: delay-seconds or an HTTP date
 * (counted from `nowMs`; a date in the past means no wait). Null when absent or unreadable.
 */
export function retryAfterMs(header: string | undefined, nowMs: number): number | null {
  if (header === undefined) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its month in letters; without them Date.parse would read "-5" as a year.
  const date = /[a-z]{3}/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}
