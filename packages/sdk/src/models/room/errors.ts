/**
 * Errors of the stateful room model (rooms, timelines, threads). Messages
 * are SPEC.md's, exactly.
 */

/** 'Unknown room' (SPEC §8): a call named a room the client does not know. */
export const UNKNOWN_ROOM_MESSAGE = "Unknown room";
/** SPEC §8: the server returned no event to build the latest timeline from. */
export const NO_LATEST_TIMELINE_MESSAGE = "No message returned when trying to construct getLatestTimeline";

/** Machine-readable reason of a RoomModelError. */
export type RoomModelErrorCode = "UNKNOWN_ROOM" | "NO_LATEST_TIMELINE" | "EVENT_NOT_FOUND";

/** An error of the room model. */
export class RoomModelError extends Error {
  readonly code: RoomModelErrorCode;

  constructor(code: RoomModelErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RoomModelError";
    this.code = code;
  }
}

/** The 'Unknown room' error. */
export function unknownRoom(roomId: string): RoomModelError {
  return new RoomModelError("UNKNOWN_ROOM", UNKNOWN_ROOM_MESSAGE, { cause: { roomId } });
}
