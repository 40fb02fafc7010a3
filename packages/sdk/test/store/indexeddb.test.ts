/**
 * IndexedDB specifics: schema migrations from every older version keep the
 * data, the save throttle, and degradation to memory on storage failure.
 */
import "fake-indexeddb/auto";
import { IDBFactory, IDBObjectStore } from "fake-indexeddb";
import { openDB } from "idb";
import { describe, expect, it, vi } from "vitest";
import {
  FallbackStore,
  IndexedDbStore,
  EXTENSION_STORES,
  OBJECT_STORES,
  SAVE_INTERVAL_MS,
  SCHEMA_VERSION,
} from "../../src/store";
import { MemoryStore } from "../../src/store";
import { MIGRATIONS } from "../../src/store/indexeddb/schema";
import type { LatticeDb } from "../../src/store/indexeddb/schema";
import { SYNC_CHUNK_ROOMS } from "../../src/store/indexeddb/sync-chunks";

/** Creates a database at an old version, through the migrations up to it, with data in each store it has. */
async function createAtVersion(factory: object, name: string, version: number): Promise<void> {
  const g = globalThis as { indexedDB?: object };
  const previous = g.indexedDB;
  g.indexedDB = factory;
  const db = await openDB<LatticeDb>(name, version, {
    upgrade(database, oldVersion, _newVersion, tx) {
      for (let v = oldVersion; v < version; v++) MIGRATIONS[v]!(database, tx);
    },
  });
  await db.put("users", { userId: "@old:x", displayName: "Old" });
  await db.put("accountData", { type: "m.direct", content: { "@b:x": ["!dm:x"] } });
  await db.put("sync", { clobber: "-", nextBatch: "s_old", roomsData: { join: {} } });
  if (version >= 2)
    await db.put("oob_membership_events", { room_id: "!r:x", state_key: "@m:x", type: "m.room.member" });
  if (version >= 3) await db.put("client_options", { clobber: "-", options: { lazy: true } });
  if (version >= 4) await db.put("to_device_queue", { txnId: "old", eventType: "e", messages: [] } as never);
  db.close();
  g.indexedDB = previous;
}

describe("IndexedDB schema", () => {
  it("has the spec's four versions plus v5 (pending events), v6 (room list) and the object stores of the spec", () => {
    expect(SCHEMA_VERSION).toBe(6);
    expect(EXTENSION_STORES).toEqual(["pending_events", "room_list", "sync_chunks"]);
    expect(OBJECT_STORES).toEqual([
      "users",
      "accountData",
      "sync",
      "oob_membership_events",
      "client_options",
      "to_device_queue",
    ]);
  });

  for (const version of [1, 2, 3, 4]) {
    it(`opens a version ${version} database at version 6 without losing data`, async () => {
      const factory = new IDBFactory();
      await createAtVersion(factory, "migrate", version);
      const store = new IndexedDbStore({ indexedDB: factory, dbName: "migrate" });
      await store.open();
      expect(await store.getSync()).toEqual({ nextBatch: "s_old", roomsData: { join: {} } });
      expect(await store.getUsers()).toEqual([{ userId: "@old:x", displayName: "Old" }]);
      expect(await store.getAccountData()).toEqual([{ type: "m.direct", content: { "@b:x": ["!dm:x"] } }]);
      if (version >= 2) expect(await store.getOutOfBandMembers("!r:x")).toHaveLength(1);
      if (version >= 3) expect(await store.getClientOptions()).toEqual({ lazy: true });
      // The stores added by later versions work, and v4's queued to-device batch is still first.
      await store.queueToDevice([{ txnId: "t", eventType: "e", messages: [] }]);
      expect((await store.nextToDevice())?.txnId).toBe(version >= 4 ? "old" : "t");
      expect(await store.getPendingEvents()).toEqual([]);
      await store.putPendingEvent({
        txnId: "m1",
        roomId: "!r:x",
        seq: 1,
        kind: "event",
        eventType: "m.room.message",
        content: { body: "hi" },
        status: "queued",
        createdAt: 1,
      });
      expect((await store.getPendingEvents()).map((e) => e.txnId)).toEqual(["m1"]);
      expect(await store.getRoomListSummary()).toBeNull();
      store.setRoomListSummary([{ version: 2, part: 0, parts: 1, rooms: [] }]);
      await store.save(true);
      expect(await store.getRoomListSummary()).toEqual({ version: 2, part: 0, parts: 1, rooms: [] });
      await store.close();
    });
  }
});

describe("sync snapshot in chunks", () => {
  it("writes a large snapshot's rooms in chunk records and reads them back whole; a smaller one replaces them", async () => {
    const factory = new IDBFactory();
    const store = new IndexedDbStore({ indexedDB: factory, dbName: "chunks" });
    await store.open();
    const rooms = (n: number, tag: string) =>
      Array.from({ length: n }, (_, i) => ({ room_id: `!${tag}${i}:x`, state: [{ type: "m.room.name" }] }));
    const big = { version: 1, join: rooms(SYNC_CHUNK_ROOMS * 2 + 7, "j"), invite: rooms(3, "i"), knock: [] };
    store.setSync({ nextBatch: "s1", roomsData: big });
    await store.save(true);
    const reader = new IndexedDbStore({ indexedDB: factory, dbName: "chunks" });
    await reader.open();
    expect(await reader.getSync()).toEqual({ nextBatch: "s1", roomsData: big });
    const small = { version: 1, join: rooms(2, "k"), invite: [], knock: [] };
    store.setSync({ nextBatch: "s2", roomsData: small });
    await store.save(true);
    expect(await reader.getSync()).toEqual({ nextBatch: "s2", roomsData: small });
    await store.close();
    await reader.close();
  });
});

describe("incremental chunk saves", () => {
  it("rewrites only the chunks whose rooms changed; after another writer, or a smaller snapshot, it stays whole", async () => {
    const factory = new IDBFactory();
    const store = new IndexedDbStore({ indexedDB: factory, dbName: "incremental" });
    await store.open();
    // Frozen room records, as the accumulator keeps an unchanged room's stored form.
    const room = (id: string, name: string) =>
      Object.freeze({ room_id: id, state: Object.freeze([Object.freeze({ type: "m.room.name", name })]) });
    const rooms = Array.from({ length: SYNC_CHUNK_ROOMS * 4 }, (_, i) => room(`!r${i}:x`, "a"));
    const snapshot = (list: readonly unknown[]) =>
      Object.freeze({ version: 1, join: Object.freeze([...list]) });
    const puts: string[] = [];
    const original = IDBObjectStore.prototype.put as (...args: unknown[]) => unknown;
    function countingPut(this: { name: string }, ...args: unknown[]): unknown {
      if (this.name === "sync_chunks") puts.push((args[0] as { key: string }).key);
      return original.apply(this, args);
    }
    const counting = vi.spyOn(IDBObjectStore.prototype, "put").mockImplementation(countingPut);
    try {
      store.setSync({ nextBatch: "s1", roomsData: snapshot(rooms) });
      await store.save(true);
      expect(puts).toHaveLength(4);
      puts.length = 0;
      rooms[SYNC_CHUNK_ROOMS + 3] = room(`!r${SYNC_CHUNK_ROOMS + 3}:x`, "b");
      store.setSync({ nextBatch: "s2", roomsData: snapshot(rooms) });
      await store.save(true);
      expect(puts).toEqual(["join:1"]);
      const reader = new IndexedDbStore({ indexedDB: factory, dbName: "incremental" });
      await reader.open();
      expect(await reader.getSync()).toEqual({ nextBatch: "s2", roomsData: snapshot(rooms) });
      // Another instance (a second tab) writes: this one's next save rewrites every chunk.
      reader.setSync({ nextBatch: "t1", roomsData: snapshot(rooms.slice(0, SYNC_CHUNK_ROOMS * 2)) });
      await reader.save(true);
      puts.length = 0;
      store.setSync({ nextBatch: "s3", roomsData: snapshot(rooms) });
      await store.save(true);
      expect(puts).toHaveLength(4);
      // A smaller snapshot drops the chunks it no longer uses.
      puts.length = 0;
      store.setSync({ nextBatch: "s4", roomsData: snapshot(rooms.slice(0, SYNC_CHUNK_ROOMS * 2 + 1)) });
      await store.save(true);
      expect(puts).toEqual(["join:2"]);
      expect(await reader.getSync()).toEqual({
        nextBatch: "s4",
        roomsData: snapshot(rooms.slice(0, SYNC_CHUNK_ROOMS * 2 + 1)),
      });
      await reader.close();
    } finally {
      counting.mockRestore();
      await store.close();
    }
  });
});

describe("room list summary record", () => {
  it("is stored as one JSON string and read back as the object; an older object record and a corrupt one are handled", async () => {
    const factory = new IDBFactory();
    const store = new IndexedDbStore({ indexedDB: factory, dbName: "summary" });
    await store.open();
    const summary = {
      version: 2,
      part: 0,
      parts: 2,
      rooms: [{ roomId: "!a:x", name: { kind: "named", name: "A" } }],
      accountData: [],
    };
    const rest = { version: 2, part: 1, parts: 1, rooms: [{ roomId: "!b:x" }], accountData: [] };
    store.setRoomListSummary([summary, rest]);
    await store.save(true);
    const g = globalThis as { indexedDB?: object };
    const previous = g.indexedDB;
    g.indexedDB = factory;
    const raw = await openDB<LatticeDb>("summary");
    g.indexedDB = previous;
    expect(typeof (await raw.get("room_list", "-"))?.summary).toBe("string");
    expect(typeof (await raw.get("room_list", "-1"))?.summary).toBe("string");
    const reader = new IndexedDbStore({ indexedDB: factory, dbName: "summary" });
    await reader.open();
    expect(await reader.getRoomListSummary()).toEqual(summary);
    expect(await reader.getRoomListSummary(1)).toEqual(rest);
    // A record written before the string form (an object) still reads.
    await raw.put("room_list", { clobber: "-", summary: { version: 1, rooms: [] } });
    expect(await reader.getRoomListSummary()).toEqual({ version: 1, rooms: [] });
    // A corrupt string throws, so the summary cache falls back to the full load.
    await raw.put("room_list", { clobber: "-", summary: "{not json" });
    await expect(reader.getRoomListSummary()).rejects.toThrow();
    raw.close();
    await store.close();
    await reader.close();
  });
});

describe("save throttle", () => {
  it("saves at most every 300000 ms unless forced", async () => {
    let now = 1_000_000;
    const factory = new IDBFactory();
    const store = new IndexedDbStore({ indexedDB: factory, dbName: "throttle", now: () => now });
    await store.open();
    store.setSync({ nextBatch: "s1", roomsData: {} });
    expect(store.wantsSave()).toBe(false);
    await store.save();
    const peek = new IndexedDbStore({ indexedDB: factory, dbName: "throttle" });
    await peek.open();
    expect(await peek.getSync()).toBeNull();
    now += SAVE_INTERVAL_MS;
    expect(store.wantsSave()).toBe(true);
    await store.save();
    expect(await peek.getSync()).toEqual({ nextBatch: "s1", roomsData: {} });
    expect(store.wantsSave()).toBe(false);
    store.setSync({ nextBatch: "s2", roomsData: {} });
    await store.save(true);
    expect((await peek.getSync())?.nextBatch).toBe("s2");
  });
});

describe("degradation to memory", () => {
  it("logs a storage failure, keeps running in memory and loses nothing held in memory", async () => {
    const factory = new IDBFactory();
    const primary = new IndexedDbStore({ indexedDB: factory, dbName: "broken" });
    const warn = vi.fn();
    const store = new FallbackStore(primary, { warn });
    await store.open();
    store.setSync({ nextBatch: "s9", roomsData: { kept: true } });
    await store.queueToDevice([{ txnId: "q1", eventType: "e", messages: [] }]);
    // The browser drops the database under us.
    await primary.close();
    await store.save(true);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain("continuing in memory");
    expect(store.isDegraded).toBe(true);
    expect(store.kind).toBe("memory");
    expect(await store.getSync()).toEqual({ nextBatch: "s9", roomsData: { kept: true } });
    expect((await store.nextToDevice())?.txnId).toBe("q1");
    await store.storeClientOptions({ a: 1 });
    expect(await store.getClientOptions()).toEqual({ a: 1 });
  });

  it("degrades at open when no IndexedDB is usable", async () => {
    const warn = vi.fn();
    const unusable = {
      open: () => {
        throw new Error("IndexedDB is disabled");
      },
    };
    const store = new FallbackStore(new IndexedDbStore({ indexedDB: unusable, dbName: "none" }), { warn });
    await store.open();
    expect(store.isDegraded).toBe(true);
    store.setSync({ nextBatch: "s1", roomsData: {} });
    expect((await store.getSync())?.nextBatch).toBe("s1");
    expect(warn).toHaveBeenCalled();
  });

  it("a memory store never wants a save", () => {
    expect(new MemoryStore().wantsSave()).toBe(false);
  });
});
