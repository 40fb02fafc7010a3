/**
 * The room list summary cache: a start from the store shows a complete,
 * sorted room list before the full snapshot is read. `load()` (run by the
 * sync service before its restore) reads compact records from the store and
 * seeds the Rooms model with them: part 0, the first screenful (the most
 * recent FIRST_SEED_ROOMS rooms and the invites), is read and listed
 * first; once that has painted, the other parts (SUMMARY_PART_ROOMS rooms
 * each) are read and built a slice per task, so input is answered
 * meanwhile, and listed together. The restore then replaces each seeded
 * room with its full state, in chunks that yield to the main thread
 * (Rooms.handle). While running, the cache rebuilds the record after
 * batches, at most once per `delayMs` and off the hot path, and stages it in
 * the store, which persists it with the snapshot (the first one is saved at
 * once, so the next start has it). Logout deletes it with the store's data.
 */
import type { Store } from "../../store/Store";
import { afterPaint, yieldToMain } from "../../util/yield";
import type { YieldFn } from "../../util/yield";
import { DIRECT_EVENT_TYPE } from "../direct";
import type { JsonObject } from "../../store/Store";
import type { RoomSnapshot } from "../room/Room";
import type { Rooms } from "../room/Rooms";
import { entryOf, parseSummaryPart, ROOM_LIST_SUMMARY_VERSION, summaryParts } from "./summary-entry";
import type { RoomListSummaryEntry, RoomListSummaryPart, RoomListSummaryRecord } from "./summary-entry";

/** Rooms seeded before the first paint: more than a tall screen's rows. */
export const FIRST_SEED_ROOMS = 60;

/** Rooms per stored part after the first (a get and a parse per task). */
export const SUMMARY_PART_ROOMS = 250;

/** Rooms built per task while seeding the parts after the first (about 10 ms on a 2-core laptop). */
export const SEED_SLICE_ROOMS = 100;

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
  /** Gives the main thread back between the slices of the rest (default: yieldToMain). */
  yieldToMain?: YieldFn;
  /** Rooms per stored part after the first (default SUMMARY_PART_ROOMS). */
  partRooms?: number;
}

export class RoomListSummaryCache {
  /** Entries by the snapshot they were built from: an unchanged room is not rebuilt. */
  private entries = new WeakMap<RoomSnapshot, RoomListSummaryEntry>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the store holds a summary (else the first staged one is saved at once). */
  private persisted = false;
  private disposed = false;
  /** Part 0, read ahead by `prefetch`. */
  private early: Promise<JsonObject | null> | undefined;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: RoomListSummaryCacheOptions) {
    this.unsubscribe = options.rooms.onChange(() => this.schedule());
  }

  /**
   * Starts reading part 0 now (the sync service calls it as the store
   * opens, so the read overlaps the client-options check).
   */
  prefetch(): void {
    if (this.early !== undefined) return;
    const early = this.options.store.getRoomListSummary(0);
    // Read by load(); a rejection left unread must not surface as unhandled.
    early.catch(() => undefined);
    this.early = early;
  }

  /**
   * Reads the stored summary's parts and seeds the rooms with them (none
   * when the client-options check `discarded` the cache). Returns how many
   * rooms it seeded (0 when there is none or it cannot be read).
   */
  async load(discarded = false): Promise<number> {
    // A discarded cache holds no summary: what was read ahead of the discard is stale.
    if (discarded) {
      this.early = undefined;
      return 0;
    }
    const first = await this.readPart(0);
    if (first === null) return 0;
    this.persisted = true;
    const rooms = this.options.rooms;
    // The first screenful first: the list shows its rows before the other rooms are read.
    const seeded = rooms.seed(first.rooms, first.accountData);
    if (first.parts === 1) return seeded;
    await (this.options.afterFirst ?? afterPaint)();
    const pause = this.options.yieldToMain ?? yieldToMain;
    const built = new Set<string>();
    for (let i = 1; i < first.parts && !this.disposed; i++) {
      // A part missing or unreadable: the snapshot's load brings its rooms.
      const part = await this.readPart(i);
      if (part === null) break;
      for (let at = 0; at < part.rooms.length && !this.disposed; at += SEED_SLICE_ROOMS) {
        for (const id of rooms.seedUnlisted(part.rooms.slice(at, at + SEED_SLICE_ROOMS))) built.add(id);
        await pause();
      }
    }
    // Listed together: each listing re-sorts and re-renders the whole list.
    return seeded + (this.disposed ? 0 : rooms.listSeeded(built));
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

  /** Stages the current record now, in parts (also before a forced save: stop, page hide). */
  stage(): void {
    this.cancel();
    if (this.disposed || this.options.rooms.all.getSnapshot().size === 0) return;
    const store = this.options.store;
    const record = this.build();
    const parts = summaryParts(
      record,
      firstScreenful(record.rooms),
      this.options.partRooms ?? SUMMARY_PART_ROOMS,
    );
    store.setRoomListSummary(parts as unknown as JsonObject[]);
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

  /** Stored part `index`, or null when it is missing, corrupt or unreadable. */
  private async readPart(index: number): Promise<RoomListSummaryPart | null> {
    const early = index === 0 ? this.early : undefined;
    if (index === 0) this.early = undefined;
    try {
      return parseSummaryPart(await (early ?? this.options.store.getRoomListSummary(index)), index);
    } catch (error) {
      this.options.logger?.warn(
        `Room list summary: cannot read part ${index}; loading the full store`,
        error,
      );
      return null;
    }
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
function firstScreenful(entries: readonly RoomListSummaryEntry[]): Set<RoomListSummaryEntry> {
  const ts = (e: RoomListSummaryEntry): number => e.latestEvent?.origin_server_ts ?? 0;
  const invites = entries.filter((e) => e.category === "invite");
  const recent = [...entries].sort((a, b) => ts(b) - ts(a)).slice(0, FIRST_SEED_ROOMS);
  return new Set([...invites, ...recent]);
}
