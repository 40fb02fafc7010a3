/**
 * Matrix errors as the test homeserver sends them: an HTTP status, an
 * errcode, a human message and any extra fields (retry_after_ms,
 * soft_logout, UIA flows...).
 */
import type { JsonObject } from "../core/events";

export class MatrixHttpError extends Error {
  constructor(
    readonly status: number,
    readonly errcode: string,
    message: string,
    readonly extra: JsonObject = {},
  ) {
    super(message);
    this.name = "MatrixHttpError";
  }

  toJson(): JsonObject {
    return { errcode: this.errcode, error: this.message, ...this.extra };
  }
}

/** Shorthands for the errors handlers throw most. */
export const errors = {
  forbidden: (msg = "Forbidden") => new MatrixHttpError(403, "M_FORBIDDEN", msg),
  notFound: (msg = "Not found") => new MatrixHttpError(404, "M_NOT_FOUND", msg),
  badJson: (msg = "Malformed JSON") => new MatrixHttpError(400, "M_BAD_JSON", msg),
  notJson: (msg = "Content not JSON.") => new MatrixHttpError(400, "M_NOT_JSON", msg),
  missingParam: (name: string) => new MatrixHttpError(400, "M_MISSING_PARAM", `Missing parameter: ${name}`),
  invalidParam: (msg: string) => new MatrixHttpError(400, "M_INVALID_PARAM", msg),
  unrecognized: (status = 404) => new MatrixHttpError(status, "M_UNRECOGNIZED", "Unrecognized request"),
  tooLarge: (msg = "Request too large") => new MatrixHttpError(413, "M_TOO_LARGE", msg),
  unknown: (msg: string) => new MatrixHttpError(400, "M_UNKNOWN", msg),
  limitExceeded: (retryAfterMs: number) =>
    new MatrixHttpError(429, "M_LIMIT_EXCEEDED", "Too Many Requests", { retry_after_ms: retryAfterMs }),
  unknownToken: (softLogout = false) =>
    new MatrixHttpError(401, "M_UNKNOWN_TOKEN", "Unknown access token", { soft_logout: softLogout }),
  missingToken: () => new MatrixHttpError(401, "M_MISSING_TOKEN", "Missing access token"),
  guestAccessForbidden: () =>
    new MatrixHttpError(403, "M_GUEST_ACCESS_FORBIDDEN", "Guest access not allowed"),
};
