/**
 * The one error class of the models (pure rules, rooms, timelines, threads):
 * raised when asked to do something the rules forbid or to find something
 * they do not hold. Messages that SPEC.md names are used exactly; the others
 * describe the rule that refused.
 */

/** 'Unknown room' (SPEC §8): a call named a room the client does not know. */
export const UNKNOWN_ROOM_MESSAGE = "Unknown room";
/** SPEC §8: the server returned no event to build the latest timeline from. */
export const NO_LATEST_TIMELINE_MESSAGE = "No message returned when trying to construct getLatestTimeline";

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
  | "PENDING_EVENT"
  /** 'Unknown room'. */
  | "UNKNOWN_ROOM"
  /** 'No message returned when trying to construct getLatestTimeline'. */
  | "NO_LATEST_TIMELINE"
  /** A timeline lookup (event id, timestamp) found nothing. */
  | "EVENT_NOT_FOUND"
  /** A model was used outside its contract (a programming error). */
  | "INVALID_STATE";

/** An error raised by a pure model rule. */
export class ModelError extends Error {
  readonly code: ModelErrorCode;

  constructor(code: ModelErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ModelError";
    this.code = code;
  }
}

/** The 'Unknown room' error. */
export function unknownRoom(roomId: string): ModelError {
  return new ModelError("UNKNOWN_ROOM", UNKNOWN_ROOM_MESSAGE, { cause: { roomId } });
}
