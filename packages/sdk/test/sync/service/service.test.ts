/**
 * The SyncService facade: instant start from the stored snapshot (rooms
 * before the network answers, the next sync continues from the stored
 * token), stop() forcing a save (IndexedDB via fake-indexeddb), a start with
 * changed options discarding the cache, the lifecycle errors, page hide and
 * hidden pages saving, and capabilities.
 */
import "fake-indexeddb/auto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HttpApi } from "../../../src/http/types";
import { IndexedDbStore } from "../../../src/store/indexeddb/IndexedDbStore";
import { MemoryStore } from "../../../src/store/MemoryStore";
import type { Store } from "../../../src/store/Store";
import type { PlatformAdapter, PlatformHandlers } from "../../../src/sync/platform";
import { SyncService } from "../../../src/sync/SyncService";
import type { SyncServiceOptions } from "../../../src/sync/SyncService";
import {
  call,
  clientFor,
  fastScheduler,
  quietLogger,
  recording,
  RecordingProcessor,
  register,
  startServer,
  waitFor,
} from "./helpers";
import type { TestServerHandle, TestUser } from "./helpers";

let server: TestServerHandle;
let alice: TestUser;
let roomId: string;
const running: SyncService[] = [];
let dbCounter = 0;

beforeAll(async () => {
  server = await startServer(46);
  alice = await register(server, "alice");
  roomId = String((await call(server, alice, "POST", "/createRoom", { name: "Cached" }))["room_id"]);
});
afterEach(async () => {
  for (const svc of running.splice(0)) await svc.stop();
  server.faults.reset();
});
afterAll(async () => {
  await server.stop();
});

/** A MemoryStore that counts forced saves. */
class CountingStore extends MemoryStore {
  forcedSaves = 0;
  override save(force?: boolean): Promise<void> {
    if (force) this.forcedSaves += 1;
    return super.save();
  }
}

function make(
  store: Store,
  extra: Partial<SyncServiceOptions> = {},
  http: HttpApi = clientFor(server, alice),
) {
  let processor: RecordingProcessor | undefined;
  const svc = new SyncService({
    http,
    store,
    userId: alice.userId,
    processor: (s) => (processor = new RecordingProcessor(s)),
    pollTimeoutMs: 100,
    scheduler: fastScheduler(),
    logger: quietLogger(),
    ...extra,
  });
  running.push(svc);
  return { svc, processor: processor as unknown as RecordingProcessor };
}

function idbStore(name: string): IndexedDbStore {
  return new IndexedDbStore({
    indexedDB: (globalThis as unknown as { indexedDB: object }).indexedDB,
    dbName: name,
  });
}

/** Runs a service until it has processed a sync, then stops it (which saves). */
async function syncOnceAndStop(
  store: Store,
  extra: Partial<SyncServiceOptions> = {},
): Promise<RecordingProcessor> {
  const { svc, processor } = make(store, extra);
  await svc.start();
  await waitFor(() => processor.batches.length >= 1, 5_000, "first batch");
  await svc.stop();
  return processor;
}

describe("instant start", () => {
  it("shows stored rooms before the network answers and continues from the stored token", async () => {
    const name = `instant-${++dbCounter}`;
    const first = await syncOnceAndStop(idbStore(name));
    expect(first.rooms).toContain(roomId);
    const savedToken = first.batches.at(-1)?.response.next_batch;

    // A new run on a fresh store object over the same database; the server is slow to answer.
    server.faults.add({ path: "/sync", delayMs: 400 });
    const http = recording(clientFor(server, alice));
    const { svc, processor } = make(idbStore(name), {}, http);
    await svc.start();
    expect(processor.rooms).toContain(roomId);
    expect(processor.batches).toHaveLength(0);
    await waitFor(() => http.requests.some((r) => r.path === "/sync"));
    expect(http.requests.find((r) => r.path === "/sync")?.query?.["since"]).toBe(savedToken);
  });

  it("stop() forces a save, so a new store object reads the last processed token", async () => {
    const name = `save-${++dbCounter}`;
    const processor = await syncOnceAndStop(idbStore(name));
    const reopened = idbStore(name);
    await reopened.open();
    expect((await reopened.getSync())?.nextBatch).toBe(processor.batches.at(-1)?.response.next_batch);
    await reopened.close();
  });
});

describe("client options", () => {
  it("stores the options that affect the cache with the filter id", async () => {
    const store = new MemoryStore();
    await syncOnceAndStop(store, { initialSyncLimit: 12 });
    expect(await store.getClientOptions()).toMatchObject({
      userId: alice.userId,
      guest: false,
      lazyLoadMembers: true,
      initialSyncLimit: 12,
      filterId: expect.any(String) as unknown,
    });
  });

  it("discards the cache when a start has changed options, and syncs from scratch", async () => {
    const store = new MemoryStore();
    await syncOnceAndStop(store, { initialSyncLimit: 30 });
    const filterBefore = (await store.getClientOptions())?.["filterId"];
    await store.setOutOfBandMembers(roomId, [{ type: "m.room.member", state_key: "@x:y", content: {} }]);
    const http = recording(clientFor(server, alice));
    const { svc, processor } = make(store, { initialSyncLimit: 10 }, http);
    await svc.start();
    expect(processor.restoreCalls).toBe(1);
    expect(processor.rooms).toEqual([]);
    expect(await store.getOutOfBandMembers(roomId)).toBeNull();
    await waitFor(() => processor.batches.length >= 1);
    expect(http.requests.find((r) => r.path === "/sync")?.query).not.toHaveProperty("since");
    const after = await store.getClientOptions();
    expect(after?.["initialSyncLimit"]).toBe(10);
    expect(after?.["filterId"]).not.toBe(filterBefore);
  });

  it("keeps the queued to-device batches (messages still to send) when it discards the cache", async () => {
    const store = new MemoryStore();
    await syncOnceAndStop(store, { initialSyncLimit: 30 });
    await store.queueToDevice([
      {
        txnId: "t1",
        eventType: "m.room_key",
        messages: [{ userId: "@b:x", deviceId: "D1", payload: { a: 1 } }],
      },
      {
        txnId: "t2",
        eventType: "m.room_key",
        messages: [{ userId: "@c:x", deviceId: "D2", payload: { b: 2 } }],
      },
    ]);
    const { svc } = make(store, { initialSyncLimit: 20 });
    await svc.start();
    const first = await store.nextToDevice();
    expect(first?.txnId).toBe("t1");
    await store.removeToDevice(first?.id ?? -1);
    expect((await store.nextToDevice())?.messages[0]?.payload).toEqual({ b: 2 });
  });

  it("keeps the cache when the options are the same", async () => {
    const store = new MemoryStore();
    await syncOnceAndStop(store, { lazyLoadMembers: false });
    const { svc, processor } = make(store, { lazyLoadMembers: false });
    await svc.start();
    expect(processor.rooms).toContain(roomId);
  });

  it("discards a cached sync that has no stored options (unknown provenance)", async () => {
    const store = new MemoryStore();
    store.setSync({ nextBatch: "s_unknown", roomsData: { rooms: ["!old:x"] } });
    const { svc, processor } = make(store);
    await svc.start();
    expect(processor.rooms).not.toContain("!old:x");
  });
});

describe("lifecycle", () => {
  it("refuses to clear the store while running: 'Stores cannot be cleared while the client runs'", async () => {
    const store = new MemoryStore();
    const { svc } = make(store);
    await svc.start();
    await expect(svc.deleteAllData()).rejects.toThrow("Stores cannot be cleared while the client runs");
    expect(await store.getClientOptions()).not.toBeNull();
    await svc.stop();
    await svc.deleteAllData();
    expect(await store.getClientOptions()).toBeNull();
  });

  it("fails calls that need a running client with 'Client is not running', before start and after stop", async () => {
    const { svc } = make(new MemoryStore());
    await expect(svc.refreshCapabilities()).rejects.toThrow("Client is not running");
    await svc.start();
    await expect(svc.refreshCapabilities()).resolves.not.toBeNull();
    await svc.stop();
    await expect(svc.refreshCapabilities()).rejects.toThrow("Client is not running");
    await expect(svc.loadLeftRooms()).rejects.toThrow("Client is not running");
  });

  it("start() twice runs one loop; running is observable", async () => {
    const http = recording(clientFor(server, alice));
    const { svc } = make(new MemoryStore(), {}, http);
    const seen: boolean[] = [];
    svc.running.subscribe((r) => seen.push(r));
    await Promise.all([svc.start(), svc.start()]);
    await waitFor(() => svc.state.getSnapshot() === "syncing");
    await svc.stop();
    expect(seen).toEqual([true, false]);
    // One loop: the syncs are sequential, each continuing from the previous one's token.
    const sinces = http.requests.filter((r) => r.path === "/sync").map((r) => r.query?.["since"]);
    expect(sinces.filter((s) => s === undefined)).toHaveLength(1);
  });

  it("forces a save on page hide and when the page is hidden", async () => {
    let handlers: PlatformHandlers | undefined;
    const platform: PlatformAdapter = {
      subscribe: (h) => {
        handlers = h;
        return () => (handlers = undefined);
      },
    };
    const store = new CountingStore();
    const { svc } = make(store, { platform });
    await svc.start();
    expect(handlers).toBeDefined();
    handlers?.pageHide();
    handlers?.visible(false);
    await waitFor(() => store.forcedSaves >= 2);
    await svc.stop();
    expect(store.forcedSaves).toBe(3);
    expect(handlers).toBeUndefined();
  });
});

describe("capabilities", () => {
  it("are fetched at start and observable", async () => {
    const { svc } = make(new MemoryStore());
    await svc.start();
    await waitFor(() => svc.capabilities.getSnapshot() !== null);
    expect(svc.capabilities.getSnapshot()?.["m.change_password"]).toEqual({ enabled: true });
  });
});
