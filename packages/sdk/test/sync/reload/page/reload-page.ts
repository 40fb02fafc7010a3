/**
 * The page of the Chromium reload test: runs the processor behind a real
 * SyncLoop against the in-page scripted server, persisting to the browser's
 * real IndexedDB. `window.runClient` restores, syncs a number of answers,
 * saves and reports what was emitted, so the test can reload the page and
 * check the restored rooms.
 */
import { IndexedDbStore } from "../../../../src/store/indexeddb/IndexedDbStore";
import { SyncLoop } from "../../../../src/sync/SyncLoop";
import { SyncProcessor } from "../../../../src/sync/processor/SyncProcessor";
import { ScriptedServer, ScriptedTransport } from "../scripted-server";

export interface RunReport {
  restoredToken: string | null;
  /** Room id -> timeline event ids of the restored batch (before any request). */
  restored: Record<string, string[]> | null;
  requestsBeforeRestore: number;
  live: string[];
  endToken: string | null;
  storeKind: string;
}

const server = new ScriptedServer(5, 40);

async function runClient(budget: number): Promise<RunReport> {
  const indexedDB = (globalThis as unknown as { indexedDB: object }).indexedDB;
  const store = new IndexedDbStore({ indexedDB, dbName: "lattice-reload-test" });
  await store.open();
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const processor = new SyncProcessor({ store, logger: quiet });
  const transport = new ScriptedTransport(server, budget);
  const report: RunReport = {
    restoredToken: null,
    restored: null,
    requestsBeforeRestore: -1,
    live: [],
    endToken: null,
    storeKind: store.kind,
  };
  processor.subscribe((batch) => {
    if (batch.fromCache) {
      report.requestsBeforeRestore = transport.requests.length;
      report.restored = {};
      for (const [roomId, room] of batch.rooms.join) {
        report.restored[roomId] = room.timeline.events.map((e) => e.event_id);
      }
    } else {
      for (const room of batch.rooms.join.values())
        report.live.push(...room.timeline.events.map((e) => e.event_id));
    }
  });
  report.restoredToken = (await processor.restore()) ?? null;
  const loop = new SyncLoop({
    transport,
    handler: processor.handle,
    logger: quiet,
    ...(report.restoredToken !== null ? { since: report.restoredToken } : {}),
  });
  loop.start();
  await transport.drained;
  await loop.stop();
  await processor.stop();
  report.endToken = processor.nextBatch ?? null;
  await store.close();
  return report;
}

/** Events the scripted server sent per room, up to batch `position`. */
function expectedRooms(position: number): Record<string, string[]> {
  const rooms: Record<string, string[]> = {};
  for (const batch of server.batches.slice(0, position + 1)) {
    for (const e of batch) (rooms[e.roomId] ??= []).push(e.eventId);
  }
  return rooms;
}

Object.assign(globalThis, { runClient, expectedRooms, allEventIds: () => server.allEventIds() });
