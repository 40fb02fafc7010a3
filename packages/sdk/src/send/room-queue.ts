/**
 * The per-room part of the send queue: the ordered entries (one per pending
 * event, kept in step with the observable list the UI reads) and the wake-up
 * signal that cuts a backoff or an offline hold short.
 */
import type { StoredPendingEvent } from "../store/Store";
import { ObservableList } from "../util/observable-list";
import type { SendFailure } from "./failure";
import type { PendingEvent } from "./types";

/** One pending event as the queue tracks it. */
export interface Entry {
  /** The persisted form; `status` and `failure` follow the snapshot's. */
  record: StoredPendingEvent;
  snapshot: PendingEvent;
  /** Failed attempts since the last success, hold or resend. */
  attempts: number;
  /** The chain of store writes for this event, so they land in order; awaited before the first PUT. */
  persisted: Promise<void>;
  /** Gone from the queue (sent and echoed, or cancelled). */
  removed: boolean;
  /** Signalling the user does not see (call keys, rings): sent in order, but not in the list and never persisted. */
  hidden?: boolean;
}

export class RoomQueue {
  /** The local echoes: the entries that are not hidden, in the same order. */
  readonly list = new ObservableList<PendingEvent>();
  /** In send order (seq), hidden ones included. */
  readonly entries: Entry[] = [];
  /** A worker is running for this room. */
  running = false;
  private wakeController = new AbortController();

  constructor(readonly roomId: string) {}

  /** Inserts in seq order (restored events go before newer ones). */
  insert(entry: Entry): void {
    let index = this.entries.length;
    while (index > 0 && (this.entries[index - 1]?.record.seq ?? 0) > entry.record.seq) index--;
    this.entries.splice(index, 0, entry);
    if (!entry.hidden) this.list.insert(this.listIndex(index), entry.snapshot);
  }

  remove(entry: Entry): void {
    const index = this.entries.indexOf(entry);
    if (index < 0) return;
    this.entries.splice(index, 1);
    if (!entry.hidden) this.list.remove(this.listIndex(index));
  }

  /** Publishes the entry's current snapshot. */
  update(entry: Entry): void {
    const index = this.entries.indexOf(entry);
    if (index >= 0 && !entry.hidden) this.list.update(this.listIndex(index), entry.snapshot);
  }

  /** The list index of the entry at `index`: the visible entries before it. */
  private listIndex(index: number): number {
    let n = 0;
    for (let i = 0; i < index; i++) if (!this.entries[i]?.hidden) n++;
    return n;
  }

  /** The signal a sleeping worker waits on. */
  get signal(): AbortSignal {
    return this.wakeController.signal;
  }

  /** Wakes the worker from a backoff sleep or an offline hold. */
  wake(): void {
    const controller = this.wakeController;
    this.wakeController = new AbortController();
    controller.abort(new Error("woken"));
  }

  /** Resolves at the next wake(). */
  untilWoken(): Promise<void> {
    const signal = this.signal;
    return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
  }
}

/** The snapshot for a record and its failure. */
export function snapshotOf(
  record: StoredPendingEvent,
  failure?: SendFailure,
  eventId?: string,
): PendingEvent {
  return Object.freeze({
    txnId: record.txnId,
    roomId: record.roomId,
    kind: record.kind,
    type: record.eventType,
    content: record.content,
    ...(record.kind === "redaction" ? { redacts: record.redacts ?? record.dependsOnTxnId } : {}),
    status: record.status as PendingEvent["status"],
    ...(eventId !== undefined ? { eventId } : {}),
    ...(failure ? { failure } : {}),
    createdAt: record.createdAt,
  });
}
