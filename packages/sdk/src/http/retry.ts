/**
 * Retry decisions and delays: which failures are worth another attempt
 * (network errors, 5xx, 429 and M_LIMIT_EXCEEDED), how long to wait
 * (the server's retry_after_ms or Retry-After, else bounded exponential
 * backoff with jitter), and when to give up. Pure functions: randomness and
 * the clock are passed in, so tests are deterministic.
 */
import { backoffDelay } from "../util/backoff";
import { ConnectionError, MatrixError } from "./errors";

/** How the client retries. Every field is bounded so a request never waits forever. */
export interface RetryPolicy {
  /** Total attempts including the first; 1 disables retries. */
  maxAttempts: number;
  /** Backoff before the 2nd attempt; doubles each time. */
  baseDelayMs: number;
  /** Cap on the computed backoff. */
  maxDelayMs: number;
  /**
   * The longest server-requested wait we honour. When the server asks for
   * more, the error surfaces instead, so the caller can decide.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

/** True for failures that another attempt may fix. Timeouts and aborts are not among them. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof ConnectionError) return err.kind === "network";
  if (err instanceof MatrixError) {
    return err.httpStatus >= 500 || err.httpStatus === 429 || err.errcode === "M_LIMIT_EXCEEDED";
  }
  return false;
}

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1), or null to
 * give up. A server-requested delay wins over backoff (null when it asks for
 * longer than maxRetryAfterMs). Backoff uses "equal jitter": at least half
 * the delay, so retries still back off, while the random half keeps clients
 * that failed together from retrying together. `retryable` says which
 * failures are worth another attempt (the send queue retries time-outs too).
 */
export function retryDelay(
  err: unknown,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
  retryable: (err: unknown) => boolean = isRetryable,
): number | null {
  if (attempt >= policy.maxAttempts || !retryable(err)) return null;
  if (err instanceof MatrixError && err.retryAfterMs !== undefined) {
    return err.retryAfterMs <= policy.maxRetryAfterMs ? err.retryAfterMs : null;
  }
  return backoffDelay(attempt, { ...policy, jitter: "equal" }, random);
}

/**
 * Parses a Retry-After header: delta seconds or an HTTP date (relative to
 * `now`). Returns undefined when absent or unreadable.
 */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
