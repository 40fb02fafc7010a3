/**
 * History visibility: whether a user may see an event, from the room's
 * m.room.history_visibility and the user's membership at the event, as the
 * spec describes (world_readable, shared, invited, joined). Shared history
 * is visible to current members, and to former members up to their leave.
 */
import type { StoredEvent } from "../core/events";
import type { Room } from "./room";

/** The user's membership at an event, including the event's own change (unsigned.membership). */
export function membershipAtEvent(room: Room, userId: string, ev: StoredEvent): string | undefined {
  // The user's own membership event counts with its new membership.
  if (ev.type === "m.room.member" && ev.state_key === userId) {
    const m = ev.content["membership"];
    return typeof m === "string" ? m : undefined;
  }
  const m = room.stateEventAt("m.room.member", userId, ev.stream - 1)?.content["membership"];
  return typeof m === "string" ? m : undefined;
}

/** The visibility that applies to an event: the state before it. */
export function visibilityAt(room: Room, ev: StoredEvent): string {
  const h = room.stateEventAt("m.room.history_visibility", "", ev.stream - 1)?.content["history_visibility"];
  return typeof h === "string" ? h : "shared";
}

/** The stream position up to which a former member may read (their last leave after a join). */
function departure(room: Room, userId: string): number | undefined {
  let everJoined = false;
  let leftAt: number | undefined;
  for (const ev of room.history.get(`m.room.member\u0000${userId}`) ?? []) {
    const m = ev.content["membership"];
    if (m === "join") {
      everJoined = true;
      leftAt = undefined;
    } else if (everJoined && leftAt === undefined && (m === "leave" || m === "ban")) {
      leftAt = ev.stream;
    }
  }
  return everJoined ? leftAt : undefined;
}

/** Whether history visibility lets the user see this event. */
export function canSee(room: Room, userId: string, ev: StoredEvent): boolean {
  const visibility = visibilityAt(room, ev);
  if (visibility === "world_readable") return true;
  const atEvent = membershipAtEvent(room, userId, ev);
  if (atEvent === "join") return true;
  const current = room.state.get(`m.room.member\u0000${userId}`)?.content["membership"];
  if (visibility === "invited" && atEvent === "invite") return true;
  if (visibility === "shared") {
    if (current === "join") return true;
    const left = departure(room, userId);
    if (left !== undefined && ev.stream <= left) return true;
  }
  // An invitee may see their own invite; a former member their own leave.
  if (ev.type === "m.room.member" && ev.state_key === userId) return true;
  return false;
}

/** Whether anyone, members or not, may read the room (peeking, guests). */
export function isWorldReadable(room: Room): boolean {
  return room.stateContent("m.room.history_visibility")?.["history_visibility"] === "world_readable";
}

/**
 * Up to which stream position a user may read the room's state: everything
 * for members and world_readable rooms, up to their leave for former
 * members; undefined when they may not read it at all.
 */
export function stateReadableUntil(room: Room, userId: string): number | undefined {
  const member = room.state.get(`m.room.member\u0000${userId}`);
  const m = member?.content["membership"];
  if (m === "join" || isWorldReadable(room)) return Number.POSITIVE_INFINITY;
  if (member && (m === "leave" || m === "ban")) return departure(room, userId);
  return undefined;
}
