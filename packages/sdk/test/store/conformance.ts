/**
 * The Store conformance suite: every backend runs these same tests, so they
 * are interchangeable. `reopen` (for persistent backends) closes the store
 * and opens a new instance on the same data, proving what was saved.
 */
import { describe, expect, it } from "vitest";
import type { Store } from "../../src/store";

export interface StoreUnderTest {
  store: Store;
  /** Closes and reopens on the same data; undefined for memory-only backends. */
  reopen?: () => Promise<Store>;
}

export function runStoreConformance(name: string, make: () => Promise<StoreUnderTest>): void {
  describe(`Store conformance: ${name}`, () => {
    it("starts empty", async () => {
      const { store } = await make();
      expect(await store.getSync()).toBeNull();
      expect(await store.getAccountData()).toEqual([]);
      expect(await store.getUsers()).toEqual([]);
      expect(await store.getOutOfBandMembers("!r:x")).toBeNull();
      expect(await store.getClientOptions()).toBeNull();
      expect(await store.nextToDevice()).toBeNull();
      expect(await store.getPendingEvents()).toEqual([]);
      expect(await store.getRoomListSummary()).toBeNull();
    });

    it("keeps the room list summary's parts staged at once and saved with the snapshot", async () => {
      const { store, reopen } = await make();
      const first = { version: 2, part: 0, parts: 3, rooms: [{ roomId: "!a:x" }] };
      const second = { version: 2, part: 1, rooms: [{ roomId: "!b:x" }] };
      const third = { version: 2, part: 2, rooms: [{ roomId: "!c:x" }] };
      store.setRoomListSummary([first, second, third]);
      expect(await store.getRoomListSummary()).toEqual(first);
      expect(await store.getRoomListSummary(2)).toEqual(third);
      store.setSync({ nextBatch: "s1", roomsData: {} });
      await store.save(true);
      let again = reopen ? await reopen() : store;
      expect(await again.getRoomListSummary(0)).toEqual(first);
      expect(await again.getRoomListSummary(1)).toEqual(second);
      expect(await again.getRoomListSummary(2)).toEqual(third);
      expect((await again.getSync())?.nextBatch).toBe("s1");
      // A shorter summary replaces every part: none of the longer one's stays behind.
      again.setRoomListSummary([{ ...first, parts: 1 }]);
      await again.save(true);
      again = reopen ? await reopen() : again;
      expect(await again.getRoomListSummary()).toEqual({ ...first, parts: 1 });
      expect(await again.getRoomListSummary(1)).toBeNull();
      expect(await again.getRoomListSummary(2)).toBeNull();
    });

    it("returns staged sync data at once and keeps it after a forced save", async () => {
      const { store, reopen } = await make();
      const sync = { nextBatch: "s42", roomsData: { join: { "!a:x": { timeline: [{ event_id: "$1" }] } } } };
      store.setSync(sync);
      expect(await store.getSync()).toEqual(sync);
      await store.save(true);
      const again = reopen ? await reopen() : store;
      expect(await again.getSync()).toEqual(sync);
    });

    it("does not let callers mutate stored values", async () => {
      const { store } = await make();
      const sync = { nextBatch: "s1", roomsData: { n: 1 } };
      store.setSync(sync);
      sync.roomsData.n = 2;
      const read = await store.getSync();
      expect(read?.roomsData).toEqual({ n: 1 });
    });

    it("keeps the latest account data event per type", async () => {
      const { store, reopen } = await make();
      store.setAccountData([{ type: "m.direct", content: { a: 1 } }]);
      store.setAccountData([
        { type: "m.direct", content: { a: 2 } },
        { type: "__proto__", content: {} },
      ]);
      await store.save(true);
      const again = reopen ? await reopen() : store;
      const events = await again.getAccountData();
      expect(events).toHaveLength(2);
      expect(events.find((e) => e["type"] === "m.direct")).toEqual({ type: "m.direct", content: { a: 2 } });
      expect(events.some((e) => e["type"] === "__proto__")).toBe(true);
    });

    it("stores users by id", async () => {
      const { store, reopen } = await make();
      store.setUsers([{ userId: "@a:x", displayName: "A" }]);
      store.setUsers([{ userId: "@a:x", displayName: "A2" }, { userId: "@constructor:x" }]);
      await store.save(true);
      const again = reopen ? await reopen() : store;
      const users = await again.getUsers();
      expect(users.find((u) => u.userId === "@a:x")?.displayName).toBe("A2");
      expect(users).toHaveLength(2);
    });

    it("tells out-of-band members never loaded from loaded and empty, and clears them", async () => {
      const { store, reopen } = await make();
      expect(await store.getOutOfBandMembers("__proto__")).toBeNull();
      await store.setOutOfBandMembers("__proto__", []);
      expect(await store.getOutOfBandMembers("__proto__")).toEqual([]);
      const member = { type: "m.room.member", state_key: "@b:x", content: { membership: "join" } };
      await store.setOutOfBandMembers("!r:x", [member]);
      const again = reopen ? await reopen() : store;
      const members = await again.getOutOfBandMembers("!r:x");
      expect(members).toHaveLength(1);
      expect(members?.[0]).toMatchObject(member);
      await again.clearOutOfBandMembers("!r:x");
      expect(await again.getOutOfBandMembers("!r:x")).toBeNull();
      expect(await again.getOutOfBandMembers("__proto__")).toEqual([]);
    });

    it("stores client options", async () => {
      const { store, reopen } = await make();
      await store.storeClientOptions({ lazyLoadMembers: true, initialSyncLimit: 30 });
      const again = reopen ? await reopen() : store;
      expect(await again.getClientOptions()).toEqual({ lazyLoadMembers: true, initialSyncLimit: 30 });
    });

    it("keeps the to-device queue in order until each batch is removed", async () => {
      const { store, reopen } = await make();
      const batch = (txnId: string) => ({
        txnId,
        eventType: "m.room_key_request",
        messages: [{ userId: "@b:x", deviceId: "D", payload: { n: txnId } }],
      });
      const added = await store.queueToDevice([batch("t1"), batch("t2")]);
      expect(added.map((b) => b.txnId)).toEqual(["t1", "t2"]);
      expect(new Set(added.map((b) => b.id)).size).toBe(2);
      const again = reopen ? await reopen() : store;
      const first = await again.nextToDevice();
      expect(first?.txnId).toBe("t1");
      await again.removeToDevice(first!.id!);
      expect((await again.nextToDevice())?.txnId).toBe("t2");
      await again.removeToDevice(added[1]!.id!);
      expect(await again.nextToDevice()).toBeNull();
    });

    it("keeps pending events by txn id, in queue order, until removed", async () => {
      const { store, reopen } = await make();
      const pending = (txnId: string, seq: number, status = "queued") => ({
        txnId,
        roomId: "!r:x",
        seq,
        kind: "event" as const,
        eventType: "m.room.message",
        content: { msgtype: "m.text", body: txnId },
        status,
        createdAt: 1000 + seq,
      });
      await store.putPendingEvent(pending("__proto__", 2));
      await store.putPendingEvent(pending("m1.0", 1));
      await store.putPendingEvent(pending("m3.0", 3));
      // A put with the same txn id replaces the record (a status change), it does not add one.
      await store.putPendingEvent({
        ...pending("m1.0", 1, "not_sent"),
        failure: { kind: "forbidden", message: "no" },
      });
      const again = reopen ? await reopen() : store;
      const events = await again.getPendingEvents();
      expect(events.map((e) => e.txnId)).toEqual(["m1.0", "__proto__", "m3.0"]);
      expect(events[0]).toEqual({
        ...pending("m1.0", 1, "not_sent"),
        failure: { kind: "forbidden", message: "no" },
      });
      await again.removePendingEvent("__proto__");
      await again.removePendingEvent("unknown");
      expect((await again.getPendingEvents()).map((e) => e.txnId)).toEqual(["m1.0", "m3.0"]);
    });

    it("deletes all data", async () => {
      const { store } = await make();
      store.setSync({ nextBatch: "s1", roomsData: {} });
      store.setAccountData([{ type: "t", content: {} }]);
      store.setRoomListSummary([
        { version: 2, part: 0, parts: 2, rooms: [] },
        { version: 2, part: 1, rooms: [] },
      ]);
      await store.save(true);
      await store.storeClientOptions({ a: 1 });
      await store.setOutOfBandMembers("!r:x", []);
      await store.queueToDevice([{ txnId: "t", eventType: "e", messages: [] }]);
      await store.putPendingEvent({
        txnId: "m1",
        roomId: "!r:x",
        seq: 1,
        kind: "event",
        eventType: "m.room.message",
        content: {},
        status: "queued",
        createdAt: 1,
      });
      await store.deleteAllData();
      expect(await store.getPendingEvents()).toEqual([]);
      expect(await store.getSync()).toBeNull();
      expect(await store.getRoomListSummary()).toBeNull();
      expect(await store.getRoomListSummary(1)).toBeNull();
      expect(await store.getAccountData()).toEqual([]);
      expect(await store.getClientOptions()).toBeNull();
      expect(await store.getOutOfBandMembers("!r:x")).toBeNull();
      expect(await store.nextToDevice()).toBeNull();
    });
  });
}
