/**
 * Who created a room, per the room version: content.creator in versions 1 to
 * 10 (falling back to the sender when missing), the create event's sender from
 * 11, and from 12 (MSC4289) the sender plus content.additional_creators.
 */
import { isJsonObject, isUserId, own, ownString } from "./json";
import type { RoomVersionRules } from "./room-versions";
import { roomVersionRules } from "./room-versions";

/** The room version named by an m.room.create event (absent means "1"). */
export function roomVersionOf(createEvent: unknown): string {
  const v = ownString(own(createEvent, "content"), "room_version");
  return v !== undefined && v !== "" ? v : "1";
}

/** The rules of the room an m.room.create event created. */
export function rulesOfCreateEvent(createEvent: unknown): RoomVersionRules {
  return roomVersionRules(roomVersionOf(createEvent));
}

/**
 * The creators of a room from its m.room.create event (untrusted JSON).
 * Empty when the event is missing or has no usable sender.
 */
export function roomCreators(createEvent: unknown, rules: RoomVersionRules): ReadonlySet<string> {
  const creators = new Set<string>();
  if (!isJsonObject(createEvent)) return creators;
  const sender = ownString(createEvent, "sender");
  const content = own(createEvent, "content");
  if (rules.creatorFromContent) {
    const creator = ownString(content, "creator");
    if (isUserId(creator)) creators.add(creator);
    else if (isUserId(sender)) creators.add(sender);
    return creators;
  }
  if (isUserId(sender)) creators.add(sender);
  if (rules.creatorsHaveInfinitePower) {
    const extra = own(content, "additional_creators");
    if (Array.isArray(extra)) {
      for (const id of extra) if (isUserId(id)) creators.add(id);
    }
  }
  return creators;
}
