/**
 * Errors the API layer raises itself, before or instead of a request: an
 * argument the call cannot accept (e.g. 'Bad presence value') or a feature
 * the server does not advertise (e.g. 'Server does not support extended
 * profiles'). Errors the server answers with are the HTTP layer's
 * MatrixError; these never reach the network. Messages are SPEC.md's.
 */

/** Machine-readable reason of an ApiError. */
export type ApiErrorCode =
  /** The caller passed a value the call cannot send. */
  | "INVALID_ARGUMENT"
  /** The server does not advertise the feature the call needs. */
  | "UNSUPPORTED_BY_SERVER";

/** An error raised by an API function without (or before) a server answer. */
export class ApiError extends Error {
  readonly code: ApiErrorCode;

  constructor(code: ApiErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ApiError";
    this.code = code;
  }
}
