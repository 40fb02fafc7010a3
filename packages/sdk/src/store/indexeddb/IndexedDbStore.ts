/**
 * A Store over IndexedDB (idb). Sync snapshots, account data and users are
 * staged in memory and written by `save` in one read-write transaction over
 * the affected object stores, so a crash never leaves half a snapshot; the
 * snapshot's rooms go to chunk records read one at a time (sync-chunks.ts).
 * The room list summary is written in a transaction of its own just before.
 * Out-of-band members, client options, the to-device queue and the send
 * queue's pending events are written at once. Any storage failure is thrown to the caller; FallbackStore turns
 * it into a degradation to memory.
 */
import { StoreError } from "../errors";
import { openDB } from "idb";
import type { IDBPDatabase } from "idb";
import { cloneJson } from "../MemoryStore";
import { SAVE_INTERVAL_MS } from "../Store";
import type { JsonObject, Store, StoredPendingEvent, StoredSync, StoredUser, ToDeviceBatch } from "../Store";
import { EXTENSION_STORES, OBJECT_STORES, SCHEMA_VERSION, SINGLETON_KEY, upgrade } from "./schema";
import { chunkWrites, joinRoomsData, splitRoomsData } from "./sync-chunks";
import type { WrittenChunks } from "./sync-chunks";
import type { LatticeDb } from "./schema";

export interface IndexedDbStoreOptions {
  /**
   * The IDBFactory: globalThis.indexedDB in browsers, fake-indexeddb in Node
   * tests. Typed loosely because the SDK core compiles without DOM types.
   */
  indexedDB: object;
  /** Database name; one per account (e.g. "lattice:@alice:example.org"). */
  dbName: string;
  /** Clock for the save throttle. */
  now?: () => number;
}

export class IndexedDbStore implements Store {
  readonly kind = "indexeddb" as const;
  private db: IDBPDatabase<LatticeDb> | undefined;
  private stagedSync: StoredSync | undefined;
  private stagedRoomList: readonly JsonObject[] | undefined;
  private stagedAccountData = new Map<string, JsonObject & { type: string }>();
  private stagedUsers = new Map<string, StoredUser>();
  private lastSave: number;
  /** The chunk records this instance last wrote and the writer mark it left (incremental saves). */
  private written: { chunks: WrittenChunks; writer: string } | undefined;
  private readonly instanceId = Math.random().toString(36).slice(2);
  private saves = 0;
  private readonly now: () => number;

  constructor(private readonly options: IndexedDbStoreOptions) {
    this.now = options.now ?? Date.now;
    this.lastSave = this.now();
  }

  async open(): Promise<void> {
    if (this.db) return;
    this.db = await withFactory(this.options.indexedDB, () =>
      openDB<LatticeDb>(this.options.dbName, SCHEMA_VERSION, {
        upgrade: (db, oldVersion, newVersion, tx) =>
          upgrade(db, oldVersion, newVersion ?? SCHEMA_VERSION, tx),
      }),
    );
  }

  async close(): Promise<void> {
    // IDBPDatabase inherits close() from the DOM's IDBDatabase, which the SDK core does not compile against.
    (this.db as { close(): void } | undefined)?.close();
    this.db = undefined;
    return Promise.resolve();
  }

  private get database(): IDBPDatabase<LatticeDb> {
    if (!this.db) throw new StoreError("NOT_OPEN", "IndexedDbStore is not open");
    return this.db;
  }

  async getSync(): Promise<StoredSync | null> {
    if (this.stagedSync) return cloneJson(this.stagedSync);
    const db = this.database;
    const record = await db.get("sync", SINGLETON_KEY);
    if (!record) return null;
    const roomsData = record.chunks
      ? await joinRoomsData(record.roomsData, record.chunks, (key) => db.get("sync_chunks", key))
      : record.roomsData;
    return { nextBatch: record.nextBatch, roomsData };
  }

  setSync(sync: StoredSync): void {
    this.stagedSync = cloneJson(sync);
  }

  async getRoomListSummary(part = 0): Promise<JsonObject | null> {
    if (this.stagedRoomList) return this.stagedRoomList[part] ?? null;
    const record = await this.database.get("room_list", summaryKey(part));
    if (!record) return null;
    if (typeof record.summary !== "string") return record.summary;
    const parsed: unknown = JSON.parse(record.summary);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as JsonObject)
      : null;
  }

  setRoomListSummary(parts: readonly JsonObject[]): void {
    // Fresh records from the summary cache, never mutated after: staged as given.
    this.stagedRoomList = [...parts];
  }

  async getAccountData(): Promise<JsonObject[]> {
    const stored = await this.database.getAll("accountData");
    const byType = new Map<string, JsonObject>(stored.map((e) => [e.type, e]));
    for (const [type, event] of this.stagedAccountData) byType.set(type, cloneJson(event));
    return [...byType.values()];
  }

  setAccountData(events: readonly JsonObject[]): void {
    for (const event of events) {
      const type = event["type"];
      if (typeof type === "string") this.stagedAccountData.set(type, { ...cloneJson(event), type });
    }
  }

  async getUsers(): Promise<StoredUser[]> {
    const stored = await this.database.getAll("users");
    const byId = new Map(stored.map((u) => [u.userId, u]));
    for (const [id, user] of this.stagedUsers) byId.set(id, cloneJson(user));
    return [...byId.values()];
  }

  setUsers(users: readonly StoredUser[]): void {
    for (const user of users) this.stagedUsers.set(user.userId, cloneJson(user));
  }

  async getOutOfBandMembers(roomId: string): Promise<JsonObject[] | null> {
    const records = await this.database.getAllFromIndex("oob_membership_events", "room", roomId);
    if (records.length === 0) return null;
    // The marker record (state_key "" with oob_written) tells "loaded, none" from "never loaded".
    return records.filter((r) => r["oob_written"] !== true).map(({ ...event }) => event);
  }

  async setOutOfBandMembers(roomId: string, members: readonly JsonObject[]): Promise<void> {
    const tx = this.database.transaction("oob_membership_events", "readwrite");
    const store = tx.objectStore("oob_membership_events");
    for (const member of members) {
      const stateKey = member["state_key"];
      if (typeof stateKey !== "string" || stateKey === "") continue;
      await store.put({ ...cloneJson(member), room_id: roomId, state_key: stateKey });
    }
    await store.put({ room_id: roomId, state_key: "", oob_written: true });
    await tx.done;
  }

  async clearOutOfBandMembers(roomId: string): Promise<void> {
    const tx = this.database.transaction("oob_membership_events", "readwrite");
    const keys = await tx.store.index("room").getAllKeys(roomId);
    for (const key of keys) await tx.store.delete(key);
    await tx.done;
  }

  async getClientOptions(): Promise<JsonObject | null> {
    const record = await this.database.get("client_options", SINGLETON_KEY);
    return record ? record.options : null;
  }

  async storeClientOptions(options: JsonObject): Promise<void> {
    await this.database.put("client_options", { clobber: SINGLETON_KEY, options: cloneJson(options) });
  }

  async queueToDevice(batches: readonly ToDeviceBatch[]): Promise<ToDeviceBatch[]> {
    const tx = this.database.transaction("to_device_queue", "readwrite");
    const added: ToDeviceBatch[] = [];
    for (const batch of batches) {
      const { id: _ignored, ...rest } = cloneJson(batch);
      const id = await tx.store.add(rest as ToDeviceBatch & { id: number });
      added.push({ ...rest, id });
    }
    await tx.done;
    return added;
  }

  async nextToDevice(): Promise<ToDeviceBatch | null> {
    const cursor = await this.database.transaction("to_device_queue").store.openCursor();
    return cursor ? cursor.value : null;
  }

  async removeToDevice(id: number): Promise<void> {
    await this.database.delete("to_device_queue", id);
  }

  async getPendingEvents(): Promise<StoredPendingEvent[]> {
    return this.database.getAllFromIndex("pending_events", "seq");
  }

  async putPendingEvent(event: StoredPendingEvent): Promise<void> {
    await this.database.put("pending_events", cloneJson(event));
  }

  async removePendingEvent(txnId: string): Promise<void> {
    await this.database.delete("pending_events", txnId);
  }

  wantsSave(): boolean {
    return this.now() - this.lastSave >= SAVE_INTERVAL_MS;
  }

  async save(force = false): Promise<void> {
    if (!force && !this.wantsSave()) return;
    const sync = this.stagedSync;
    const roomList = this.stagedRoomList;
    const accountData = [...this.stagedAccountData.values()];
    const users = [...this.stagedUsers.values()];
    if (roomList) {
      // Its own transaction: the next start reads it without waiting for a large snapshot write to commit.
      // A JSON string per part: a start reads and parses it in about two thirds of a structured clone's time (docs 0006).
      const tx = this.database.transaction("room_list", "readwrite");
      await Promise.all([
        tx.store.clear(),
        ...roomList.map((part, i) => tx.store.put({ clobber: summaryKey(i), summary: JSON.stringify(part) })),
        tx.done,
      ]);
      if (this.stagedRoomList === roomList) this.stagedRoomList = undefined;
    }
    if (sync || accountData.length > 0 || users.length > 0) {
      const tx = this.database.transaction(["sync", "sync_chunks", "accountData", "users"], "readwrite");
      const writes: Array<Promise<unknown>> = [];
      let written: { chunks: WrittenChunks; writer: string } | undefined;
      if (sync) {
        const { head, refs, chunks } = splitRoomsData(sync.roomsData);
        const chunkStore = tx.objectStore("sync_chunks");
        // Only the changed chunks, when the store still holds what this instance last wrote (no other tab wrote since):
        // a page hide's save then writes a few records, not the whole snapshot the next start would wait behind.
        const current = this.written ? await tx.objectStore("sync").get(SINGLETON_KEY) : undefined;
        const previous = current?.writer === this.written?.writer ? this.written?.chunks : undefined;
        const plan = chunkWrites(previous, chunks);
        if (previous === undefined) writes.push(chunkStore.clear());
        for (const key of plan.remove) writes.push(chunkStore.delete(key));
        for (const chunk of plan.put) writes.push(chunkStore.put(chunk));
        const writer = `${this.instanceId}:${++this.saves}`;
        const record = {
          clobber: SINGLETON_KEY,
          nextBatch: sync.nextBatch,
          roomsData: head,
          chunks: refs,
          writer,
        };
        writes.push(tx.objectStore("sync").put(record));
        written = { chunks: plan.written, writer };
      }
      for (const event of accountData) writes.push(tx.objectStore("accountData").put(event));
      for (const user of users) writes.push(tx.objectStore("users").put(user));
      try {
        await Promise.all([...writes, tx.done]);
      } catch (error) {
        // What the store holds is unknown now: the next save writes every chunk.
        if (sync) this.written = undefined;
        throw error;
      }
      if (written) this.written = written;
      // Only what this transaction committed leaves the staging area.
      if (this.stagedSync === sync) this.stagedSync = undefined;
      for (const event of accountData) {
        if (this.stagedAccountData.get(event.type) === event) this.stagedAccountData.delete(event.type);
      }
      for (const user of users) {
        if (this.stagedUsers.get(user.userId) === user) this.stagedUsers.delete(user.userId);
      }
    }
    this.lastSave = this.now();
  }

  async deleteAllData(): Promise<void> {
    // Every store the schema has: the spec's and the later versions' (one list, in schema.ts).
    const names = [...OBJECT_STORES, ...EXTENSION_STORES];
    const tx = this.database.transaction([...names], "readwrite");
    await Promise.all([...names.map((n) => tx.objectStore(n).clear()), tx.done]);
    this.stagedSync = undefined;
    this.stagedRoomList = undefined;
    this.stagedAccountData.clear();
    this.stagedUsers.clear();
    this.written = undefined;
  }
}

/** idb's openDB uses the global indexedDB; point it at the given factory for the call. */
export async function withFactory<T>(factory: object, fn: () => Promise<T>): Promise<T> {
  const g = globalThis as { indexedDB?: object };
  const previous = g.indexedDB;
  // A browser's window.indexedDB is a read-only getter: assigning it throws in a module, so only swap a different factory.
  if (previous === factory) return fn();
  g.indexedDB = factory;
  try {
    return await fn();
  } finally {
    g.indexedDB = previous;
  }
}

/** The room_list key of a summary part: part 0 under the singleton key (as schema v6 wrote the whole summary). */
function summaryKey(part: number): string {
  return part === 0 ? SINGLETON_KEY : `${SINGLETON_KEY}${part}`;
}
