/**
 * Room list filters and sort orders. Filters are predicates over a room's
 * snapshot: unread, favourites (m.favourite), people (DMs), rooms (not DMs,
 * not spaces), low priority (m.lowpriority), invites, and the children of a
 * space (its m.space.child state). A room upgraded to a room the user has
 * joined is never listed: its successor stands in for it. Sorts are total
 * orders (ties broken by room id) so the list can binary-search a room's
 * place: recent activity, importance, a tag's `order` (favourites, low
 * priority) and a space's child order.
 */
import { hasUnread } from "./badge";
import type { RoomSnapshot } from "../room/Room";
import { compareByTagOrder } from "./orders";

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

/**
 * The room that replaces `room`, when `room` has an honoured tombstone and
 * the user has joined its replacement (until then the old room stays, so
 * the user can still follow the link and join).
 */
export function joinedSuccessorOf(room: RoomSnapshot, ctx: FilterContext): RoomSnapshot | undefined {
  const next = room.tombstone?.replacementRoom;
  if (next === undefined) return undefined;
  const successor = ctx.room(next);
  return successor?.category === "join" ? successor : undefined;
}

/** Rooms not replaced by a joined successor. */
export const notReplacedFilter: RoomFilter = (room, ctx) => joinedSuccessorOf(room, ctx) === undefined;

/** The children of a space (its m.space.child state events with a via). */
export function spaceFilter(spaceId: string): RoomFilter {
  return (room, ctx) => ctx.room(spaceId)?.state.spaceChildren.includes(room.roomId) ?? false;
}

/**
 * The rooms of a space and of its sub-spaces at any depth (what a space's
 * room list and its aggregated badge cover). Cycles end where a space
 * repeats; sub-spaces count only when the client holds them.
 */
export function spaceTreeFilter(spaceId: string): RoomFilter {
  return (room, ctx) => {
    const seen = new Set<string>();
    const queue = [spaceId];
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      if (seen.has(id)) continue;
      seen.add(id);
      for (const child of ctx.room(id)?.state.spaceChildren ?? []) {
        if (child === room.roomId) return true;
        if (ctx.room(child)?.isSpace === true) queue.push(child);
      }
    }
    return false;
  };
}

/** All of the filters. */
export function allOf(...filters: RoomFilter[]): RoomFilter {
  return (room, ctx) => filters.every((f) => f(room, ctx));
}

/** Any of the filters. */
export function anyOf(...filters: RoomFilter[]): RoomFilter {
  return (room, ctx) => filters.some((f) => f(room, ctx));
}

/**
 * Sort orders of the room list: recent activity, importance, a tag's order
 * (`{ tag }`: m.favourite, m.lowpriority) or a space's child order (`{ space }`).
 */
export type RoomSort = "recent" | "importance" | { readonly tag: string } | { readonly space: string };

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

/**
 * Rooms in a space's child order (SPEC: `order`, then the m.space.child
 * event's timestamp, then room id); rooms that are not children after them,
 * by recent activity. `children` is the space's ordered child list.
 */
export function compareSpaceOrder(children: readonly string[]): (a: RoomSnapshot, b: RoomSnapshot) => number {
  const rank = new Map(children.map((id, i) => [id, i]));
  return (a, b) => {
    const ra = rank.get(a.roomId) ?? Infinity;
    const rb = rank.get(b.roomId) ?? Infinity;
    if (ra !== rb) return ra < rb ? -1 : 1;
    return compareRecent(a, b);
  };
}

/**
 * The comparator of a sort order. A space order reads the space's children
 * through `ctx` now: the list rebuilds (and asks again) when a space changes.
 */
export function comparatorOf(
  sort: RoomSort,
  ctx?: FilterContext,
): (a: RoomSnapshot, b: RoomSnapshot) => number {
  if (sort === "recent") return compareRecent;
  if (sort === "importance") return compareImportance;
  if ("tag" in sort) return compareByTagOrder(sort.tag);
  return compareSpaceOrder(ctx?.room(sort.space)?.state.spaceChildren ?? []);
}
