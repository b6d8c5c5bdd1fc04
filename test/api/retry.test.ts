import { expect, test } from "@playwright/test";
import { backoffMs, DEFAULT_RETRY_POLICY, isRetryableStatus, retryAfterMs } from "../../src/api/retry.js";

test("the defaults are those of the contract", () => {
  expect(DEFAULT_RETRY_POLICY).toEqual({
    attempts: 4,
    baseDelayMs: 500,
    maxDelayMs: 8000,
    totalTimeoutMs: 30_000,
    timeoutMs: 10_000,
  });
});

test("only 429 and 5xx are retried", () => {
  expect([200, 400, 401, 403, 404, 409, 429, 500, 502, 503, 504].filter(isRetryableStatus)).toEqual([
    429, 500, 502, 503, 504,
  ]);
});

test("backoff doubles from the base, is capped, and is a random share of its bound (full jitter)", () => {
  const policy = { baseDelayMs: 500, maxDelayMs: 8000 };
  expect([1, 2, 3, 4, 5, 6].map((retry) => backoffMs(retry, policy, () => 0.999_999))).toEqual([
    499, 999, 1999, 3999, 7999, 7999,
  ]);
  expect(backoffMs(3, policy, () => 0.5)).toBe(1000);
  expect(backoffMs(3, policy, () => 0)).toBe(0);
});

test("Retry-After is read as seconds or as an HTTP date", () => {
  const now = Date.parse("2030-01-01T10:00:00Z");
  expect(retryAfterMs("7", now)).toBe(7000);
  expect(retryAfterMs(" 0 ", now)).toBe(0);
  expect(retryAfterMs("Tue, 01 Jan 2030 10:00:03 GMT", now)).toBe(3000);
  expect(retryAfterMs("Tue, 01 Jan 2030 09:59:00 GMT", now)).toBe(0);
  expect(retryAfterMs(undefined, now)).toBeNull();
  expect(retryAfterMs("soon", now)).toBeNull();
  expect(retryAfterMs("-5", now)).toBeNull();
});
