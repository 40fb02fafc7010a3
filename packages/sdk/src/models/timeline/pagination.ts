/**
 * Pagination constants (SPEC §9) and the retry rule of scrollback: a failed
 * page is tried again after 3000 ms on the injected scheduler, a bounded
 * number of times, so a flaky connection does not leave the timeline stuck
 * and a dead one does not spin.
 */
import { MatrixError } from "../../http/errors";
import type { Scheduler } from "../../util/scheduler";

/** Events per /messages page when scrolling back (SPEC §9 scrollback default 30). */
export const SCROLLBACK_PAGE_SIZE = 30;
/** Message and thread pagination page size (SPEC §9). */
export const PAGINATION_PAGE_SIZE = 30;
/** Wait before retrying a failed page (SPEC §9). */
export const SCROLLBACK_RETRY_DELAY_MS = 3000;
/** Attempts per page, the first one included. */
export const SCROLLBACK_ATTEMPTS = 3;

/** Whether a failure may pass on retry: not a client error (4xx) other than 429. */
export function isPaginationRetryable(error: unknown): boolean {
  if (!(error instanceof MatrixError)) return true;
  return error.httpStatus === 429 || error.httpStatus < 400 || error.httpStatus >= 500;
}

/** Runs `fn`, retrying after `delayMs` on failure; rethrows the last error. */
export async function withRetry<T>(
  fn: () => Promise<T>,
  scheduler: Scheduler,
  options: { delayMs?: number; attempts?: number; signal?: AbortSignal } = {},
): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? SCROLLBACK_ATTEMPTS);
  const delayMs = options.delayMs ?? SCROLLBACK_RETRY_DELAY_MS;
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      return await fn();
    } catch (error) {
      lastError = error;
      if (attempt === attempts || !isPaginationRetryable(error)) break;
      await scheduler.sleep(delayMs, options.signal);
    }
  }
  throw lastError instanceof Error ? lastError : new Error("Pagination failed", { cause: lastError });
}
