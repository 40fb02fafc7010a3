/**
 * Errors the API layer raises itself, before or instead of a request: an
 * argument the call cannot accept (e.g. 'Bad presence value') or a feature
 * the server does not advertise (e.g. 'Server does not support extended
 * profiles'). Errors the server answers with are the HTTP layer's
 * MatrixError; these never reach the network. Messages are SPEC.md's.
 */

/** SPEC §5: a presence other than offline, online or unavailable. */
export const BAD_PRESENCE_MESSAGE = "Bad presence value";
/** SPEC §8: an identity call without an identity server. */
export const NO_IDENTITY_SERVER_MESSAGE = "No identity server base URL set";
/** SPEC §8: an identity server (or its discovery) answered something unusable. */
export const BAD_IDENTITY_RESPONSE_MESSAGE = "Unsupported identity server: bad response";
/** SPEC §8: the identity server offers neither sha256 nor none. */
export const UNKNOWN_HASH_ALGORITHM_MESSAGE = "unknown hash algorithm";
/** SPEC §8: the server does not advertise MSC4140. */
export const DELAYED_EVENTS_UNSUPPORTED = "Server does not support the delayed events API";

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
