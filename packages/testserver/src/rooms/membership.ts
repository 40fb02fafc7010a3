/**
 * Membership operations behind the join, invite, leave, kick, ban, unban,
 * knock and forget endpoints, each one membership event through the
 * authorisation rules.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject, StoredEvent } from "../core/events";
import { errors } from "../http/errors";
import { memberContent } from "./append";
import { membershipIn } from "./auth";
import type { RoomStore } from "./store";

function withReason(reason: unknown): JsonObject {
  if (reason === undefined) return {};
  if (typeof reason !== "string") throw errors.badJson("reason must be a string");
  return { reason };
}

/** Checks a user id's shape (a malformed one answers M_INVALID_PARAM). */
export function checkUserId(userId: unknown, name = "user_id"): string {
  if (userId === undefined) throw errors.missingParam(name);
  if (typeof userId !== "string") throw errors.badJson(`${name} must be a string`);
  if (!/^@[^:]+:.+$/.test(userId)) throw errors.invalidParam(`Invalid user id: ${userId}`);
  return userId;
}

export function join(
  ctx: ServerContext,
  store: RoomStore,
  userId: string,
  roomId: string,
  reason?: unknown,
  isGuest = false,
): StoredEvent | undefined {
  const room = store.rooms.get(roomId);
  if (!room) throw errors.notFound("No known servers");
  if (isGuest && room.stateContent("m.room.guest_access")?.["guest_access"] !== "can_join")
    throw errors.forbidden("Guest access not allowed");
  const current = membershipIn(room, userId);
  const invite = room.state.get(`m.room.member\u0000${userId}`);
  const extra: JsonObject = withReason(reason);
  if (current === "join") return undefined; // Joining again is a no-op, as in Synapse.
  if (current === "invite" && invite?.content["is_direct"] === true) extra["is_direct"] = true;
  room.forgotten.delete(userId);
  return store.append(room, {
    type: "m.room.member",
    sender: userId,
    state_key: userId,
    content: memberContent(ctx, userId, "join", extra),
  });
}

export function invite(
  ctx: ServerContext,
  store: RoomStore,
  sender: string,
  roomId: string,
  target: string,
  reason?: unknown,
): StoredEvent {
  return setMembership(ctx, store, sender, roomId, target, "invite", reason);
}

/** invite, leave (self), kick (other, not banned), unban (other, banned: leave), ban and knock: one member event by `sender`. */
export function setMembership(
  ctx: ServerContext,
  store: RoomStore,
  sender: string,
  roomId: string,
  target: string,
  membership: "invite" | "leave" | "ban" | "knock",
  reason?: unknown,
): StoredEvent {
  const room = store.require(roomId);
  return store.append(room, {
    type: "m.room.member",
    sender,
    state_key: target,
    content: memberContent(ctx, target, membership, withReason(reason)),
  });
}

/** Forgets a room the user has left; joined members get 400 as in Synapse. */
export function forget(store: RoomStore, userId: string, roomId: string): void {
  const room = store.require(roomId);
  const m = membershipIn(room, userId);
  if (m === "join" || m === "invite" || m === "knock") throw errors.unknown("User is in room, cannot forget");
  room.forgotten.add(userId);
}
