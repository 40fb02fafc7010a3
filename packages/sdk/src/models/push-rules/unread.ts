/**
 * Client-side unread counting: the notifications and highlights among the
 * events a user has not read, per thread and for the main timeline, from the
 * push rule outcome of each event. The server's counts are authoritative for
 * what it can see; in encrypted rooms it cannot see mentions, so the
 * highlight count is the client's while the notification count stays the
 * server's.
 */
import type { UnreadCounts } from "../../sync/validate/types";
import { threadMembershipOf } from "../replies";
import type { PushOutcome } from "./evaluator";

/** Unread counts split the way receipts split them: main timeline and each thread. */
export interface UnreadBreakdown {
  /** Everything: the room badge. */
  readonly room: UnreadCounts;
  /** Events outside any thread (and thread roots). */
  readonly main: UnreadCounts;
  /** Per thread root id. */
  readonly threads: ReadonlyMap<string, UnreadCounts>;
}

function add(counts: UnreadCounts, outcome: PushOutcome): UnreadCounts {
  if (!outcome.notify) return counts;
  return {
    notificationCount: counts.notificationCount + 1,
    highlightCount: counts.highlightCount + (outcome.highlight ? 1 : 0),
  };
}

const ZERO: UnreadCounts = Object.freeze({ notificationCount: 0, highlightCount: 0 });

/**
 * Counts the unread events (those after the user's receipt in their
 * timeline: main or thread). `isRead` says whether an event is covered by
 * the receipt that applies to it; `outcome` evaluates its push rules.
 */
export function countUnread(
  events: Iterable<{ content?: unknown }>,
  isRead: (event: { content?: unknown }, threadRootId: string | undefined) => boolean,
  outcome: (event: { content?: unknown }) => PushOutcome,
): UnreadBreakdown {
  let room = ZERO;
  let main = ZERO;
  const threads = new Map<string, UnreadCounts>();
  for (const event of events) {
    const rootId = threadMembershipOf(event).threadRootId;
    if (isRead(event, rootId)) continue;
    const result = outcome(event);
    room = add(room, result);
    if (rootId === undefined) main = add(main, result);
    else threads.set(rootId, add(threads.get(rootId) ?? ZERO, result));
  }
  return { room, main, threads };
}

/**
 * The counts to show for a room given the server's and the client's: the
 * server's, except that in an encrypted room the highlight count is the
 * client's (the server cannot read mentions), never above the notifications.
 */
export function reconcileUnread(server: UnreadCounts, local: UnreadCounts, encrypted: boolean): UnreadCounts {
  if (!encrypted) return server;
  return {
    notificationCount: server.notificationCount,
    // Reading elsewhere zeroes the server's count: no highlight may outlive it.
    highlightCount: Math.min(local.highlightCount, server.notificationCount),
  };
}
