/**
 * Reload tests over fake-indexeddb: start, sync, stop, restart from
 * IndexedDB. The restored snapshot is emitted before the network answers,
 * with every room and its latest events; across 200 incremental batches with
 * restarts at seeded random points, no event is missing and none is emitted
 * twice (a crash re-emits only what came after its last save).
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { IndexedDbStore } from "../../../src/store/indexeddb/IndexedDbStore";
import { SyncLoop } from "../../../src/sync/SyncLoop";
import { SyncProcessor } from "../../../src/sync/processor/SyncProcessor";
import { recordingLogger } from "../processor/fixtures";
import { ScriptedServer, ScriptedTransport, seededRandom } from "./scripted-server";

interface RunResult {
  restoredToken: string | undefined;
  /** Rooms and their timeline ids in the restored batch, and how many requests had gone out by then. */
  restored: { rooms: Map<string, string[]>; requestsBefore: number } | undefined;
  live: string[];
  endToken: string | undefined;
}

let dbCounter = 0;

/** One client run: open the store, restore, sync `budget` answers, then stop gracefully or crash. */
async function run(
  dbName: string,
  server: ScriptedServer,
  budget: number,
  clock: { now: number },
  ending: "stop" | "crash",
): Promise<RunResult> {
  const store = new IndexedDbStore({
    indexedDB: (globalThis as unknown as { indexedDB: object }).indexedDB,
    dbName,
    now: () => clock.now,
  });
  await store.open();
  const logger = recordingLogger();
  const processor = new SyncProcessor({ store, logger });
  const transport = new ScriptedTransport(server, budget);
  const result: RunResult = { restoredToken: undefined, restored: undefined, live: [], endToken: undefined };
  processor.subscribe((batch) => {
    const rooms = new Map<string, string[]>();
    for (const [roomId, room] of batch.rooms.join)
      rooms.set(
        roomId,
        room.timeline.events.map((e) => e.event_id),
      );
    if (batch.fromCache) {
      result.restored = { rooms, requestsBefore: transport.requests.length };
    } else {
      for (const ids of rooms.values()) result.live.push(...ids);
      clock.now += 100_000; // three batches make the 300 000 ms save interval
    }
  });
  result.restoredToken = await processor.restore();
  const loop = new SyncLoop({
    transport,
    handler: processor.handle,
    logger,
    ...(result.restoredToken !== undefined ? { since: result.restoredToken } : {}),
  });
  loop.start();
  await transport.drained;
  await loop.stop();
  if (ending === "stop") await processor.stop();
  result.endToken = processor.nextBatch;
  await store.close();
  return result;
}

/** What the server had sent of each room up to and including batch `position`. */
function roomsUpTo(server: ScriptedServer, position: number): Map<string, string[]> {
  const rooms = new Map<string, string[]>();
  for (const batch of server.batches.slice(0, position + 1)) {
    for (const e of batch) rooms.set(e.roomId, [...(rooms.get(e.roomId) ?? []), e.eventId]);
  }
  return rooms;
}

describe("reload from IndexedDB", () => {
  it("shows the rooms and their latest events before the network answers, and continues from the stored token", async () => {
    const dbName = `reload-${dbCounter++}`;
    const server = new ScriptedServer(1, 10);
    const clock = { now: 0 };
    await run(dbName, server, 6, clock, "stop");
    const second = await run(dbName, server, 10, clock, "stop");
    expect(second.restoredToken).toBe("s5");
    expect(second.restored?.requestsBefore).toBe(0);
    const expected = roomsUpTo(server, 5);
    expect([...(second.restored?.rooms.keys() ?? [])].sort()).toEqual([...expected.keys()].sort());
    for (const [roomId, ids] of expected) expect(second.restored?.rooms.get(roomId)).toEqual(ids);
    // The next sync continued from the stored token; the resent event was not emitted again.
    expect(second.live).toEqual(server.batches.slice(6).flatMap((b) => b.map((e) => e.eventId)));
  });

  it("across 200 batches with graceful restarts at random points, emits every event exactly once", async () => {
    const dbName = `reload-${dbCounter++}`;
    const server = new ScriptedServer(42, 200);
    const random = seededRandom(7);
    const clock = { now: 0 };
    const counts = new Map<string, number>();
    let runs = 0;
    for (;;) {
      const result = await run(dbName, server, 1 + Math.floor(random() * 25), clock, "stop");
      runs += 1;
      const inRun = [...(result.restored?.rooms.values() ?? [])].flat().concat(result.live);
      expect(new Set(inRun).size).toBe(inRun.length);
      for (const id of result.live) counts.set(id, (counts.get(id) ?? 0) + 1);
      if (result.endToken === "s199") break;
    }
    expect(runs).toBeGreaterThan(5);
    expect([...counts.keys()].sort()).toEqual(server.allEventIds().sort());
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
  }, 60_000);

  it("across 200 batches with crashes at random points, loses nothing and re-emits only what came after the last save", async () => {
    const dbName = `reload-${dbCounter++}`;
    const server = new ScriptedServer(99, 200);
    const random = seededRandom(3);
    const clock = { now: 0 };
    const emittedIn = new Map<string, number[]>();
    const endings: Array<"stop" | "crash"> = [];
    const restoredPositions: number[] = [];
    const batchOf = new Map<string, number>();
    server.batches.forEach((b, k) => b.forEach((e) => batchOf.set(e.eventId, k)));
    for (let r = 0; ; r++) {
      const ending = random() < 0.5 ? "crash" : "stop";
      const result = await run(dbName, server, 3 + Math.floor(random() * 25), clock, ending);
      endings.push(ending);
      restoredPositions.push(ScriptedServer.position(result.restoredToken));
      const inRun = [...(result.restored?.rooms.values() ?? [])].flat().concat(result.live);
      expect(new Set(inRun).size).toBe(inRun.length);
      if (result.restored) {
        // Every restored room ends with the latest event the server had sent up to the restored token.
        for (const [roomId, ids] of roomsUpTo(server, ScriptedServer.position(result.restoredToken))) {
          expect(result.restored.rooms.get(roomId)?.at(-1)).toBe(ids.at(-1));
        }
      }
      for (const id of result.live) emittedIn.set(id, [...(emittedIn.get(id) ?? []), r]);
      if (result.endToken === "s199" && ending === "stop") break;
    }
    expect(endings).toContain("crash");
    expect([...emittedIn.keys()].sort()).toEqual(server.allEventIds().sort());
    for (const [id, runsOfId] of emittedIn) {
      for (const r of runsOfId.slice(0, -1)) {
        // Emitted again later: run r must have crashed before saving past this event.
        expect(endings[r]).toBe("crash");
        expect(batchOf.get(id) as number).toBeGreaterThan(restoredPositions[r + 1] as number);
      }
    }
  }, 60_000);
});
