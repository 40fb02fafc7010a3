/**
 * Errors the pure room models raise when asked to do something the rules
 * forbid. Messages that SPEC.md names are used exactly; the others describe
 * the rule that refused.
 */

/** Machine-readable reason of a ModelError. */
export type ModelErrorCode =
  /** A power level change the actor may not make. */
  | "POWER_LEVEL_FORBIDDEN"
  /** A value the rule cannot accept (e.g. a non-integer level). */
  | "INVALID_ARGUMENT"
  /** An event status change the lifecycle does not allow. */
  | "INVALID_STATUS_TRANSITION"
  /** 'Events in other states cannot be cancelled'. */
  | "NOT_CANCELLABLE"
  /** 'A read marker or receipt cannot be set to a pending event'. */
  | "PENDING_EVENT";

/** An error raised by a pure model rule. */
export class ModelError extends Error {
  readonly code: ModelErrorCode;

  constructor(code: ModelErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ModelError";
    this.code = code;
  }
}
