/**
 * Typed errors of the sync service (SPEC §8): the client lifecycle
 * ('Client is not running', 'Stores cannot be cleared while the client
 * runs'), peeking ('Peeking aborted') and the guest guards. Each carries a
 * stable `code` and keeps `cause`.
 */
import { ResponseFormatError } from "../http/errors";
import { StoreError } from "../store/errors";
import { SyncParseError } from "./validate/parseSync";

/** Base class of the sync service's errors. */
export abstract class SyncServiceError extends Error {
  abstract readonly code: string;

  protected constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A call that needs a running client was made while it is stopped. */
export class ClientNotRunningError extends SyncServiceError {
  readonly code = "CLIENT_NOT_RUNNING";

  constructor(options?: { cause?: unknown }) {
    super("Client is not running", options);
  }
}

/** deleteAllData was called while the client runs. */
export class StoreInUseError extends SyncServiceError {
  readonly code = "STORE_IN_USE";

  constructor(options?: { cause?: unknown }) {
    super("Stores cannot be cleared while the client runs", options);
  }
}

/** Peeking was stopped while a call was pending. */
export class PeekingAbortedError extends SyncServiceError {
  readonly code = "PEEKING_ABORTED";

  constructor(options?: { cause?: unknown }) {
    super("Peeking aborted", options);
  }
}

/** What a guest tried to do that guests may not (SPEC §6). */
export type GuestAction = "receipt" | "typing" | "state_event";

/**
 * A guest tried to send a receipt, a typing notification or a state event.
 * SPEC §6 forbids these for guests without giving a message; ours names the
 * action.
 */
export class GuestForbiddenError extends SyncServiceError {
  readonly code = "GUEST_FORBIDDEN";
  readonly action: GuestAction;

  constructor(action: GuestAction, options?: { cause?: unknown }) {
    super(GUEST_MESSAGES[action], options);
    this.action = action;
  }
}

const GUEST_MESSAGES: Record<GuestAction, string> = {
  receipt: "Guests cannot send receipts",
  typing: "Guests cannot send typing notifications",
  state_event: "Guests cannot send state events",
};

/**
 * Why a sync (or its filter upload) failed, as the UI may show it:
 * - network: no answer (connection refused, time-out, offline); the loop
 *   probes the server and reconnects.
 * - server: a 5xx; treated like a network failure.
 * - processing: the answer was good but handling it failed; retried with
 *   backoff (no keep-alive), and never shown as a lost connection.
 * - store: keeping the answer on this device failed (a StoreError, a full
 *   disk). Through the degrading store (FallbackStore) sync continues in
 *   memory and this kind is published while the state stays syncing; a
 *   store without that wrapper has the batch fetched again, as processing.
 * - rate_limited: 429 or M_LIMIT_EXCEEDED; retried after the server's delay.
 * - refused: any other 4xx. The server answered and said no: retrying the
 *   same request cannot help, so the loop retries a bounded number of times
 *   and then stops in state error with the server's errcode and message.
 * - unknown_token: the server no longer knows the access token (sync stops).
 * - protocol: the answer cannot be parsed as a sync response (not JSON, no
 *   next_batch, a wrong shape): retried with backoff (up to a minute)
 *   without keep-alive, state error from the failure threshold on; a
 *   next_batch that would not survive a round trip stops sync at once.
 *
 * Only network and server failures make the state reconnecting; the others
 * are not a lost connection and leave the state as it was until the
 * threshold (then error).
 */
export type SyncFailureKind =
  "network" | "server" | "processing" | "store" | "rate_limited" | "refused" | "unknown_token" | "protocol";

/** The last failure of the sync loop. */
export interface SyncFailure {
  readonly kind: SyncFailureKind;
  readonly httpStatus?: number;
  /** The server's errcode (refused, rate_limited, server), when it sent one. */
  readonly errcode?: string;
  /** The server's message, or the error's own message for network failures. */
  readonly message: string;
  /** True once the loop gave up (a refusal after its bounded retries): it waits for retry(). */
  readonly permanent: boolean;
  /** The server's retry_after_ms, for rate limiting. */
  readonly retryAfterMs?: number;
  /** The error itself, for logs and details. */
  readonly error?: unknown;
}

/**
 * Sorts a sync failure into the kinds of SyncFailureKind. `answered`: the
 * server's answer had arrived when the error was thrown (so a non-HTTP error
 * came from handling it, not from the network).
 */
export function classifySyncFailure(error: unknown, answered = false): SyncFailure {
  const status = (error as { httpStatus?: unknown } | null)?.httpStatus;
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  const serverMessage = (error as { error?: unknown } | null)?.error;
  const message =
    typeof serverMessage === "string" && serverMessage !== ""
      ? serverMessage
      : error instanceof Error
        ? error.message
        : String(error);
  const code = typeof errcode === "string" && errcode !== "" ? { errcode } : {};
  if (error instanceof SyncParseError || error instanceof ResponseFormatError) {
    return { kind: "protocol", message, permanent: false, error };
  }
  if (error instanceof StoreError || isQuotaError(error)) {
    return { kind: "store", message, permanent: false, error };
  }
  if (typeof status !== "number" || status === 0) {
    // Not an HTTP answer: a failed request, or (once the server had answered) a failed handler.
    return { kind: answered ? "processing" : "network", message, permanent: false, error };
  }
  const retryAfter = (error as { retryAfterMs?: unknown }).retryAfterMs;
  if (status === 429 || errcode === "M_LIMIT_EXCEEDED") {
    return {
      kind: "rate_limited",
      httpStatus: status,
      ...code,
      message,
      permanent: false,
      error,
      ...(typeof retryAfter === "number" && retryAfter > 0 ? { retryAfterMs: retryAfter } : {}),
    };
  }
  if (status >= 400 && status < 500)
    return { kind: "refused", httpStatus: status, ...code, message, permanent: false, error };
  return { kind: "server", httpStatus: status, ...code, message, permanent: false, error };
}

/** A storage error a backend threw as it is (the DOM's QuotaExceededError). */
function isQuotaError(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === "QuotaExceededError";
}

/** True for the failures that mean the connection is lost: the loop probes and shows reconnecting. */
export function isConnectionFailure(failure: SyncFailure): boolean {
  return failure.kind === "network" || failure.kind === "server";
}
