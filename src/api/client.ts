import { request } from "undici";
import type { ApiFailure } from "./artifacts.js";
import { redactSecret } from "../privacy/redact.js";
import { formatDuration } from "../text/wording.js";
import { backoffMs, DEFAULT_RETRY_POLICY, isRetryableStatus, retryAfterMs, type RetryPolicy } from "./retry.js";

/** Time as the client sees it; injectable so that tests of the retry timing need not wait. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** What an API client needs: where, with which key, and how politely. */
export interface ApiClientOptions {
  /** The service's base URL; the spec's `api.baseUrl`, path prefix allowed. */
  baseUrl: string;
  /** The API key, sent in `X-Service-Api-Key` and redacted from everything the client reports. */
  key: string;
  /** Overrides of the default retry policy. */
  policy?: Partial<RetryPolicy>;
  /** The clock of the waits and the budget; default the real one. */
  clock?: Clock;
  /** Random numbers in [0, 1) for the jitter. */
  random?: () => number;
}

/** The outcome of one GET, retries included: the body of a 2xx answer, or why there was none. */
export type ApiAnswer = {
  /** The URL requested, key redacted. */
  url: string;
  /** Requests sent, the first included. */
  attempts: number;
  /** Time from the first request to the outcome, waits included. */
  durationMs: number;
} & (
  | {
      ok: true;
      /** The 2xx status. */
      status: number;
      /** The body as text (not redacted: the gatherer redacts what it keeps). */
      body: string;
      /** The answer's Date header, when it sent one. */
      date: string | null;
    }
  | { ok: false /** Why there was no usable answer, key redacted. */; failure: ApiFailure }
);

/** One request's result, before the retry decision. */
type Attempt =
  | { kind: "answer"; status: number; body: string; date: string | null; retryAfter: string | undefined }
  | { kind: "network" | "timeout"; detail: string };

const BODY_EXCERPT_CHARS = 200;

/**
 * The one client for the service API (undici): the key in a header, a timeout per request, and
 * retries only on 429, 5xx and network errors — with full-jitter exponential backoff, honouring
 * Retry-After, bounded in attempts and in total time.
 */
export class ApiClient {
  private readonly policy: RetryPolicy;
  private readonly clock: Clock;
  private readonly random: () => number;

  constructor(private readonly options: ApiClientOptions) {
    // A spec's retry section lists only what it overrides: an absent field keeps the default.
    const overrides = Object.entries(options.policy ?? {}).filter(([, value]) => value !== undefined);
    this.policy = { ...DEFAULT_RETRY_POLICY, ...Object.fromEntries(overrides) };
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
  }

  /** The full URL of `path` (which starts with `/`) under the base URL, its prefix kept. */
  urlOf(path: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, "")}${path}`;
  }

  /** GETs `path`, retrying politely; never throws. */
  async get(path: string): Promise<ApiAnswer> {
    const url = this.urlOf(path);
    const shownUrl = this.redact(url);
    const started = this.clock.now();
    const elapsed = () => this.clock.now() - started;
    for (let attempts = 1; ; attempts++) {
      const attempt = await this.send(
        url,
        Math.max(1, Math.min(this.policy.timeoutMs, this.policy.totalTimeoutMs - elapsed())),
      );
      const done = (failure: ApiFailure): ApiAnswer => ({
        url: shownUrl,
        attempts,
        durationMs: elapsed(),
        ok: false,
        failure,
      });
      if (attempt.kind === "answer" && !isRetryableStatus(attempt.status)) {
        if (attempt.status >= 200 && attempt.status < 300) {
          return {
            url: shownUrl,
            attempts,
            durationMs: elapsed(),
            ok: true,
            status: attempt.status,
            body: attempt.body,
            date: attempt.date,
          };
        }
        return done(this.httpFailure(attempt));
      }
      const failure =
        attempt.kind === "answer"
          ? this.httpFailure(attempt)
          : { kind: attempt.kind, status: null, detail: this.redact(attempt.detail) };
      if (attempts >= this.policy.attempts) return done(failure);
      const asked = attempt.kind === "answer" ? retryAfterMs(attempt.retryAfter, this.clock.now()) : null;
      const left = this.policy.totalTimeoutMs - elapsed();
      if (asked !== null && asked > left) {
        return done({
          kind: "retry-after",
          status: failure.status,
          detail: `${failure.detail}; the service asked to wait ${formatDuration(asked)} (Retry-After), more than the ${formatDuration(left)} left of the ${formatDuration(this.policy.totalTimeoutMs)} budget`,
        });
      }
      const wait = asked ?? backoffMs(attempts, this.policy, this.random);
      // A wait that leaves no time for the next request would only delay the same failure.
      if (wait >= left) return done(failure);
      await this.clock.sleep(wait);
    }
  }

  private async send(url: string, timeoutMs: number): Promise<Attempt> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await request(url, {
        method: "GET",
        headers: { "x-service-api-key": this.options.key, accept: "application/json", "user-agent": "setup-audit" },
        signal: controller.signal,
      });
      const body = await response.body.text();
      return {
        kind: "answer",
        status: response.statusCode,
        body,
        date: header(response.headers.date) ?? null,
        retryAfter: header(response.headers["retry-after"]),
      };
    } catch (error) {
      if (controller.signal.aborted)
        return { kind: "timeout", detail: `no complete answer within ${formatDuration(timeoutMs)}` };
      return { kind: "network", detail: networkDetail(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  private httpFailure(answer: Extract<Attempt, { kind: "answer" }>): ApiFailure {
    const body = answer.body.trim() === "" ? "an empty body" : `body ${this.excerpt(answer.body)}`;
    return { kind: "http", status: answer.status, detail: `HTTP ${answer.status} with ${body}` };
  }

  /** A short quote of a body for a message: whitespace collapsed, truncated, key redacted. */
  excerpt(body: string): string {
    const flat = this.redact(body).replace(/\s+/g, " ").trim();
    return flat.length > BODY_EXCERPT_CHARS ? `${flat.slice(0, BODY_EXCERPT_CHARS)}…` : flat;
  }

  /** `text` without the key. */
  redact(text: string): string {
    return redactSecret(text, this.options.key);
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function networkDetail(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const text = cause?.message ?? message ?? String(error);
  const errorCode = cause?.code ?? code;
  return errorCode && !text.includes(errorCode) ? `${text} (${errorCode})` : text;
}
