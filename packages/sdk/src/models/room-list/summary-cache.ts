/**
 * The room list summary cache: a start from the store shows a complete,
 * sorted room list before the full snapshot is read. `load()` (run by the
 * sync service before its restore) reads one compact record from the store
 * and seeds the Rooms model with it, the first screenful (the most recent
 * FIRST_SEED_ROOMS rooms) first, the rest once that has painted; the
 * restore then replaces each seeded room with its full state, in chunks
 * that yield to the main thread (Rooms.handle). While running, the cache rebuilds the record after
 * batches, at most once per `delayMs` and off the hot path, and stages it in
 * the store, which persists it with the snapshot (the first one is saved at
 * once, so the next start has it). Logout deletes it with the store's data.
 */
import type { Store } from "../../store/Store";
import { afterPaint } from "../../util/yield";
import type { YieldFn } from "../../util/yield";
import { DIRECT_EVENT_TYPE } from "../direct";
import type { JsonObject } from "../../store/Store";
import type { RoomSnapshot } from "../room/Room";
import type { Rooms } from "../room/Rooms";
import { entryOf, parseSummaryRecord, ROOM_LIST_SUMMARY_VERSION } from "./summary-entry";
import type { RoomListSummaryEntry, RoomListSummaryRecord } from "./summary-entry";

/** Rooms seeded before the first paint: more than a tall screen's rows. */
export const FIRST_SEED_ROOMS = 60;

/** Batches are folded into the summary at most this often. */
export const SUMMARY_STAGE_DELAY_MS = 2_000;

export interface RoomListSummaryCacheOptions {
  rooms: Rooms;
  store: Store;
  userId: string;
  delayMs?: number;
  logger?: { warn(message: string, error?: unknown): void };
  /** Waits between the first screenful and the rest (default: after the next paint). */
  afterFirst?: YieldFn;
}

export class RoomListSummaryCache {
  /** Entries by the snapshot they were built from: an unchanged room is not rebuilt. */
  private entries = new WeakMap<RoomSnapshot, RoomListSummaryEntry>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the store holds a summary (else the first staged one is saved at once). */
  private persisted = false;
  private disposed = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: RoomListSummaryCacheOptions) {
    this.unsubscribe = options.rooms.onChange(() => this.schedule());
  }

  /**
   * Reads the stored summary and seeds the rooms with it. Returns how many
   * rooms it seeded (0 when there is none or it cannot be read).
   */
  async load(): Promise<number> {
    let record: RoomListSummaryRecord | null;
    try {
      record = parseSummaryRecord(await this.options.store.getRoomListSummary());
    } catch (error) {
      this.options.logger?.warn("Room list summary: cannot read it; loading the full store", error);
      return 0;
    }
    if (record === null) return 0;
    this.persisted = true;
    const rooms = this.options.rooms;
    if (record.rooms.length <= FIRST_SEED_ROOMS) return rooms.seed(record.rooms, record.accountData);
    // The first screenful first: the list shows its rows before the other rooms are built.
    let seeded = rooms.seed(firstScreenful(record.rooms), record.accountData);
    await (this.options.afterFirst ?? afterPaint)();
    // The rest in one task: seeding it in yielding parts was measured slower to interactive (each part re-sorts and re-renders the list).
    if (!this.disposed) seeded += rooms.seed(record.rooms);
    return seeded;
  }

  /** The current record (every joined, invited and knocked room). */
  build(): RoomListSummaryRecord {
    const rooms: RoomListSummaryEntry[] = [];
    for (const room of this.options.rooms.all.getSnapshot().values()) {
      const snap = room.getSnapshot();
      if (snap.category === "leave") continue;
      let entry = this.entries.get(snap);
      if (entry === undefined) {
        entry = entryOf(snap, this.options.userId);
        this.entries.set(snap, entry);
      }
      rooms.push(entry);
    }
    const direct = this.options.rooms.accountData(DIRECT_EVENT_TYPE);
    return { version: ROOM_LIST_SUMMARY_VERSION, rooms, accountData: direct !== undefined ? [direct] : [] };
  }

  /** Stages the current record now (also before a forced save: stop, page hide). */
  stage(): void {
    this.cancel();
    if (this.disposed || this.options.rooms.all.getSnapshot().size === 0) return;
    const store = this.options.store;
    store.setRoomListSummary(this.build() as unknown as JsonObject);
    if (this.persisted) return;
    // The store's first snapshot was saved before any summary existed: save this one now.
    this.persisted = true;
    store.save(true).catch((error: unknown) => {
      this.persisted = false;
      this.options.logger?.warn("Room list summary: saving failed", error);
    });
  }

  /** Stops listening (the staged record stays staged). */
  dispose(): void {
    this.disposed = true;
    this.cancel();
    this.unsubscribe();
  }

  private schedule(): void {
    if (this.timer !== undefined || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.stage();
    }, this.options.delayMs ?? SUMMARY_STAGE_DELAY_MS);
  }

  private cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** The most recently active rooms (the list's default order), and every invite. */
function firstScreenful(entries: readonly RoomListSummaryEntry[]): RoomListSummaryEntry[] {
  const ts = (e: RoomListSummaryEntry): number => e.latestEvent?.origin_server_ts ?? 0;
  const invites = entries.filter((e) => e.category === "invite");
  const recent = [...entries].sort((a, b) => ts(b) - ts(a)).slice(0, FIRST_SEED_ROOMS);
  return [...new Set([...invites, ...recent])];
}
