/**
 * Unread counts the client computes itself, for sync protocols that do not
 * send per-thread counts (simplified sliding sync, MSC4186, has no
 * unread_thread_notifications). Each new sync event of a joined room is
 * evaluated against the user's push rules once; the ones that notify are
 * kept until a receipt of the user covers them: a threaded receipt ("main"
 * or a thread root) covers that timeline up to its event, an unthreaded one
 * every timeline, and the user's own event reads its timeline up to it (as
 * the server treats it). The counts are split like v2 splits them: the main
 * timeline (thread roots included) and each thread.
 */
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import type { ParsedJoinedRoom, ParsedSummary, UnreadCounts } from "../../sync/validate/types";
import { evaluatePushRules } from "../push-rules/evaluator";
import type { PushContext } from "../push-rules/conditions";
import type { PushOutcome } from "../push-rules/evaluator";
import { countUnread } from "../push-rules/unread";
import type { UnreadBreakdown } from "../push-rules/unread";
import { threadMembershipOf } from "../replies";
import { parseReceiptEvent } from "./receipts";
import type { Receipt } from "./receipts";
import type { RoomState } from "./RoomState";

/** Events whose place is remembered for receipts; older ones are forgotten. */
export const LOCAL_UNREAD_EVENTS_KEPT = 2_000;

interface Entry {
  seq: number;
  /** The thread root, or undefined for the main timeline. */
  rootId: string | undefined;
  outcome: PushOutcome;
  content: unknown;
}

const ZERO: UnreadCounts = Object.freeze({ notificationCount: 0, highlightCount: 0 });

const EMPTY: UnreadBreakdown = {
  room: { notificationCount: 0, highlightCount: 0 },
  main: { notificationCount: 0, highlightCount: 0 },
  threads: new Map(),
};

/** One room's client-side unread counter. */
export class LocalUnread {
  private seq = 0;
  /** Event id to arrival order, for receipts. */
  private readonly order = new Map<string, number>();
  /** Notifying events not read yet, by event id. */
  private readonly unread = new Map<string, Entry>();
  private cached: UnreadBreakdown | undefined = EMPTY;
  /** Notifications the server counts before the first event seen (a limited timeline): main timeline. */
  private unseen: UnreadCounts = ZERO;

  constructor(private readonly userId: string) {}

  /**
   * Takes one joined room update: its timeline, then the user's receipts in
   * it (see `update`), evaluating `pushRules` (the account's m.push_rules
   * content; the spec's defaults without it) in the room's `push` context.
   */
  apply(room: ParsedJoinedRoom, pushRules: unknown, push: PushContext): UnreadBreakdown {
    const receipts = room.ephemeral.flatMap((e) =>
      e.type === "m.receipt" ? parseReceiptEvent(e, this.userId) : [],
    );
    const gap = room.timeline.limited && room.unreadNotifications ? { server: room.unreadNotifications } : {};
    return this.update(room.timeline.events, receipts, { pushRules, push, ...gap });
  }

  /**
   * Takes one sync update of the room: its new timeline events, then the
   * user's receipts in it. When the timeline is limited, the server's room
   * count (if any) above what the client holds counts as older unread
   * notifications of the main timeline, until the user reads it.
   */
  update(
    events: readonly ClientEventWithoutRoomId[],
    receipts: readonly Receipt[],
    gap: { pushRules: unknown; push: PushContext; server?: UnreadCounts | undefined },
  ): UnreadBreakdown {
    this.addEvents(events, gap.pushRules, gap.push);
    if (gap.server !== undefined) {
      const held = this.counts().room;
      this.unseen = {
        notificationCount: Math.max(0, gap.server.notificationCount - held.notificationCount),
        highlightCount: Math.max(0, gap.server.highlightCount - held.highlightCount),
      };
      this.cached = undefined;
    }
    this.applyReceipts(receipts);
    return this.counts();
  }

  /** Takes new timeline events (known ones are skipped); the user's own event reads its timeline. */
  addEvents(events: readonly ClientEventWithoutRoomId[], pushRules: unknown, push: PushContext): void {
    for (const event of events) {
      if (this.order.has(event.event_id)) continue;
      const seq = ++this.seq;
      this.order.set(event.event_id, seq);
      const rootId = threadMembershipOf(event).threadRootId;
      if (event.sender === this.userId) {
        this.clear(rootId === undefined ? "main" : rootId, seq);
        if (rootId === undefined) this.readUnseen();
        continue;
      }
      const outcome = evaluatePushRules(event, pushRules, push);
      if (!outcome.notify) continue;
      this.unread.set(event.event_id, { seq, rootId, outcome, content: event.content });
      this.cached = undefined;
    }
    this.forgetOld();
  }

  /** Applies the user's receipts (m.read and m.read.private). */
  applyReceipts(receipts: readonly Receipt[]): void {
    for (const r of receipts) {
      if (r.userId !== this.userId) continue;
      // A receipt for an event the counter never saw is newer than what it holds (or long gone).
      this.clear(r.threadId ?? "all", this.order.get(r.eventId) ?? Infinity);
      if (r.threadId === undefined || r.threadId === "main") this.readUnseen();
    }
  }

  /** The counts: room, main timeline and per thread. */
  counts(): UnreadBreakdown {
    if (this.cached) return this.cached;
    const held = countUnread(
      [...this.unread.values()],
      () => false,
      (entry) => (entry as Entry).outcome,
    );
    const plus = (a: UnreadCounts): UnreadCounts => ({
      notificationCount: a.notificationCount + this.unseen.notificationCount,
      highlightCount: a.highlightCount + this.unseen.highlightCount,
    });
    this.cached = { room: plus(held.room), main: plus(held.main), threads: held.threads };
    return this.cached;
  }

  private readUnseen(): void {
    if (this.unseen === ZERO) return;
    this.unseen = ZERO;
    this.cached = undefined;
  }

  /** The per-thread counts as sync's unread_thread_notifications would give them. */
  threadCounts(): ReadonlyMap<string, UnreadCounts> {
    return this.counts().threads;
  }

  /** Drops the entries of a timeline ("main", a root id, or "all") up to `upTo`. */
  private clear(timeline: string, upTo: number): void {
    for (const [id, entry] of this.unread) {
      if (entry.seq > upTo) continue;
      const inTimeline =
        timeline === "all" || (timeline === "main" ? entry.rootId === undefined : entry.rootId === timeline);
      if (!inTimeline) continue;
      this.unread.delete(id);
      this.cached = undefined;
    }
  }

  private forgetOld(): void {
    const excess = this.order.size - LOCAL_UNREAD_EVENTS_KEPT;
    if (excess <= 0) return;
    let n = 0;
    for (const id of this.order.keys()) {
      if (n++ >= excess) break;
      // Its entry stays unread; only a receipt for it can no longer be placed.
      this.order.delete(id);
    }
  }
}

/** The push rule context of the room now: the user's display name, joined members, power levels. */
export function pushContextOf(
  state: RoomState,
  userId: string,
  roomId: string,
  summary: ParsedSummary,
): PushContext {
  const displayName = state.members.get(userId)?.rawDisplayName;
  return {
    userId,
    roomId,
    memberCount: summary.joinedMemberCount ?? state.memberCounts().joined,
    powerLevels: state.powerLevels,
    ...(displayName !== undefined ? { displayName } : {}),
  };
}
