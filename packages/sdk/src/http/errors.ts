/**
 * Typed errors of the HTTP layer. Everything the HTTP client throws is a
 * LatticeHttpError: a MatrixError when the server answered with an error
 * status, a ConnectionError when no answer arrived (network failure, local
 * time-out, caller abort), a ResponseFormatError when a 2xx answer could not
 * be read as the JSON the caller expected. Each carries a `code` so callers
 * can switch on it without instanceof chains, and always keeps `cause`.
 */

/** Base class of every error the HTTP layer throws. */
export abstract class LatticeHttpError extends Error {
  /** A stable, machine-readable code (the Matrix errcode for MatrixError). */
  abstract readonly code: string;

  protected constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The JSON body of a Matrix error answer, kept whole (it is untrusted data). */
export type MatrixErrorData = Readonly<Record<string, unknown>>;

/** An error answer from the server (any non-2xx HTTP status). */
export class MatrixError extends LatticeHttpError {
  /** The Matrix errcode, e.g. M_FORBIDDEN; "M_UNKNOWN" when the body had none. */
  readonly errcode: string;
  /** The server's human-readable message (the `error` field), or our description. */
  readonly error: string;
  readonly httpStatus: number;
  /** The whole JSON body (empty when the body was not JSON). */
  readonly data: MatrixErrorData;
  /** How long the server asked us to wait (retry_after_ms or Retry-After), if it said. */
  readonly retryAfterMs: number | undefined;

  constructor(init: {
    errcode: string;
    error: string;
    httpStatus: number;
    data?: MatrixErrorData;
    retryAfterMs?: number;
    cause?: unknown;
  }) {
    super(`${init.errcode}: ${init.error}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.errcode = init.errcode;
    this.error = init.error;
    this.httpStatus = init.httpStatus;
    this.data = init.data ?? {};
    this.retryAfterMs = init.retryAfterMs;
  }

  get code(): string {
    return this.errcode;
  }

  /**
   * True for M_UNKNOWN_TOKEN with soft_logout: the session may be restored
   * by signing in again (or refreshing) without losing local data.
   */
  get softLogout(): boolean {
    return this.errcode === "M_UNKNOWN_TOKEN" && this.data["soft_logout"] === true;
  }
}

/** Why a request got no answer. */
export type ConnectionErrorKind = "network" | "timeout" | "aborted";

/**
 * No answer arrived. `kind` says why: a network failure (retried), the local
 * time-out (not retried: the caller chose the deadline), or the caller's
 * AbortSignal (never retried; `cause` is the signal's reason).
 */
export class ConnectionError extends LatticeHttpError {
  readonly kind: ConnectionErrorKind;

  constructor(kind: ConnectionErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }

  get code(): string {
    return kind2code[this.kind];
  }
}

const kind2code: Record<ConnectionErrorKind, string> = {
  network: "NETWORK_ERROR",
  timeout: "TIMEOUT",
  aborted: "ABORTED",
};

/** A 2xx answer whose body was not the JSON the caller expected. */
export class ResponseFormatError extends LatticeHttpError {
  readonly code = "BAD_RESPONSE";
  readonly httpStatus: number;

  constructor(message: string, httpStatus: number, options?: { cause?: unknown }) {
    super(message, options);
    this.httpStatus = httpStatus;
  }
}

/** True when the caller aborted the request through its AbortSignal. */
export function isAbortError(err: unknown): boolean {
  return err instanceof ConnectionError && err.kind === "aborted";
}

/**
 * True for an "unrecognised endpoint" answer: 404 or 405 on current servers,
 * 400 with M_UNRECOGNIZED on older ones. All three are treated alike.
 */
export function isUnrecognisedError(err: unknown): boolean {
  if (!(err instanceof MatrixError)) return false;
  if (err.httpStatus === 404 || err.httpStatus === 405) return true;
  return err.httpStatus === 400 && err.errcode === "M_UNRECOGNIZED";
}
