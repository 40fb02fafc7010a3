/**
 * The unread badge, in one place: what a room's row, the room list's
 * "unread" filter, the room options menu and the Threads button show are
 * all computed here from the server's counts (SPEC §3: per room
 * unread_notifications notification_count and highlight_count, and the
 * per-thread unread counts).
 *
 * The rule: a room's badge adds its own counts and every thread's. The
 * number is the larger of the notification and highlight sums (a server may
 * count a highlight that did not notify); it is a highlight badge when any
 * highlight is counted, an unread badge when only notifications are.
 */
import type { UnreadCounts } from "../../sync/validate/types";

/** The server's counts for a room or a thread (as sync validated them). */
type Counts = Readonly<UnreadCounts>;

/** What the badge reads of a room (a RoomSnapshot has both fields). */
export interface BadgeSource {
  readonly unread: Counts;
  readonly threadUnread: ReadonlyMap<string, Counts>;
}

/** none: no badge; unread: notifications only; highlight: a mention or keyword counted. */
export type BadgeLevel = "none" | "unread" | "highlight";

/** A badge: the number to show and its level. */
export interface Badge {
  readonly count: number;
  readonly level: BadgeLevel;
}

/** The badge of counts taken together (a room and its threads, or the threads alone). */
export function badgeOfCounts(counts: Iterable<Counts>): Badge {
  let notifications = 0;
  let highlights = 0;
  for (const c of counts) {
    // Counts come from the server: a negative or missing one adds nothing.
    notifications += Math.max(0, c.notificationCount || 0);
    highlights += Math.max(0, c.highlightCount || 0);
  }
  const count = Math.max(notifications, highlights);
  return { count, level: highlights > 0 ? "highlight" : count > 0 ? "unread" : "none" };
}

/** A room's badge: its own counts plus every thread's. */
export function roomBadge(room: BadgeSource): Badge {
  return badgeOfCounts([room.unread, ...room.threadUnread.values()]);
}

/** The badge of a room's threads alone (the Threads button's dot). */
export function threadsBadge(room: Pick<BadgeSource, "threadUnread">): Badge {
  return badgeOfCounts(room.threadUnread.values());
}

/** Whether the room has anything unread, in the room or a thread. */
export function hasUnread(room: BadgeSource): boolean {
  return roomBadge(room).level !== "none";
}
