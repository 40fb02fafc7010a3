/**
 * The heap check behind memory.test.ts, run in a child process with
 * --expose-gc: a client (createClient, MemoryStore) syncs the bench/sync
 * fixture from the bench's loopback server (the initial sync and every
 * incremental batch) into the room model with a room list over it, then
 * opens 100 rooms' timelines, scrolls each back one page of 30 events over
 * HTTP (/messages) and closes them. Prints JSON: the heap after syncing,
 * while the timelines are held, and after they are closed (each after full
 * GCs), with counts that show the work was done.
 *
 * Arguments: the server's URL, the user id, the last batch token, the number
 * of rooms to open.
 */
import { createClient } from "../../../src/client";
import { RoomListService } from "../../../src/models/room-list/RoomListService";
import { batchSourceOf } from "../../../src/models/room/Rooms";
import type { TimelineWindow } from "../../../src/models/timeline/TimelineWindow";
import { MemoryStore } from "../../../src/store/MemoryStore";

const [url = "", userId = "", finalToken = "", openedArg = "100"] = process.argv.slice(2);
const OPENED = Number(openedArg);

async function heap(): Promise<number> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error("run with --expose-gc");
  // Two full collections (the second frees what finalizers of the first let go); each costs about a second here.
  for (let i = 0; i < 2; i++) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  const client = createClient({
    baseUrl: url,
    accessToken: "bench-token",
    userId,
    store: new MemoryStore(),
    logger: { info: () => undefined, warn: () => undefined, error: console.error },
  });
  const list = new RoomListService(client.rooms);
  const synced = new Promise<void>((resolve) => {
    batchSourceOf(client.sync.processor).subscribe((batch) => {
      if (batch.nextBatch === finalToken) resolve();
    });
  });
  await client.start();
  await synced;
  // Nothing more arrives; stopping keeps the long-poll's small garbage out of the figures.
  await client.stop();

  const picked = list.items
    .getSnapshot()
    .filter((room) => room.category === "join")
    .slice(0, OPENED)
    .map((room) => room.roomId);
  const open = async (roomId: string): Promise<TimelineWindow> => {
    const window = client.rooms.get(roomId).openTimeline();
    await window.load();
    await window.paginate("b", 30);
    return window;
  };
  // Warm up once so lazily built code and caches do not count as a leak.
  (await open(picked[0] ?? "")).close();

  const before = await heap();
  const windows: TimelineWindow[] = [];
  for (const id of picked) windows.push(await open(id));
  const held = await heap();
  const heldEvents = windows.reduce((n, w) => n + w.size, 0);
  for (const w of windows.splice(0)) w.close();
  const materialised = picked.filter((id) => client.rooms.get(id).timelineMaterialised).length;
  const after = await heap();
  process.stdout.write(
    JSON.stringify({
      rooms: client.rooms.all.getSnapshot().size,
      listed: list.items.getSnapshot().length,
      opened: picked.length,
      before,
      held,
      after,
      heldEvents,
      materialised,
    }),
  );
  await client.dispose();
  list.dispose();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
