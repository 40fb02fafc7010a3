/**
 * A full disk during sync, end to end: the SyncService over the test
 * homeserver with IndexedDB (fake-indexeddb) whose saves fail with
 * QuotaExceededError. The service puts the store behind the degrading
 * wrapper, so sync goes on in memory: the failure is published as kind
 * "store" (never "reconnecting"), and a message sent after the failure
 * still arrives.
 */
import "fake-indexeddb/auto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IndexedDbStore } from "../../../src/store/indexeddb/IndexedDbStore";
import { SyncProcessor } from "../../../src/sync/processor/SyncProcessor";
import type { ProcessedSync } from "../../../src/sync/processor/types";
import type { SyncFailure } from "../../../src/sync/errors";
import type { SyncState } from "../../../src/sync/SyncLoop";
import { SyncService } from "../../../src/sync/SyncService";
import { call, clientFor, fastScheduler, quietLogger, register, sendText, startServer } from "./helpers";
import type { TestServerHandle, TestUser } from "./helpers";

/** IndexedDB that opens and reads, but whose every save fails as a full disk does. */
class FullDiskStore extends IndexedDbStore {
  failedSaves = 0;
  override save(): Promise<void> {
    this.failedSaves += 1;
    return Promise.reject(
      Object.assign(new Error("The quota has been exceeded."), { name: "QuotaExceededError" }),
    );
  }
}

let server: TestServerHandle;
let alice: TestUser;
let roomId: string;

beforeAll(async () => {
  server = await startServer(61);
  alice = await register(server, "alice");
  roomId = String((await call(server, alice, "POST", "/createRoom", { name: "Full disk" }))["room_id"]);
});
afterAll(async () => {
  await server.stop();
});

/** Resolves with the first value the observable takes that passes `test`. */
function until<T>(
  observable: { subscribe(fn: (v: T) => void): () => void },
  test: (v: T) => boolean,
): Promise<T> {
  return new Promise((resolve) => {
    let done = false;
    const end = observable.subscribe((v) => {
      if (done || !test(v)) return;
      done = true;
      queueMicrotask(() => end());
      resolve(v);
    });
  });
}

describe("SyncService when the store cannot write", () => {
  it("publishes a store failure, never reconnecting, and keeps syncing in memory", async () => {
    const store = new FullDiskStore({
      indexedDB: (globalThis as unknown as { indexedDB: object }).indexedDB,
      dbName: "full-disk",
    });
    const events: string[] = [];
    let arrived: (eventId: string) => void = () => undefined;
    const states: Array<SyncState | null> = [];
    const failures: Array<SyncFailure | null> = [];
    const svc = new SyncService({
      http: clientFor(server, alice),
      store,
      userId: alice.userId,
      processor: (s) => {
        const processor = new SyncProcessor({ store: s, logger: quietLogger() });
        processor.subscribe((batch: ProcessedSync) => {
          for (const e of batch.rooms.join.get(roomId)?.timeline.events ?? []) {
            events.push(e.event_id);
            arrived(e.event_id);
          }
        });
        return processor;
      },
      pollTimeoutMs: 100,
      scheduler: fastScheduler(),
      logger: quietLogger(),
    });
    svc.state.subscribe((s) => states.push(s));
    svc.failure.subscribe((f) => failures.push(f));
    await svc.start();

    const failure = await until(svc.failure, (f) => f !== null);
    expect(failure).toMatchObject({
      kind: "store",
      message: "Saving on this device failed; continuing in memory",
      permanent: false,
    });
    expect(store.failedSaves).toBeGreaterThan(0);
    expect(svc.store.kind).toBe("memory");

    // Sync goes on: a message sent now arrives through the in-memory store.
    const eventId = await sendText(server, alice, roomId, "after the disk filled up");
    await new Promise<void>((resolve) => {
      arrived = (id) => {
        if (id === eventId) resolve();
      };
      if (events.includes(eventId)) resolve();
    });
    expect(events).toContain(eventId);
    expect(states).not.toContain("reconnecting");
    expect(states).not.toContain("error");
    expect(failures.filter((f) => f !== null).every((f) => f?.kind === "store")).toBe(true);
    await svc.stop();
  });
});
