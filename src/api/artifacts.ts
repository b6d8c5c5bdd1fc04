import type { ReportExperiment } from "./service-report.js";
import type { ApiGoal, ApiProject, ApiRecentEvent } from "./schemas.js";

/**
 * What the API gatherer records for the checks: each exchange with the service, its elements as the
 * schemas normalise them, or why it failed. The artifact types (artifacts/types.ts) name them too.
 */

/** Why an API request gave no usable answer. */
export interface ApiFailure {
  /**
   * `http`: an error status (after retries when it was retryable); `network`: no answer at all;
   * `timeout`: no answer within the per-request timeout; `retry-after`: the service asked to wait
   * longer than the remaining budget; `malformed`: a 2xx body that could not be understood;
   * `path`: the configured path could not be filled in, so nothing was sent.
   */
  kind: "http" | "network" | "timeout" | "retry-after" | "malformed" | "path";
  /** HTTP status of the last answer; null when there was none. */
  status: number | null;
  /** What went wrong, with the API key redacted: an error text, or a quote of the body. */
  detail: string;
}

/** One endpoint's exchange with the service, retries included: its elements, or why there are none. */
export type ApiExchange<T> = {
  /** The URL requested (the key is never in it; redacted if it ever were). */
  url: string;
  /** HTTP requests sent for this exchange, retries included. */
  attempts: number;
  /** Wall time of the exchange, waits between retries included. */
  durationMs: number;
  /** HTTP status of the final answer; null when there was none. */
  status: number | null;
} & (
  | {
      /** The elements of the answer's `data`, validated leniently and normalised. */
      data: T[];
      failure: null;
    }
  | {
      data: null;
      /** Why the exchange failed. */
      failure: ApiFailure;
    }
);

/** Everything gathered from the service API for one spec × environment, once per run. */
export interface ApiArtifacts {
  /** The environment variable the spec names for the key (`api.keyEnv`). */
  keyEnv: string;
  /** False when that variable was unset or empty, so nothing was requested. */
  keySet: boolean;
  /** When the API gather began (ISO-8601), by the service's clock when it sent a Date header: the cutoff for recent events. */
  startedAt: string;
  /** `GET /v1/projects`; null when it was not requested (no key). */
  projects: ApiExchange<ApiProject> | null;
  /** The goals endpoint; null when not configured or not requested because the project list failed or lacks the project. */
  goals: ApiExchange<ApiGoal> | null;
  /** Recent events, read once after the browsers finished; null when not configured or not requested. */
  recentEvents: ApiExchange<ApiRecentEvent> | null;
  /** The report data (the spec's `report.path`), read once before the browsers; null when not configured or not requested. */
  report: ApiExchange<ReportExperiment> | null;
}
