/**
 * The send queue's bookkeeping: every pending entry by room and by txn id,
 * the txn ids the server has accepted (so redactions and reactions of a
 * local echo can name the real event), status changes checked against
 * models/event-status and published to the room's list, store writes chained
 * per event so they land in order, and the waiters of whenSettled.
 */
import { transition } from "../models/event-status";
import type { EventStatus } from "../models/event-status";
import { cloneJson } from "../store/MemoryStore";
import type { Store, StoredPendingEvent } from "../store/Store";
import { SendQueueError } from "./errors";
import { failureOf } from "./failure";
import type { SendFailure } from "./failure";
import { RoomQueue, snapshotOf } from "./room-queue";
import type { Entry } from "./room-queue";
import type { PendingEvent } from "./types";

/** Statuses a caller waiting on an event hears about (null: the remote echo arrived). */
const SETTLED: ReadonlySet<EventStatus | null> = new Set<EventStatus | null>([
  "sent",
  "not_sent",
  "cancelled",
  null,
]);

/** How many accepted txn ids are remembered for redactions and reactions of local echoes. */
const SENT_TXNS_KEPT = 1000;

export class PendingEntries {
  readonly rooms = new Map<string, RoomQueue>();
  readonly byTxn = new Map<string, Entry>();
  /** Txn ids the server has accepted, with their event ids. */
  readonly sentTxns = new Map<string, string>();
  private readonly waiters = new Map<string, Array<(event: PendingEvent) => void>>();

  constructor(
    private readonly store: Store,
    /** Wakes the room's worker (or starts one) after a change that may let it go on. */
    private readonly wakeRoom: (room: RoomQueue) => void,
    private readonly logger?: { warn(message: string, error?: unknown): void },
  ) {}

  /** Resolves at the event's next settled status: sent, not_sent, cancelled, or null (remote echo). */
  whenSettled(txnId: string): Promise<PendingEvent | undefined> {
    const entry = this.byTxn.get(txnId);
    if (!entry) return Promise.resolve(undefined);
    if (entry.snapshot.status !== "queued" && SETTLED.has(entry.snapshot.status)) {
      return Promise.resolve(entry.snapshot);
    }
    return new Promise((resolve) => {
      const list = this.waiters.get(txnId) ?? [];
      list.push(resolve);
      this.waiters.set(txnId, list);
    });
  }

  roomQueue(roomId: string): RoomQueue {
    let room = this.rooms.get(roomId);
    if (!room) {
      room = new RoomQueue(roomId);
      this.rooms.set(roomId, room);
    }
    return room;
  }

  entry(txnId: string): Entry {
    const entry = this.byTxn.get(txnId);
    if (!entry) throw new SendQueueError("UNKNOWN_EVENT", `No pending event with transaction id ${txnId}`);
    return entry;
  }

  add(record: StoredPendingEvent, failure?: SendFailure, hidden = false): Entry {
    const entry: Entry = {
      record,
      snapshot: snapshotOf(record, failure),
      attempts: 0,
      persisted: Promise.resolve(),
      removed: false,
      ...(hidden ? { hidden } : {}),
    };
    this.byTxn.set(record.txnId, entry);
    this.roomQueue(record.roomId).insert(entry);
    return entry;
  }

  /** Chains a write of the entry's record (or its removal) after the earlier ones. */
  persist(entry: Entry, remove = false): void {
    // Hidden signalling is only meaningful now: a reload must not send a stale call key or ring.
    if (entry.hidden) return;
    const record = cloneJson(entry.record);
    entry.persisted = entry.persisted
      .then(() => (remove ? this.store.removePendingEvent(record.txnId) : this.store.putPendingEvent(record)))
      .catch((error: unknown) => this.logger?.warn("Send queue: could not persist an event", error));
  }

  setStatus(entry: Entry, status: EventStatus, failure?: SendFailure, eventId?: string): void {
    const from = entry.snapshot.status;
    if (from !== status) transition(from ?? "sent", status);
    entry.record = {
      ...entry.record,
      status,
      ...(failure ? { failure: { kind: failure.kind, message: failure.message } } : {}),
    };
    if (!failure) delete entry.record.failure;
    entry.snapshot = snapshotOf(entry.record, failure, eventId ?? entry.snapshot.eventId);
    this.roomQueue(entry.record.roomId).update(entry);
    // Only the states a reload must know about are written: queued and not_sent (sent ones are removed).
    if (status === "queued" || status === "not_sent") this.persist(entry);
    this.notify(entry);
  }

  notify(entry: Entry): void {
    if (!SETTLED.has(entry.snapshot.status)) return;
    const waiting = this.waiters.get(entry.record.txnId);
    if (!waiting) return;
    this.waiters.delete(entry.record.txnId);
    for (const resolve of waiting) resolve(entry.snapshot);
  }

  /** Takes an entry off the queue, its list and the store. */
  drop(room: RoomQueue, entry: Entry): void {
    if (entry.removed) return;
    entry.removed = true;
    room.remove(entry);
    this.byTxn.delete(entry.record.txnId);
    this.persist(entry, true);
    room.wake();
  }

  recordSent(entry: Entry, eventId: string): void {
    this.sentTxns.set(entry.record.txnId, eventId);
    // Only recent local echoes get redacted or reacted to by txn id; keep the map bounded.
    if (this.sentTxns.size > SENT_TXNS_KEPT) {
      const oldest = this.sentTxns.keys().next();
      if (!oldest.done) this.sentTxns.delete(oldest.value);
    }
    // Redactions and reactions of this local echo can now name it.
    for (const dependent of this.byTxn.values()) {
      if (dependent.record.dependsOnTxnId !== entry.record.txnId) continue;
      this.pointAt(dependent, eventId);
    }
  }

  pointAt(entry: Entry, eventId: string): void {
    const { dependsOnTxnId: _resolved, ...record } = entry.record;
    if (record.kind === "redaction") record.redacts = eventId;
    else {
      const relates = record.content["m.relates_to"];
      const relation = relates !== null && typeof relates === "object" ? relates : {};
      record.content = { ...record.content, "m.relates_to": { ...relation, event_id: eventId } };
    }
    entry.record = record;
    entry.snapshot = snapshotOf(record, entry.snapshot.failure, entry.snapshot.eventId);
    this.roomQueue(record.roomId).update(entry);
    this.persist(entry);
  }

  /** An event id, or the txn id of a pending or sent local echo (with its event id once known). */
  resolve(id: string): { eventId?: string; txnId?: string } {
    const sent = this.sentTxns.get(id);
    if (sent !== undefined) return { eventId: sent, txnId: id };
    const entry = this.byTxn.get(id);
    if (!entry) return { eventId: id };
    return entry.snapshot.eventId !== undefined
      ? { eventId: entry.snapshot.eventId, txnId: id }
      : { txnId: id };
  }

  /** Events blocked only by a failure that is gone (resent, cancelled, echoed) go back to the queue. */
  unblock(room: RoomQueue): void {
    for (const entry of [...room.entries]) {
      if (entry.snapshot.status !== "not_sent") continue;
      if (entry.snapshot.failure?.kind !== "blocked") break;
      this.setStatus(entry, "queued");
    }
    this.wakeRoom(room);
  }

  blockFollowers(room: RoomQueue, failed: Entry): void {
    for (const entry of room.entries.slice(room.entries.indexOf(failed) + 1)) {
      if (entry.snapshot.status === "queued") this.setStatus(entry, "not_sent", failureOf("blocked"));
    }
  }
}
