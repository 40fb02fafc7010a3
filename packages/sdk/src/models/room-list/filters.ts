/**
 * Room list filters and sort orders. Filters are predicates over a room's
 * snapshot: unread, favourites (m.favourite), people (DMs), rooms (not DMs,
 * not spaces), low priority (m.lowpriority), invites, and the children of a
 * space (its m.space.child state). Sorts are total orders (ties broken by
 * room id) so the list can binary-search a room's place.
 */
import type { RoomSnapshot } from "../room/Room";

/** The favourite tag (account-data.ts names it too; kept local to avoid a second export). */
const FAVOURITE_TAG = "m.favourite";
/** The low priority tag. */
const LOW_PRIORITY_TAG = "m.lowpriority";

/** What a filter may look at besides the room. */
export interface FilterContext {
  /** The snapshot of another room (spaces read their children). */
  room(roomId: string): RoomSnapshot | undefined;
}

/** A room list filter. */
export type RoomFilter = (room: RoomSnapshot, ctx: FilterContext) => boolean;

function hasUnread(room: RoomSnapshot): boolean {
  if (room.unread.notificationCount > 0 || room.unread.highlightCount > 0) return true;
  for (const counts of room.threadUnread.values())
    if (counts.notificationCount > 0 || counts.highlightCount > 0) return true;
  return false;
}

/** Rooms with unread notifications (room or thread). */
export const unreadFilter: RoomFilter = (room) => hasUnread(room);
/** Rooms tagged m.favourite. */
export const favouritesFilter: RoomFilter = (room) => room.tags.has(FAVOURITE_TAG);
/** DMs. */
export const peopleFilter: RoomFilter = (room) => room.isDirect;
/** Group rooms: neither DMs nor spaces. */
export const roomsFilter: RoomFilter = (room) => !room.isDirect && !room.isSpace;
/** Rooms tagged m.lowpriority. */
export const lowPriorityFilter: RoomFilter = (room) => room.tags.has(LOW_PRIORITY_TAG);
/** Pending invites. */
export const invitesFilter: RoomFilter = (room) => room.category === "invite";
/** Joined rooms and invites: what a room list shows by default. */
export const visibleFilter: RoomFilter = (room) => room.category === "join" || room.category === "invite";

/** The children of a space (its m.space.child state events with a via). */
export function spaceFilter(spaceId: string): RoomFilter {
  return (room, ctx) => ctx.room(spaceId)?.state.spaceChildren.includes(room.roomId) ?? false;
}

/** All of the filters. */
export function allOf(...filters: RoomFilter[]): RoomFilter {
  return (room, ctx) => filters.every((f) => f(room, ctx));
}

/** Any of the filters. */
export function anyOf(...filters: RoomFilter[]): RoomFilter {
  return (room, ctx) => filters.some((f) => f(room, ctx));
}

/** Sort orders of the room list. */
export type RoomSort = "recent" | "importance";

function byId(a: RoomSnapshot, b: RoomSnapshot): number {
  return a.roomId < b.roomId ? -1 : a.roomId > b.roomId ? 1 : 0;
}

/** Most recent activity (latest event timestamp) first. */
export function compareRecent(a: RoomSnapshot, b: RoomSnapshot): number {
  return b.lastActivityTs - a.lastActivityTs || byId(a, b);
}

function importanceRank(room: RoomSnapshot): number {
  if (room.unread.highlightCount > 0) return 0;
  return hasUnread(room) ? 1 : 2;
}

/** Highlights, then unread, then by recent activity. */
export function compareImportance(a: RoomSnapshot, b: RoomSnapshot): number {
  return importanceRank(a) - importanceRank(b) || compareRecent(a, b);
}

/** The comparator of a sort order. */
export function comparatorOf(sort: RoomSort): (a: RoomSnapshot, b: RoomSnapshot) => number {
  return sort === "recent" ? compareRecent : compareImportance;
}
