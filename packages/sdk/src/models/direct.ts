/**
 * Direct messages from m.direct account data: a map of user id to the room
 * ids of DMs with them. The content is untrusted: invalid user ids, non-array
 * values and non-room-id entries are dropped. Updates return a NEW content to
 * write back, never mutate.
 */
import { copyObject, isJsonObject, isUserId, own } from "./json";

/** The account data type holding DMs. */
export const DIRECT_EVENT_TYPE = "m.direct";

function isRoomId(value: unknown): value is string {
  return typeof value === "string" && value.length <= 255 && value.startsWith("!");
}

/** The DMs of an m.direct content: user id to room ids (validated, de-duplicated). */
export function parseDirect(content: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!isJsonObject(content)) return out;
  for (const [userId, rooms] of Object.entries(content)) {
    if (!isUserId(userId) || !Array.isArray(rooms)) continue;
    const ids = [...new Set(rooms.filter(isRoomId))];
    if (ids.length > 0) out.set(userId, ids);
  }
  return out;
}

/** Room id to the DM partner, from a parsed m.direct (first mention wins). */
export function directRoomIndex(direct: ReadonlyMap<string, readonly string[]>): Map<string, string> {
  const index = new Map<string, string>();
  for (const [userId, rooms] of direct)
    for (const roomId of rooms) if (!index.has(roomId)) index.set(roomId, userId);
  return index;
}

/** The DM partner of a room, or undefined when the room is not a DM. */
export function directPartnerOf(content: unknown, roomId: string): string | undefined {
  return directRoomIndex(parseDirect(content)).get(roomId);
}

/** Whether an invite marks the room as a DM (is_direct on the m.room.member content). */
export function isDirectInvite(memberContent: unknown): boolean {
  return own(memberContent, "membership") === "invite" && own(memberContent, "is_direct") === true;
}

/** A NEW m.direct content with `roomId` recorded as a DM with `userId` (and with nobody else). */
export function addDirectRoom(content: unknown, userId: string, roomId: string): Record<string, unknown> {
  const base = removeDirectRoom(content, roomId);
  const existing = own(base, userId);
  const rooms: unknown[] = Array.isArray(existing) ? (existing as unknown[]).filter((r) => r !== roomId) : [];
  return Object.fromEntries([
    ...Object.entries(base).filter(([k]) => k !== userId),
    [userId, [...rooms, roomId]],
  ]);
}

/** A NEW m.direct content without `roomId` under any user; users left without rooms are dropped. */
export function removeDirectRoom(content: unknown, roomId: string): Record<string, unknown> {
  if (!isJsonObject(content)) return {};
  const entries: [string, unknown][] = [];
  for (const [userId, rooms] of Object.entries(copyObject(content))) {
    if (!Array.isArray(rooms)) {
      entries.push([userId, rooms]);
      continue;
    }
    const left = rooms.filter((r) => r !== roomId);
    if (left.length > 0 || rooms.length === 0) entries.push([userId, left]);
  }
  return Object.fromEntries(entries);
}
