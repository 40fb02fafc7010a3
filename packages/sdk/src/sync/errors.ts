/**
 * Typed errors of the sync service (SPEC §8): the client lifecycle
 * ('Client is not running', 'Stores cannot be cleared while the client
 * runs'), peeking ('Peeking aborted') and the guest guards. Each carries a
 * stable `code` and keeps `cause`.
 */

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
