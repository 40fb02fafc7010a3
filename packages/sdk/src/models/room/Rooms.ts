/**
 * Rooms: the model layer's room store. It subscribes to the sync
 * processor's batches and keeps one Room per room id (a Map, so ids like
 * `__proto__` are data), with its membership category, and the account's
 * m.direct for the DM flags. `get` throws 'Unknown room' for a room the
 * client does not know. Listeners learn which rooms each batch changed, so
 * the room list updates incrementally. Late decryptions (`applyDecrypted`)
 * update the room holding the event and count as a change of that room.
 *
 * Summary-first start: `seed` shows rooms from the room list summary; the
 * store's snapshot (a fromCache batch) then replaces them in chunks that
 * yield to the main thread (room-list/chunked-load.ts), so the list answers keys while it
 * loads; a room opened meanwhile loads first, and later batches wait for
 * the load to finish so nothing is applied out of order.
 */
import type { BasicEvent } from "../../api/types/events";
import type { HttpApi } from "../../http/types";
import type { SyncBatchListener, ProcessedSync } from "../../sync/processor/types";
import { realScheduler } from "../../util/scheduler";
import { isSlidingToken } from "../../sync/sliding/token";
import type { Scheduler } from "../../util/scheduler";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import { DIRECT_EVENT_TYPE, directRoomIndex, parseDirect } from "../direct";
import type { DecryptedEventUpdate, EventDecryptor } from "../timeline/decryptor";
import type { UnreadBreakdown } from "../push-rules/unread";
import type { ParsedJoinedRoom } from "../../sync/validate/types";
import { unknownRoom } from "../errors";
import type { RoomListSummaryEntry } from "../room-list/summary-entry";
import { LocalUnread, pushContextOf } from "./local-unread";
import type { Receipt } from "./receipts";
import { ChunkedLoad } from "../room-list/chunked-load";
import type { YieldFn } from "../room-list/chunked-load";
import { Room } from "./Room";
import type { RoomCategory } from "./Room";

/** What Rooms needs of the sync processor. */
export interface SyncBatchSource {
  subscribe(listener: SyncBatchListener): () => void;
}

/**
 * The batch source of a sync processor (SyncService.processor is typed by
 * what the service needs; the real SyncProcessor also has subscribe).
 * Throws when the processor cannot feed the model.
 */
export function batchSourceOf(processor: unknown): SyncBatchSource {
  const subscribe: unknown = (processor as { subscribe?: unknown } | null)?.subscribe;
  if (typeof subscribe !== "function") throw new TypeError("The sync processor has no subscribe(listener)");
  return processor as SyncBatchSource;
}

/** Late decryptions kept while their event has not reached the model yet. */
export const UNHELD_DECRYPTIONS_KEPT = 100;

export interface RoomsOptions {
  userId: string;
  http: HttpApi;
  /** The processor whose batches feed the rooms (SyncService.processor when it is a SyncProcessor). */
  source?: SyncBatchSource;
  scheduler?: Scheduler;
  /** Recent sync events kept per room while its timeline is closed. */
  recentEventsKept?: number;
  /** Decrypts events fetched outside sync before they enter a room's models (crypto on). */
  decryptor?: EventDecryptor;
  /** How the chunked load of a seeded start yields to the main thread (tests pass their own). */
  yieldToMain?: YieldFn;
  /** Where refused server data (a second m.room.create) is reported; console by default. */
  logger?: { warn(message: string, ...data: unknown[]): void };
}

export class Rooms {
  private readonly rooms = new Map<string, Room>();
  private readonly roomsValue = new ObservableValue<ReadonlyMap<string, Room>>(new Map());
  private readonly changeListeners = new Set<(changed: ReadonlySet<string>) => void>();
  private readonly accountDataMap = new Map<string, BasicEvent>();
  private directIndex = new Map<string, string>();
  /** Late decryptions whose event no room held yet, oldest first. */
  private readonly unheld = new Map<string, DecryptedEventUpdate>();
  private readonly unsubscribe: () => void;
  /** Client-side unread counters of joined rooms, while syncing without per-thread counts. */
  private readonly localUnread = new Map<string, LocalUnread>();
  /** The chunked load of the stored snapshot after a seeded start, while it runs. */
  private load: ChunkedLoad | undefined;
  /** Seeded rooms opened before the chunked load began: it loads them first. */
  private readonly wanted = new Set<string>();
  /** Batches that arrived during the chunked load, applied after it in order. */
  private queue: Promise<void> | undefined;

  constructor(private readonly options: RoomsOptions) {
    this.unsubscribe = options.source?.subscribe((batch) => this.receive(batch)) ?? (() => undefined);
  }

  /** Every known room by id; a new map whenever a room appears. */
  get all(): ReadonlyObservable<ReadonlyMap<string, Room>> {
    return this.roomsValue;
  }

  /** The room, or throws 'Unknown room'. */
  get(roomId: string): Room {
    const room = this.rooms.get(roomId);
    if (room === undefined) throw unknownRoom(roomId);
    return room;
  }

  /** The room, or undefined. */
  find(roomId: string): Room | undefined {
    return this.rooms.get(roomId);
  }

  /** The account data event of a type (global). */
  accountData(type: string): BasicEvent | undefined {
    return this.accountDataMap.get(type);
  }

  /** Listens for the rooms each batch changed; returns the unsubscribe. */
  onChange(listener: (changed: ReadonlySet<string>) => void): () => void {
    this.changeListeners.add(listener);
    return () => {
      this.changeListeners.delete(listener);
    };
  }

  /**
   * A late decryption (the key arrived after the event): the clear event
   * replaces the stand-in in every model of its room, and the room list
   * hears of the change. Returns whether a room held the event.
   */
  applyDecrypted(update: DecryptedEventUpdate): boolean {
    const room = this.rooms.get(update.roomId);
    if (room === undefined || !room.applyDecrypted(update.event)) {
      // The key may beat the batch that carries the event to the model: retried with the room's next batch.
      this.unheld.set(update.eventId, update);
      for (const id of this.unheld.keys()) {
        if (this.unheld.size <= UNHELD_DECRYPTIONS_KEPT) break;
        this.unheld.delete(id);
      }
      return false;
    }
    this.unheld.delete(update.eventId);
    this.notify(new Set([update.roomId]));
    return true;
  }

  /** Applies the late decryptions that found no event before, for rooms a batch changed. */
  private retryUnheld(changed: ReadonlySet<string>): void {
    for (const [eventId, update] of this.unheld) {
      if (!changed.has(update.roomId)) continue;
      if (this.rooms.get(update.roomId)?.applyDecrypted(update.event) === true) this.unheld.delete(eventId);
    }
  }

  /** A joined room update through the room's client-side unread counter (local-unread.ts). */
  private countLocally(room: Room, update: ParsedJoinedRoom): UnreadBreakdown {
    let counter = this.localUnread.get(room.roomId);
    if (counter === undefined) {
      counter = new LocalUnread(this.options.userId);
      this.localUnread.set(room.roomId, counter);
    }
    const snap = room.getSnapshot();
    const push = pushContextOf(snap.state, this.options.userId, room.roomId, snap.summary);
    // m.push_rules holds the ruleset under "global" (the only scope); the evaluator takes the ruleset.
    const content = this.accountDataMap.get("m.push_rules")?.content;
    const ruleset =
      typeof content === "object" && content !== null ? (content as { global?: unknown }).global : undefined;
    return counter.apply(update, ruleset, push);
  }

  /**
   * The user's own read receipt, applied as soon as the server accepted it
   * (ReceiptService calls this), so badges clear without waiting for sync.
   */
  applyOwnReceipt(roomId: string, receipt: Receipt): void {
    const room = this.rooms.get(roomId);
    if (room === undefined || receipt.userId !== this.options.userId) return;
    const counter = this.localUnread.get(roomId);
    counter?.applyReceipts([receipt]);
    room.applyOwnReceipt(receipt, counter?.counts());
    this.notify(new Set([roomId]));
  }

  /** Stops listening to sync. */
  dispose(): void {
    this.unsubscribe();
  }

  /**
   * Shows rooms from the room list summary before the store's snapshot is
   * read (rooms already known keep their live state). Returns how many it seeded.
   */
  seed(entries: readonly RoomListSummaryEntry[], accountData: readonly BasicEvent[] = []): number {
    if (this.rooms.size === 0) this.applyAccountData(accountData);
    return this.listSeeded(this.seedUnlisted(entries));
  }

  /**
   * Builds rooms from summary entries without listing them yet (a long
   * seed in slices lists once, with `listSeeded`). Returns the ids built.
   */
  seedUnlisted(entries: readonly RoomListSummaryEntry[]): string[] {
    const built: string[] = [];
    for (const entry of entries) {
      if (this.rooms.has(entry.roomId)) continue;
      this.roomOf(entry.roomId, entry.category).seedFromSummary(entry);
      built.push(entry.roomId);
    }
    return built;
  }

  /** Lists rooms built by `seedUnlisted` (those still there); returns how many. */
  listSeeded(roomIds: Iterable<string>): number {
    const changed = new Set<string>();
    for (const id of roomIds) if (this.rooms.has(id)) changed.add(id);
    if (changed.size === 0) return 0;
    this.roomsValue.set(new Map(this.rooms));
    this.notify(changed);
    return changed.size;
  }

  /** Whether the stored snapshot is still loading in chunks (after a seeded start). */
  get loading(): boolean {
    return this.load !== undefined;
  }

  /**
   * Loads a seeded room's full state now (it is opened before the chunked
   * load reached it), or first when the load has not begun yet.
   */
  ensureLoaded(roomId: string): void {
    if (this.load !== undefined) this.load.now(roomId);
    else if (this.rooms.get(roomId)?.isSeeded === true) this.wanted.add(roomId);
  }

  /** Applies one processed batch (see `receive`; `idle()` tells when a chunked load is done). */
  handle(batch: ProcessedSync): void {
    const pending = this.receive(batch);
    pending?.catch((error: unknown) => console.error("Rooms: applying a batch failed", error));
  }

  /** Resolves once no chunked load or batch waiting for it is left. */
  async idle(): Promise<void> {
    while (this.queue !== undefined) await this.queue.catch(() => undefined);
  }

  /**
   * Applies one processed batch (the processor subscription, which awaits
   * it). The stored snapshot after a seeded start loads in chunks: the
   * returned promise ends with the load, and batches meanwhile wait for it.
   */
  receive(batch: ProcessedSync): Promise<void> | undefined {
    if (this.queue !== undefined) return this.enqueue(() => this.apply(batch));
    const seeded = [...this.rooms.values()].some((r) => r.isSeeded);
    if (!batch.fromCache || !seeded) {
      this.apply(batch);
      return undefined;
    }
    const load = new ChunkedLoad({
      batch,
      apply: (part) => this.apply(part),
      order: (id) => this.rooms.get(id)?.getSnapshot().lastActivityTs ?? 0,
      first: [...this.wanted],
      ...(this.options.yieldToMain !== undefined ? { yieldToMain: this.options.yieldToMain } : {}),
    });
    this.load = load;
    this.wanted.clear();
    return this.enqueue(async () => {
      try {
        await load.run();
      } finally {
        this.load = undefined;
        this.dropSeeded();
      }
    });
  }

  /** Runs `work` after what is queued; the queue empties when its last work ends. */
  private enqueue(work: () => void | Promise<void>): Promise<void> {
    const next = (this.queue ?? Promise.resolve()).catch(() => undefined).then(work);
    this.queue = next;
    const clear = (): void => {
      if (this.queue === next) this.queue = undefined;
    };
    next.then(clear, clear);
    return next;
  }

  /** Seeded rooms the snapshot did not hold are gone (left meanwhile): nothing stays stale. */
  private dropSeeded(): void {
    const gone = new Set<string>();
    for (const [id, room] of this.rooms) if (room.isSeeded) gone.add(id);
    if (gone.size === 0) return;
    for (const id of gone) this.rooms.delete(id);
    this.roomsValue.set(new Map(this.rooms));
    this.notify(gone);
  }

  private roomOf(roomId: string, category: RoomCategory): Room {
    let r = this.rooms.get(roomId);
    if (r === undefined) {
      r = new Room(roomId, category, {
        userId: this.options.userId,
        http: this.options.http,
        scheduler: this.options.scheduler ?? realScheduler,
        directUserOf: (id) => this.directIndex.get(id),
        ensureLoaded: (id) => this.ensureLoaded(id),
        ...(this.options.recentEventsKept !== undefined
          ? { recentEventsKept: this.options.recentEventsKept }
          : {}),
        ...(this.options.decryptor !== undefined ? { decryptor: this.options.decryptor } : {}),
        ...(this.options.logger !== undefined ? { logger: this.options.logger } : {}),
      });
      this.rooms.set(roomId, r);
    }
    return r;
  }

  private apply(batch: ProcessedSync): void {
    const changed = new Set<string>();
    const before = this.rooms.size;
    const room = (roomId: string, category: RoomCategory): Room => {
      changed.add(roomId);
      return this.roomOf(roomId, category);
    };
    const directChanged = this.applyAccountData(batch.accountData);
    // Simplified sliding sync sends no per-thread counts: the client counts unread events itself.
    const local = isSlidingToken(batch.nextBatch);
    for (const [id, update] of batch.rooms.join) {
      const r = room(id, "join");
      r.applyJoined(update, local ? this.countLocally(r, update) : undefined);
    }
    for (const [id, update] of batch.rooms.invite) room(id, "invite").applyInvite(update);
    for (const [id, update] of batch.rooms.knock) room(id, "knock").applyKnock(update);
    for (const [id, update] of batch.rooms.leave) room(id, "leave").applyLeft(update);
    const added = this.rooms.size !== before;
    if (directChanged !== undefined) {
      for (const id of directChanged) {
        const r = this.rooms.get(id);
        if (r === undefined || changed.has(id)) continue;
        r.refreshDirect();
        changed.add(id);
      }
    }
    if (added) this.roomsValue.set(new Map(this.rooms));
    if (this.unheld.size > 0) this.retryUnheld(changed);
    if (changed.size > 0) this.notify(changed);
  }

  private notify(changed: ReadonlySet<string>): void {
    for (const listener of [...this.changeListeners]) {
      try {
        listener(changed);
      } catch (error) {
        console.error("Rooms: change listener failed", error);
      }
    }
  }

  /** Stores global account data; returns the rooms whose DM flag may have changed. */
  private applyAccountData(events: readonly BasicEvent[]): Set<string> | undefined {
    let direct: Set<string> | undefined;
    for (const e of events) {
      this.accountDataMap.set(e.type, e);
      if (e.type !== DIRECT_EVENT_TYPE) continue;
      const before = this.directIndex;
      this.directIndex = directRoomIndex(parseDirect(e.content));
      direct = new Set([...before.keys(), ...this.directIndex.keys()]);
    }
    return direct;
  }
}
