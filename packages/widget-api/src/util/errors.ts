/**
 * Typed errors of the widget API. Across the postMessage boundary errors
 * travel as plain data (`{ error: { message, ...extra } }`); these classes are
 * what each side raises locally, always with `cause` where one exists.
 */

/** Message the client surfaces when a request gets no reply in time (SPEC §8). */
export const TIMEOUT_MESSAGE = "widget api timeout";

/**
 * SPEC §5 and §8 messages that more than one action (or both sides) raise,
 * each defined once here; the per-action error tables point at these.
 */
export const SHARED_MESSAGES = {
  missingType: "Invalid request - missing event type",
  limitOutOfRange: "Invalid request - limit out of range",
  sendFailed: "Error sending event",
  invalidUri: "Invalid matrix.to URI",
} as const;

/** Base class for every error this package raises. */
export class WidgetApiError extends Error {
  public constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WidgetApiError";
  }
}

/** A request that got no reply within the transport time-out. */
export class WidgetApiTimeoutError extends WidgetApiError {
  public constructor(public readonly action: string) {
    super(TIMEOUT_MESSAGE);
    this.name = "WidgetApiTimeoutError";
  }
}

/**
 * The other side answered with `{ error: { message, ... } }`. Extra fields
 * (for example a Matrix errcode passed on by the host's driver) are in `data`.
 */
export class WidgetApiResponseError extends WidgetApiError {
  public constructor(
    message: string,
    public readonly data: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = "WidgetApiResponseError";
  }
}

/**
 * Raised by a host action handler to answer the widget with an error. The
 * host turns it into `{ error: { message, ...extra } }`.
 */
export class WidgetActionError extends WidgetApiError {
  public constructor(
    message: string,
    public readonly extra: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "WidgetActionError";
  }
}
