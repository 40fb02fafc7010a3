/**
 * The event authorisation rules a client meets: who may send what, the
 * membership transitions (invite, join, leave, ban, unban, kick, knock) under
 * each join rule, and power level changes. A refused event throws 403
 * M_FORBIDDEN, as Synapse answers the client.
 */
import type { JsonObject } from "../core/events";
import { errors } from "../http/errors";
import { checkPowerLevelsChange, PowerLevels } from "./power";
import type { Room } from "./room";
import { stateKey } from "./room";
import { supportsKnock, supportsKnockRestricted, supportsRestricted } from "./versions";

export interface Candidate {
  type: string;
  sender: string;
  content: JsonObject;
  state_key?: string;
}

/** Looks up another room's membership, for restricted join rules. */
export type MembershipLookup = (roomId: string, userId: string) => string | undefined;

export function membershipIn(room: Room, userId: string): string | undefined {
  const m = room.state.get(stateKey("m.room.member", userId))?.content["membership"];
  return typeof m === "string" ? m : undefined;
}

/** Throws M_FORBIDDEN when the candidate event is not allowed in the room now. */
export function authorize(room: Room, ev: Candidate, lookup: MembershipLookup): void {
  if (ev.type === "m.room.create") {
    if (room.events.length > 0) throw errors.forbidden("Room already has a create event");
    return;
  }
  if (ev.type === "m.room.member") {
    authorizeMember(room, ev, lookup);
    return;
  }
  if (membershipIn(room, ev.sender) !== "join")
    throw errors.forbidden(`User ${ev.sender} not in room ${room.roomId}`);
  const pl = PowerLevels.of(room);
  if (ev.type === "m.room.third_party_invite") {
    if (pl.userLevel(ev.sender) < pl.action("invite"))
      throw errors.forbidden("You don't have permission to invite users");
    return;
  }
  const isState = ev.state_key !== undefined;
  const need = pl.eventLevel(ev.type, isState);
  const have = pl.userLevel(ev.sender);
  if (have < need)
    throw errors.forbidden(
      `You don't have permission to post that to the room. user_level (${have}) < send_level (${need})`,
    );
  if (isState && ev.state_key?.startsWith("@") && ev.state_key !== ev.sender)
    throw errors.forbidden("You are not allowed to set others state");
  if (ev.type === "m.room.power_levels") checkPowerLevelsChange(room, ev.sender, ev.content);
}

function authorizeMember(room: Room, ev: Candidate, lookup: MembershipLookup): void {
  const target = ev.state_key;
  if (target === undefined) throw errors.forbidden("Membership events need a state key");
  const membership = ev.content["membership"];
  const current = membershipIn(room, target);
  const senderMembership = membershipIn(room, ev.sender);
  const pl = PowerLevels.of(room);
  const senderLevel = pl.userLevel(ev.sender);
  const targetLevel = pl.userLevel(target);
  const joinRule = room.stateContent("m.room.join_rules")?.["join_rule"] ?? "invite";

  switch (membership) {
    case "join": {
      if (ev.sender !== target) throw errors.forbidden("Cannot force another user to join.");
      // The creator's first join right after the create event.
      if (room.events.length === 1 && room.events[0]?.sender === target) return;
      if (current === "ban") throw errors.forbidden("You are banned from this room");
      if (current === "join" || current === "invite") return;
      if (joinRule === "public") return;
      if (
        (joinRule === "restricted" && supportsRestricted(room.version)) ||
        (joinRule === "knock_restricted" && supportsKnockRestricted(room.version))
      ) {
        if (restrictedAllows(room, target, lookup)) return;
        throw errors.forbidden("You do not belong to any of the required rooms/spaces to join this room.");
      }
      throw errors.forbidden("You are not invited to this room.");
    }
    case "invite": {
      if (senderMembership !== "join") throw errors.forbidden(`${ev.sender} not in room ${room.roomId}.`);
      if (current === "ban") throw errors.forbidden(`${target} is banned from the room`);
      if (current === "join") throw errors.forbidden(`${target} is already in the room.`);
      if (senderLevel < pl.action("invite"))
        throw errors.forbidden("You don't have permission to invite users");
      return;
    }
    case "leave": {
      if (ev.sender === target) {
        if (current === "join" || current === "invite" || current === "knock") return;
        if (current === "ban") throw errors.forbidden("You cannot leave a room you are banned from");
        throw errors.forbidden(`User ${target} is not in the room`);
      }
      if (senderMembership !== "join") throw errors.forbidden(`${ev.sender} not in room ${room.roomId}.`);
      if (current === "ban") {
        if (senderLevel < pl.action("ban")) throw errors.forbidden("You don't have permission to unban");
        return;
      }
      if (senderLevel < pl.action("kick") || targetLevel >= senderLevel)
        throw errors.forbidden("You cannot kick user " + target + ".");
      return;
    }
    case "ban": {
      if (senderMembership !== "join") throw errors.forbidden(`${ev.sender} not in room ${room.roomId}.`);
      if (senderLevel < pl.action("ban") || targetLevel >= senderLevel)
        throw errors.forbidden("You don't have permission to ban");
      return;
    }
    case "knock": {
      const knockable =
        (joinRule === "knock" && supportsKnock(room.version)) ||
        (joinRule === "knock_restricted" && supportsKnockRestricted(room.version));
      if (!knockable) throw errors.forbidden("You don't have permission to knock");
      if (ev.sender !== target) throw errors.forbidden("Can only knock as yourself");
      if (current === "ban") throw errors.forbidden("You are banned from this room");
      if (current === "join" || current === "invite")
        throw errors.forbidden("You cannot knock on a room you are already in or invited to");
      return;
    }
    default:
      throw errors.badJson("Invalid membership");
  }
}

/** Whether a restricted join rule's allow list admits the user. */
function restrictedAllows(room: Room, userId: string, lookup: MembershipLookup): boolean {
  const allow = room.stateContent("m.room.join_rules")?.["allow"];
  if (!Array.isArray(allow)) return false;
  for (const entry of allow) {
    if (typeof entry !== "object" || entry === null) continue;
    const e = entry as JsonObject;
    if (e["type"] === "m.room_membership" && typeof e["room_id"] === "string") {
      if (lookup(e["room_id"], userId) === "join") return true;
    }
  }
  return false;
}
