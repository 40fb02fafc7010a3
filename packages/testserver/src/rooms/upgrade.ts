/**
 * Room upgrades: a new room of the requested version whose create event
 * names its predecessor, with the old room's state (power levels included)
 * copied over, aliases moved, and a tombstone plus restricted power levels
 * left in the old room.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject } from "../core/events";
import { errors, MatrixHttpError } from "../http/errors";
import { memberContent, newEventId } from "./append";
import { PowerLevels } from "./power";
import { Room, stateKey } from "./room";
import type { RoomStore } from "./store";
import { hasCreatorPower, isKnownVersion, redactsInContent } from "./versions";

/** State types carried over to the replacement room (as Synapse). */
const COPIED = [
  "m.room.join_rules",
  "m.room.name",
  "m.room.topic",
  "m.room.history_visibility",
  "m.room.guest_access",
  "m.room.avatar",
  "m.room.encryption",
  "m.room.server_acl",
  "m.room.related_groups",
  "m.room.canonical_alias",
];

export function upgradeRoom(
  ctx: ServerContext,
  store: RoomStore,
  userId: string,
  oldRoomId: string,
  version: string,
  additionalCreators: string[],
): Room {
  const old = store.require(oldRoomId);
  if (!isKnownVersion(version))
    throw new MatrixHttpError(
      400,
      "M_UNSUPPORTED_ROOM_VERSION",
      "Your homeserver does not support the features required to interact with this room",
    );
  const pl = PowerLevels.of(old);
  if (store.membershipOf(oldRoomId, userId) !== "join")
    throw errors.forbidden(`User ${userId} not in room ${oldRoomId}`);
  if (pl.userLevel(userId) < pl.eventLevel("m.room.tombstone", true))
    throw errors.forbidden("You don't have permission to upgrade the room");
  const oldCreate = old.stateContent("m.room.create") ?? {};
  const v12 = hasCreatorPower(version);
  const createContent: JsonObject = {
    room_version: version,
    predecessor: {
      room_id: oldRoomId,
      event_id: old.lastStream > 0 ? (old.events[old.events.length - 1]?.event_id ?? "") : "",
    },
  };
  if (typeof oldCreate["type"] === "string") createContent["type"] = oldCreate["type"];
  if (!redactsInContent(version)) createContent["creator"] = userId;
  if (v12 && additionalCreators.length > 0) createContent["additional_creators"] = additionalCreators;
  const createId = newEventId(ctx, version);
  const roomId = v12 ? `!${createId.slice(1)}` : ctx.ids.roomId(ctx.serverName);
  const room = new Room(roomId, version);
  store.rooms.set(roomId, room);
  const put = (type: string, content: JsonObject, key: string, eventId?: string): void => {
    store.append(
      room,
      { type, sender: userId, content, state_key: key },
      { skipAuth: true, ...(eventId ? { eventId } : {}) },
    );
  };
  put("m.room.create", createContent, "", createId);
  put("m.room.member", memberContent(ctx, userId, "join"), userId);
  const oldPl = old.stateContent("m.room.power_levels");
  const newPl: JsonObject = structuredClone(oldPl ?? {});
  const users = (
    typeof newPl["users"] === "object" && newPl["users"] !== null ? newPl["users"] : {}
  ) as JsonObject;
  if (v12) {
    delete users[userId];
    for (const c of additionalCreators) delete users[c];
  } else {
    users[userId] = Math.max(100, Number(users[userId] ?? 0));
  }
  newPl["users"] = users;
  put("m.room.power_levels", newPl, "");
  for (const type of COPIED) {
    const ev = old.state.get(stateKey(type, ""));
    if (ev) put(type, ev.content, "");
  }
  for (const [alias, entry] of store.aliases)
    if (entry.roomId === oldRoomId) store.aliases.set(alias, { ...entry, roomId });
  room.directory = old.directory;
  old.directory = "private";
  // The tombstone and a lock on the old room: only moderators may speak or invite.
  store.append(old, {
    type: "m.room.tombstone",
    sender: userId,
    state_key: "",
    content: { body: "This room has been replaced", replacement_room: roomId },
  });
  if (oldPl) {
    const level = Math.max(50, Number(oldPl["users_default"] ?? 0) + 1);
    store.append(
      old,
      {
        type: "m.room.power_levels",
        sender: userId,
        state_key: "",
        content: { ...oldPl, events_default: level, invite: level },
      },
      { skipAuth: true },
    );
  }
  return room;
}
