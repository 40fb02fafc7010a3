/**
 * The accumulated snapshot of one joined room: current state, the newest
 * timeline entries with the tokens to paginate back from them, room account
 * data, receipts, unread counts and the summary. Folding the same batch twice
 * leaves it unchanged (timeline entries are de-duplicated by event id), so a
 * batch the loop fetches again after a failed write is harmless.
 *
 * The stored shape of the room is built once per change and kept, deeply
 * frozen (its events are frozen by validation), so saving the snapshot
 * rebuilds only the rooms a batch touched and the Store shares the rest.
 */
import type { BasicEvent, ClientEventWithoutRoomId } from "../../api/types/events";
import type { ParsedJoinedRoom, ParsedSummary, ParsedTimeline, UnreadCounts } from "../validate/types";
import { RECEIPT_EVENT_TYPE, ReceiptAccumulator } from "./receipts";
import type { StoredJoinedRoom, StoredSummary } from "./stored-types";

/** SPEC §9: the accumulator keeps up to 50 timeline entries per room. */
export const MAX_TIMELINE_ENTRIES = 50;

/**
 * A timeline entry. `token` is set on the first event of each sync batch: the
 * position just before it, from which back-pagination continues without a gap.
 */
export interface TimelineEntry {
  event: ClientEventWithoutRoomId;
  token?: string;
}

export class JoinedRoomRecord {
  summary: ParsedSummary = {};
  /** type -> state_key -> event. */
  readonly state = new Map<string, Map<string, ClientEventWithoutRoomId>>();
  timeline: TimelineEntry[] = [];
  readonly timelineIds = new Set<string>();
  readonly accountData = new Map<string, BasicEvent>();
  readonly receipts = new ReceiptAccumulator();
  unread: UnreadCounts | undefined;
  threadUnread: Map<string, UnreadCounts> | undefined;
  /** toStored's last result, until the room changes. */
  private stored: StoredJoinedRoom | undefined;

  constructor(private readonly maxTimeline = MAX_TIMELINE_ENTRIES) {}

  /** Folds one sync's update of this room in. `since` is the token the sync continued from. */
  fold(update: ParsedJoinedRoom, since: string | undefined): void {
    this.stored = undefined;
    if (update.summary) this.summary = { ...this.summary, ...update.summary };
    this.foldStateAndTimeline(update.state, update.stateAfter, update.timeline, since);
    for (const event of update.accountData) this.accountData.set(event.type, event);
    for (const event of update.ephemeral) {
      if (event.type === RECEIPT_EVENT_TYPE) this.receipts.fold(event.content);
    }
    if (update.unreadNotifications) this.unread = update.unreadNotifications;
    // The server sends the counts of every thread with unread events: the map replaces the old one.
    if (update.unreadThreadNotifications) this.threadUnread = new Map(update.unreadThreadNotifications);
  }

  /** Whether a timeline event with this id is kept. */
  hasTimelineEvent(eventId: string): boolean {
    return this.timelineIds.has(eventId);
  }

  private foldStateAndTimeline(
    state: readonly ClientEventWithoutRoomId[],
    stateAfter: readonly ClientEventWithoutRoomId[] | undefined,
    timeline: ParsedTimeline,
    since: string | undefined,
  ): void {
    if (stateAfter) {
      // MSC4222: state_after is the state at the end of the timeline; timeline state events are not applied again.
      for (const event of stateAfter) this.setState(event);
    } else {
      for (const event of state) this.setState(event);
      for (const event of timeline.events) if (event.state_key !== undefined) this.setState(event);
    }
    if (timeline.limited) {
      // A gap: what we kept no longer joins up with the new events.
      this.timeline = [];
      this.timelineIds.clear();
    }
    let token = timeline.prevBatch ?? (timeline.limited ? undefined : since);
    for (const event of timeline.events) {
      if (this.timelineIds.has(event.event_id)) continue;
      this.timeline.push(token !== undefined ? { event, token } : { event });
      this.timelineIds.add(event.event_id);
      token = undefined;
    }
    const excess = this.timeline.length - this.maxTimeline;
    if (excess > 0) {
      for (const removed of this.timeline.splice(0, excess)) this.timelineIds.delete(removed.event.event_id);
    }
  }

  private setState(event: ClientEventWithoutRoomId): void {
    const stateKey = event.state_key;
    if (stateKey === undefined) return;
    let byKey = this.state.get(event.type);
    if (!byKey) {
      byKey = new Map();
      this.state.set(event.type, byKey);
    }
    byKey.set(stateKey, event);
  }

  /** Current state events, grouped by type in first-seen order. */
  stateEvents(): ClientEventWithoutRoomId[] {
    const out: ClientEventWithoutRoomId[] = [];
    for (const byKey of this.state.values()) for (const event of byKey.values()) out.push(event);
    return out;
  }

  /**
   * The timeline as persisted: entries from the oldest one that carries a
   * token, so its prev_batch continues back-pagination without a gap.
   */
  persistedTimeline(): { events: ClientEventWithoutRoomId[]; prevBatch?: string } {
    const start = this.timeline.findIndex((entry) => entry.token !== undefined);
    if (start < 0) return { events: [] };
    const first = this.timeline[start] as TimelineEntry;
    return { events: this.timeline.slice(start).map((e) => e.event), prevBatch: first.token };
  }

  /** Must be called after changing the public fields directly (restoring), so toStored rebuilds. */
  changed(): void {
    this.stored = undefined;
  }

  /** The stored shape of this room, deeply frozen; the same object until the room changes. */
  toStored(roomId: string): StoredJoinedRoom {
    if (this.stored?.room_id === roomId) return this.stored;
    const timeline = this.persistedTimeline();
    const stored: StoredJoinedRoom = {
      room_id: roomId,
      summary: storedSummary(this.summary),
      state: frozen(this.stateEvents()),
      timeline: Object.freeze(
        timeline.prevBatch !== undefined
          ? { events: frozen(timeline.events), prev_batch: timeline.prevBatch }
          : { events: frozen(timeline.events) },
      ),
      account_data: frozen([...this.accountData.values()]),
      receipts: frozen(this.receipts.list()),
    };
    if (this.unread) {
      stored.unread_notifications = Object.freeze({
        highlight_count: this.unread.highlightCount,
        notification_count: this.unread.notificationCount,
      });
    }
    if (this.threadUnread) {
      stored.unread_thread_notifications = frozen(
        [...this.threadUnread].map(([threadId, counts]) =>
          Object.freeze({
            thread_id: threadId,
            highlight_count: counts.highlightCount,
            notification_count: counts.notificationCount,
          }),
        ),
      );
    }
    this.stored = Object.freeze(stored);
    return this.stored;
  }
}

/**
 * Freezes an array in place and keeps its mutable type, so the stored-types
 * stay plain JSON shapes; what toStored returns is frozen whatever the type says.
 */
function frozen<T>(items: T[]): T[] {
  Object.freeze(items);
  return items;
}

function storedSummary(summary: ParsedSummary): StoredSummary {
  const out: StoredSummary = {};
  if (summary.heroes) out["m.heroes"] = [...summary.heroes];
  if (summary.joinedMemberCount !== undefined) out["m.joined_member_count"] = summary.joinedMemberCount;
  if (summary.invitedMemberCount !== undefined) out["m.invited_member_count"] = summary.invitedMemberCount;
  if (out["m.heroes"]) frozen(out["m.heroes"]);
  return Object.freeze(out);
}
