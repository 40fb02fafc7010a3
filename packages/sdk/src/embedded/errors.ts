/**
 * The embedded client's own errors (SPEC §8): a room the host did not grant
 * ('Unknown room: {room}') and a request made before the host approved the
 * capabilities ('Not connected yet'). A transport time-out is the HTTP
 * layer's ConnectionError with the widget API's 'widget api timeout', so
 * the send queue retries it like any lost connection.
 */

/** SPEC §8: a call before the host approved the capabilities. */
export const NOT_CONNECTED_MESSAGE = "Not connected yet";

/** SPEC §8: a room other than the one the host granted. */
export function unknownRoomMessage(roomId: string): string {
  return `Unknown room: ${roomId}`;
}

/** Why an embedded request failed before reaching the host. */
export type EmbeddedErrorCode = "NOT_CONNECTED" | "UNKNOWN_ROOM" | "UNSUPPORTED";

/** An embedded-mode failure with a code and the SPEC message. */
export class EmbeddedClientError extends Error {
  public constructor(
    public readonly code: EmbeddedErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "EmbeddedClientError";
  }
}
