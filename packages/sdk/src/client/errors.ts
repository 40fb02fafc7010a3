/**
 * Typed errors of the client services: refusals decided locally, before any
 * request (an action the user's power level does not allow, a search with
 * nothing left to fetch). A receipt on a pending event is the models' rule
 * (ModelError "PENDING_EVENT", models/event-status). Server refusals are
 * not wrapped: they surface as the HTTP layer's MatrixError (e.g. M_FORBIDDEN).
 */

/** 'Cannot backpaginate event search any further' (SPEC §8). */
export const SEARCH_EXHAUSTED_MESSAGE = "Cannot backpaginate event search any further";

export type ClientServiceErrorCode =
  /** The room's power levels do not allow the action; nothing was sent. */
  | "FORBIDDEN_LOCALLY"
  /** A search has no next batch. */
  | "SEARCH_EXHAUSTED"
  /** An event the client sent for a feature (a call event, a file message) ended not sent. */
  | "NOT_SENT"
  /** createClient was given neither a session nor a token with its user and device. */
  | "INVALID_OPTIONS"
  /** The client was built without this service (an embedded client has no moderation, search...). */
  | "NOT_AVAILABLE";

/** An error a client service raises without (or before) a server answer. */
export class ClientServiceError extends Error {
  readonly code: ClientServiceErrorCode;

  constructor(code: ClientServiceErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ClientServiceError";
    this.code = code;
  }
}

/** The error for an action refused by the room's power levels. */
export function forbiddenLocally(action: string, roomId: string): ClientServiceError {
  return new ClientServiceError(
    "FORBIDDEN_LOCALLY",
    `Your power level in ${roomId} does not allow you to ${action}`,
  );
}
