/**
 * Errors the send queue throws at its caller (failures of a send itself are
 * not thrown: they become the event's not_sent status and SendFailure).
 * Cancelling an event in a state that forbids it throws the room model's
 * ModelError ('Events in other states cannot be cancelled').
 */

export type SendQueueErrorCode =
  /** 'Event blocked by other events not yet sent': an earlier event of the room failed. */
  | "BLOCKED"
  /** No pending event has this transaction id. */
  | "UNKNOWN_EVENT"
  /** Resend of an event that has not failed. */
  | "NOT_FAILED"
  /** The queue was used after dispose(). */
  | "DISPOSED"
  /** A send named a txn id that is still pending. */
  | "DUPLICATE_TXN";

export class SendQueueError extends Error {
  readonly code: SendQueueErrorCode;

  constructor(code: SendQueueErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SendQueueError";
    this.code = code;
  }
}
