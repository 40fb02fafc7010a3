/**
 * No event lost or repeated in sliding sync: the server's M_UNKNOWN_POS
 * restarts the connection without pos (through fault injection inside a
 * running client, and for real when another sync of the same connection
 * made the server forget our pos), and a client restarted from IndexedDB
 * (fake-indexeddb) continues from the stored pos across 50 batches.
 */
import "fake-indexeddb/auto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { IndexedDbStore } from "../../../src/store/indexeddb/IndexedDbStore";
import { SlidingSyncTransport } from "../../../src/sync/sliding/SlidingSyncTransport";
import { decodeSlidingToken } from "../../../src/sync/sliding/token";
import { clientFor, quietLogger } from "../service/helpers";
import { createRoom, register, sendText, SLIDING_PATH, startServer, syncClient, waitFor } from "./helpers";
import type { SyncClient, TestServerHandle, TestUser } from "./helpers";

let server: TestServerHandle;
let alice: TestUser;
let roomId: string;
let client: SyncClient | undefined;

beforeAll(async () => {
  server = await startServer(4188);
  alice = await register(server, "alice");
  roomId = await createRoom(server, alice, { name: "Continuity" });
});
afterEach(async () => {
  await client?.svc.stop();
  client = undefined;
  server.faults.reset();
});
afterAll(async () => {
  await server.stop();
});

function idb(dbName: string): IndexedDbStore {
  return new IndexedDbStore({
    indexedDB: (globalThis as unknown as { indexedDB: object }).indexedDB,
    dbName,
  });
}

/** Sends messages one at a time, each seen by the client before the next. */
async function sendSeen(c: SyncClient, sent: string[], label: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const id = await sendText(server, alice, roomId, `${label} ${i}`);
    sent.push(id);
    await waitFor(() => c.liveIds(roomId).includes(id), 5_000, `event ${label} ${i}`);
  }
}

describe("M_UNKNOWN_POS", () => {
  it("restarts without pos inside the running client, losing and repeating no event", async () => {
    const c = syncClient(server, alice, { mode: "sliding" });
    client = c;
    await c.svc.start();
    await waitFor(() => c.rooms.find(roomId) !== undefined, 5_000, "the room");
    const sent: string[] = [];
    await sendSeen(c, sent, "before", 3);
    const seenBefore = c.liveIds(roomId).length;

    server.faults.add({ path: SLIDING_PATH, status: 400, errcode: "M_UNKNOWN_POS", times: 1 });
    for (let i = 0; i < 3; i++) sent.push(await sendText(server, alice, roomId, `during ${i}`));
    await waitFor(() => server.faults.hits.length === 1, 5_000, "the unknown pos answer");
    await sendSeen(c, sent, "after", 2);

    expect(c.logger.lines).toContain(
      "Sliding sync: the server no longer knows our position; starting again without it",
    );
    // The retry went out without pos, right after the refused request with one.
    const slidingQueries = c.http.requests.filter((r) => r.path === "/sync").map((r) => r.query ?? {});
    const refused = slidingQueries.findIndex(
      (q, i) => i > 0 && "pos" in q && !("pos" in (slidingQueries[i + 1] ?? { pos: 1 })),
    );
    expect(refused).toBeGreaterThan(0);
    // Every event exactly once, in order, in the batches and in the room model.
    const live = c.liveIds(roomId);
    expect(live.slice(seenBefore - 3).filter((id) => sent.includes(id))).toEqual(sent);
    expect(new Set(live).size).toBe(live.length);
    const recent = c.rooms.get(roomId).recentEvents.map((e) => e.event_id);
    expect(recent.slice(-sent.length)).toEqual(sent);
    expect(c.svc.state.getSnapshot()).toBe("syncing");
  });

  it("restarts for real when the server forgot the pos (another sync started the connection afresh)", async () => {
    const logger = quietLogger();
    const first = new SlidingSyncTransport({ http: clientFor(server, alice), logger });
    const other = new SlidingSyncTransport({ http: clientFor(server, alice), logger: quietLogger() });
    const request = { timeout: 0, requestTimeoutMs: 5_000, signal: new AbortController().signal };
    const initial = await first.sync(request);
    expect(Object.keys(initial.rooms?.join ?? {})).toContain(roomId);
    // The stream moves on, so the other connection start gets a pos of its own.
    await sendText(server, alice, roomId, "moves the stream");
    await other.sync(request);
    const again = await first.sync({ ...request, since: initial.next_batch });
    expect(logger.lines).toContain(
      "Sliding sync: the server no longer knows our position; starting again without it",
    );
    // Started afresh: the room is sent whole again, under a new pos.
    expect(Object.keys(again.rooms?.join ?? {})).toContain(roomId);
    expect(again.rooms?.join?.[roomId]?.state?.events?.some((e) => e.type === "m.room.create")).toBe(true);
    expect(decodeSlidingToken(again.next_batch)?.pos).not.toBe(decodeSlidingToken(initial.next_batch)?.pos);
  });
});

describe("reload from IndexedDB", () => {
  it("continues from the stored pos: no event missing or repeated across 50 batches and 5 restarts", async () => {
    const dbName = "sliding-reload";
    const sent: string[] = [];
    const seen: string[] = [];
    let batches = 0;
    let stored: { pos: string } | undefined;
    for (let round = 0; round < 5; round++) {
      const store = idb(dbName);
      const c = syncClient(server, alice, { mode: "sliding", store });
      client = c;
      await c.svc.start();
      await waitFor(() => c.rooms.find(roomId) !== undefined, 5_000, "the room");
      await sendSeen(c, sent, `round ${round}`, 10);
      await c.svc.stop();
      client = undefined;
      const previous = stored;
      stored = decodeSlidingToken((await store.getSync())?.nextBatch);
      expect(stored?.pos).toEqual(expect.any(String));
      const first = c.http.requests.find((r) => r.path === "/sync");
      if (round > 0) expect(first?.query?.["pos"]).toBe(previous?.pos);
      const live = c.batches.filter((b) => !b.fromCache);
      batches += live.length;
      seen.push(...c.liveIds(roomId).filter((id) => sent.includes(id)));
    }
    expect(batches).toBeGreaterThanOrEqual(50);
    expect(seen).toEqual(sent);
  });
});
