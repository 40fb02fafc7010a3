/**
 * The sync accumulator: folds validated sync batches into one snapshot to
 * persist (StoredSync.roomsData) and to start from instantly. Membership
 * accumulates as SPEC §4 says: invite, knock, join and leave replace each
 * other, and leave removes the room from every category. Every room is held
 * in one Map keyed by room id, so each fold is O(size of the batch).
 */
import type { BasicEvent, StrippedStateEvent } from "../../api/types/events";
import { emptyParsedSync } from "../validate/types";
import type { ParsedJoinedRoom, ParsedSync } from "../validate/types";
import { JoinedRoomRecord, MAX_TIMELINE_ENTRIES } from "./JoinedRoomRecord";
import { ROOMS_DATA_VERSION } from "./stored-types";
import type { StoredRoomsData } from "./stored-types";

/** The membership categories the snapshot keeps (left rooms are removed). */
export type AccumulatedCategory = "join" | "invite" | "knock";

type RoomRecord =
  | { category: "join"; room: JoinedRoomRecord }
  | { category: "invite" | "knock"; state: StrippedStateEvent[] };

export interface SyncAccumulatorOptions {
  /** Timeline entries kept per room; SPEC §9 says 50. */
  maxTimelineEntries?: number;
}

export class SyncAccumulator {
  private readonly rooms = new Map<string, RoomRecord>();
  private readonly globalAccountData = new Map<string, BasicEvent>();
  private readonly maxTimeline: number;

  constructor(options: SyncAccumulatorOptions = {}) {
    this.maxTimeline = options.maxTimelineEntries ?? MAX_TIMELINE_ENTRIES;
  }

  /**
   * Folds one batch in. `since` is the token the sync continued from; it is
   * the back-pagination token of a timeline that came without prev_batch.
   */
  accumulate(batch: ParsedSync, since?: string): void {
    for (const event of batch.accountData) this.globalAccountData.set(event.type, event);
    for (const [roomId, invite] of batch.rooms.invite) {
      this.rooms.set(roomId, { category: "invite", state: invite.inviteState });
    }
    for (const [roomId, knock] of batch.rooms.knock) {
      this.rooms.set(roomId, { category: "knock", state: knock.knockState });
    }
    for (const [roomId, update] of batch.rooms.join) this.joinedRoom(roomId).fold(update, since);
    for (const roomId of batch.rooms.leave.keys()) this.rooms.delete(roomId);
  }

  /** Whether the kept timeline of a joined room holds this event. */
  hasTimelineEvent(roomId: string, eventId: string): boolean {
    const record = this.rooms.get(roomId);
    return record?.category === "join" && record.room.hasTimelineEvent(eventId);
  }

  /** The category a room is accumulated in, or undefined (unknown or left). */
  categoryOf(roomId: string): AccumulatedCategory | undefined {
    return this.rooms.get(roomId)?.category;
  }

  /** How many rooms are kept, over all categories. */
  get roomCount(): number {
    return this.rooms.size;
  }

  /** Global account data, latest per type. */
  accountData(): BasicEvent[] {
    return [...this.globalAccountData.values()];
  }

  /** Replaces global account data (restoring from the Store's accountData). */
  setAccountData(events: readonly BasicEvent[]): void {
    this.globalAccountData.clear();
    for (const event of events) this.globalAccountData.set(event.type, event);
  }

  /** The joined room record, created (replacing an invite or knock) when needed. */
  joinedRoom(roomId: string): JoinedRoomRecord {
    const record = this.rooms.get(roomId);
    if (record?.category === "join") return record.room;
    const room = new JoinedRoomRecord(this.maxTimeline);
    this.rooms.set(roomId, { category: "join", room });
    return room;
  }

  /** Sets an invited or knocked room's stripped state (restoring). */
  setStrippedRoom(roomId: string, category: "invite" | "knock", state: StrippedStateEvent[]): void {
    this.rooms.set(roomId, { category, state });
  }

  /**
   * The versioned, JSON-safe document for StoredSync.roomsData, deeply
   * frozen so a Store can keep it without copying. Each joined room's part
   * is rebuilt only when the room changed since the last call.
   */
  serialise(): StoredRoomsData {
    const data: StoredRoomsData = { version: ROOMS_DATA_VERSION, join: [], invite: [], knock: [] };
    for (const [roomId, record] of this.rooms) {
      if (record.category === "join") data.join.push(record.room.toStored(roomId));
      else data[record.category].push(Object.freeze({ room_id: roomId, state: frozenCopy(record.state) }));
    }
    Object.freeze(data.join);
    Object.freeze(data.invite);
    Object.freeze(data.knock);
    return Object.freeze(data);
  }

  /**
   * The snapshot as one batch, for an instant start: every room with its
   * current state, kept timeline (limited, since older events are not held),
   * receipts, account data and counts.
   */
  toBatch(nextBatch: string): ParsedSync {
    const batch = emptyParsedSync(nextBatch);
    batch.accountData = this.accountData();
    for (const [roomId, record] of this.rooms) {
      if (record.category === "join") batch.rooms.join.set(roomId, snapshotRoom(record.room));
      else if (record.category === "invite") batch.rooms.invite.set(roomId, { inviteState: record.state });
      else batch.rooms.knock.set(roomId, { knockState: record.state });
    }
    return batch;
  }
}

/** A frozen copy of a list of (frozen) events: the batch's own array stays the subscribers'. */
function frozenCopy<T>(items: readonly T[]): T[] {
  return Object.freeze([...items]) as T[];
}

function snapshotRoom(room: JoinedRoomRecord): ParsedJoinedRoom {
  const timeline = room.persistedTimeline();
  const receipts = room.receipts.toEvent();
  const out: ParsedJoinedRoom = {
    summary: { ...room.summary },
    state: room.stateEvents(),
    timeline: {
      events: timeline.events,
      limited: true,
      ...(timeline.prevBatch !== undefined ? { prevBatch: timeline.prevBatch } : {}),
    },
    ephemeral: receipts ? [receipts] : [],
    accountData: [...room.accountData.values()],
  };
  if (room.unread) out.unreadNotifications = room.unread;
  if (room.threadUnread) out.unreadThreadNotifications = new Map(room.threadUnread);
  return out;
}
