/**
 * The public description of a room shared by /publicRooms, /hierarchy and
 * the room summary: name, topic, alias, avatar, counts, join rule, type,
 * world_readable and guest_can_join.
 */
import type { JsonObject } from "../core/events";
import type { Room } from "./room";
import { isWorldReadable } from "./visibility";

function str(content: JsonObject | undefined, key: string): string | undefined {
  const v = content?.[key];
  return typeof v === "string" && v.length > 0 ? v : undefined;
}

export function joinedCount(room: Room): number {
  let n = 0;
  for (const ev of room.state.values())
    if (ev.type === "m.room.member" && ev.content["membership"] === "join") n++;
  return n;
}

export function joinRule(room: Room): string {
  return str(room.stateContent("m.room.join_rules"), "join_rule") ?? "invite";
}

export function roomType(room: Room): string | undefined {
  return str(room.stateContent("m.room.create"), "type");
}

/** PublishedRoomsChunk / the shared part of hierarchy and summary entries. */
export function publicChunk(room: Room): JsonObject {
  const out: JsonObject = {
    room_id: room.roomId,
    num_joined_members: joinedCount(room),
    world_readable: isWorldReadable(room),
    guest_can_join: room.stateContent("m.room.guest_access")?.["guest_access"] === "can_join",
    join_rule: joinRule(room),
  };
  const name = str(room.stateContent("m.room.name"), "name");
  if (name !== undefined) out["name"] = name;
  const topic = str(room.stateContent("m.room.topic"), "topic");
  if (topic !== undefined) out["topic"] = topic;
  const alias = str(room.stateContent("m.room.canonical_alias"), "alias");
  if (alias !== undefined) out["canonical_alias"] = alias;
  const avatar = str(room.stateContent("m.room.avatar"), "url");
  if (avatar !== undefined) out["avatar_url"] = avatar;
  const type = roomType(room);
  if (type !== undefined) out["room_type"] = type;
  return out;
}
