/**
 * The SyncService with the real SyncProcessor over the test homeserver and
 * IndexedDB (fake-indexeddb): instant start shows rooms and their latest
 * events before the network answers, the next sync continues from the
 * stored token, and across restarts no event is missing or repeated.
 */
import "fake-indexeddb/auto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IndexedDbStore } from "../../../src/store/indexeddb/IndexedDbStore";
import { SyncProcessor } from "../../../src/sync/processor/SyncProcessor";
import type { ProcessedSync } from "../../../src/sync/processor/types";
import { SyncService } from "../../../src/sync/SyncService";
import {
  call,
  clientFor,
  fastScheduler,
  quietLogger,
  recording,
  register,
  sendText,
  startServer,
  waitFor,
} from "./helpers";
import type { TestServerHandle, TestUser } from "./helpers";

let server: TestServerHandle;
let alice: TestUser;
let roomId: string;

beforeAll(async () => {
  server = await startServer(48);
  alice = await register(server, "alice");
  roomId = String((await call(server, alice, "POST", "/createRoom", { name: "Real" }))["room_id"]);
});
afterAll(async () => {
  await server.stop();
});

function run(dbName: string) {
  const store = new IndexedDbStore({
    indexedDB: (globalThis as unknown as { indexedDB: object }).indexedDB,
    dbName,
  });
  const batches: ProcessedSync[] = [];
  const http = recording(clientFor(server, alice));
  const svc = new SyncService({
    http,
    store,
    userId: alice.userId,
    processor: (s) => {
      const processor = new SyncProcessor({ store: s, logger: quietLogger() });
      processor.subscribe((batch) => {
        batches.push(batch);
      });
      return processor;
    },
    pollTimeoutMs: 100,
    scheduler: fastScheduler(),
    logger: quietLogger(),
  });
  const liveIds = (): string[] =>
    batches
      .filter((b) => !b.fromCache)
      .flatMap((b) => b.rooms.join.get(roomId)?.timeline.events.map((e) => e.event_id) ?? []);
  return { svc, batches, http, liveIds };
}

describe("SyncService with the real SyncProcessor", () => {
  it("starts instantly from IndexedDB and loses or repeats no event across restarts", async () => {
    const sent: string[] = [];
    const seen: string[] = [];
    const db = "real-processor";
    for (let round = 0; round < 3; round++) {
      const { svc, batches, http, liveIds } = run(db);
      if (round > 0) server.faults.add({ path: "/sync", delayMs: 300, times: 1 });
      await svc.start();
      if (round > 0) {
        // Before any network answer: the cached room with its latest event is there.
        const cached = batches.find((b) => b.fromCache);
        expect(batches.filter((b) => !b.fromCache)).toHaveLength(0);
        const events = cached?.rooms.join.get(roomId)?.timeline.events ?? [];
        expect(events.at(-1)?.event_id).toBe(sent.at(-1));
      }
      for (let i = 0; i < 3; i++) sent.push(await sendText(server, alice, roomId, `round ${round} #${i}`));
      await waitFor(() => sent.every((id) => seen.includes(id) || liveIds().includes(id)), 5_000, "events");
      await svc.stop();
      const first = http.requests.find((r) => r.path === "/sync");
      if (round > 0) expect(first?.query?.["since"]).toEqual(expect.any(String));
      seen.push(...liveIds().filter((id) => sent.includes(id)));
    }
    expect(seen).toEqual(sent);
  });
});
