/**
 * Bounded retries for the membership manager's requests: a rate limit waits
 * what the server asked (or 5 s), a network failure waits 3 s; after ten
 * retries, or on any other error, the error is rethrown.
 */
import { ConnectionError, MatrixError } from "../../http/errors";
import type { Scheduler } from "../../util/scheduler";

export const MAX_RETRIES = 10;
export const NETWORK_RETRY_MS = 3000;
export const RATE_LIMIT_RETRY_MS = 5000;

/** How long to wait before retrying `error`, or undefined when it is not retried. */
export function retryDelayOf(error: unknown): number | undefined {
  if (error instanceof MatrixError && (error.errcode === "M_LIMIT_EXCEEDED" || error.httpStatus === 429))
    return error.retryAfterMs ?? RATE_LIMIT_RETRY_MS;
  if (error instanceof ConnectionError && error.kind !== "aborted") return NETWORK_RETRY_MS;
  return undefined;
}

/** Runs `fn`, retrying rate limits and network errors up to MAX_RETRIES times. */
export async function withRetries<T>(
  scheduler: Scheduler,
  signal: AbortSignal,
  fn: () => Promise<T>,
  maxRetries = MAX_RETRIES,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      const wait = retryDelayOf(error);
      if (wait === undefined || attempt >= maxRetries || signal.aborted) throw error;
      await scheduler.sleep(wait, signal);
    }
  }
}

/** A 404 M_NOT_FOUND: the delayed event is gone (it fired, or was cancelled). */
export function isNotFound(error: unknown): boolean {
  return error instanceof MatrixError && (error.errcode === "M_NOT_FOUND" || error.httpStatus === 404);
}
