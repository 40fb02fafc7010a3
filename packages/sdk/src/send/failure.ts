/**
 * Why an outgoing event failed, in words a user can act on, and whether the
 * send queue tries again: network failures, time-outs, 5xx and rate limits
 * are transient and retried with bounded backoff (the server's
 * retry_after_ms wins); everything else (M_FORBIDDEN, M_TOO_LARGE, ...) marks
 * the event not_sent at once. The original error is kept on the failure.
 */
import { ConnectionError, MatrixError } from "../http/errors";
import { retryDelay } from "../http/retry";
import { ROOM_ENCRYPTION_UNSUPPORTED } from "../crypto/errors";
import type { RetryPolicy } from "../http/retry";

/** SPEC §8: an event waits behind an earlier one of its room that failed. */
export const BLOCKED_MESSAGE = "Event blocked by other events not yet sent";
/** SPEC §8: the room has m.room.encryption and this client cannot encrypt. */
export const ENCRYPTION_UNSUPPORTED_MESSAGE = ROOM_ENCRYPTION_UNSUPPORTED;

/** The reason of a failure, for the UI to pick an icon or an action. */
export type SendFailureKind =
  | "unreachable"
  | "forbidden"
  | "too_large"
  | "rate_limited"
  | "server_error"
  | "rejected"
  | "blocked"
  | "encryption_unsupported"
  | "encryption_failed"
  | "unknown";

/** Why an event is not_sent. */
export interface SendFailure {
  readonly kind: SendFailureKind;
  /** A sentence for the user. */
  readonly message: string;
  /** The error behind it (a MatrixError keeps errcode, status and body); absent after a reload. */
  readonly error?: unknown;
}

/** Retries of one event: bounded attempts and delays (see http/retry's RetryPolicy). */
export const DEFAULT_SEND_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/** A failure the queue makes itself (no error behind it). */
export function failureOf(kind: "blocked" | "encryption_unsupported"): SendFailure {
  return { kind, message: kind === "blocked" ? BLOCKED_MESSAGE : ENCRYPTION_UNSUPPORTED_MESSAGE };
}

/** Turns what a send threw into a failure a user can read. */
export function classifyFailure(error: unknown): SendFailure {
  if (error instanceof ConnectionError) return { kind: "unreachable", message: "Server unreachable", error };
  if (error instanceof MatrixError) {
    if (error.errcode === "M_FORBIDDEN") {
      return { kind: "forbidden", message: "You don't have permission to send this", error };
    }
    if (error.errcode === "M_TOO_LARGE" || error.httpStatus === 413) {
      return { kind: "too_large", message: "The message is too large to send", error };
    }
    if (error.httpStatus === 429 || error.errcode === "M_LIMIT_EXCEEDED") {
      return { kind: "rate_limited", message: "The server is rate limiting sends", error };
    }
    if (error.httpStatus >= 500) {
      return { kind: "server_error", message: `The server failed (HTTP ${error.httpStatus})`, error };
    }
    return { kind: "rejected", message: `The server refused the event: ${error.errcode}`, error };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: "unknown", message, error };
}

/**
 * True for failures another attempt may fix. Unlike plain requests, a send
 * time-out is retried too: the txn id makes a repeated PUT harmless.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof ConnectionError) return error.kind !== "aborted";
  if (error instanceof MatrixError) {
    return error.httpStatus >= 500 || error.httpStatus === 429 || error.errcode === "M_LIMIT_EXCEEDED";
  }
  return false;
}

/**
 * The wait before attempt `attempt + 1` (attempts count from 1), or null to
 * give up: the server's retry_after_ms when it gave one (null when it asks for
 * longer than maxRetryAfterMs), else exponential backoff capped at maxDelayMs
 * with equal jitter, so clients that failed together do not retry together.
 */
export function sendRetryDelay(
  error: unknown,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
): number | null {
  return retryDelay(error, attempt, policy, random, isTransient);
}
