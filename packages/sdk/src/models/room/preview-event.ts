/**
 * The room list's preview event: the newest event worth a line under the
 * room's name. It differs from the latest event (which orders the list by
 * recent activity) in leaving out what is not a message of its own: a
 * reaction (a 👍 would push the conversation's last line out of the list;
 * see docs/architecture/0014-chat-ux.md), a redaction event, and any other
 * non-state event that is not a message, a sticker or an encrypted
 * message. An edit stays a candidate: the app shows its m.new_content.
 */
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import { relationOf } from "../relations";

/** Timeline (non-state) event types that can be the preview. */
const MESSAGE_TYPES: ReadonlySet<string> = new Set([
  "m.room.message",
  "m.room.encrypted",
  "m.sticker",
  "m.poll.start",
  "org.matrix.msc3381.poll.start",
]);

/** Whether `event` can be the room list's preview. */
export function isPreviewEvent(event: ClientEventWithoutRoomId): boolean {
  if (typeof event.state_key === "string") return true;
  if (!MESSAGE_TYPES.has(event.type)) return false;
  // An annotation sent as a message type (a decrypted reaction is m.reaction, so this is rare).
  return relationOf(event)?.relType !== "m.annotation";
}

/** The newest preview event among `events` (oldest first), or undefined. */
export function newestPreviewEvent(
  events: readonly ClientEventWithoutRoomId[],
): ClientEventWithoutRoomId | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e !== undefined && isPreviewEvent(e)) return e;
  }
  return undefined;
}
