/**
 * The Lattice side of the sync benchmark (a child process): the whole client
 * as the app builds it, `createClient` (HTTP client, SyncService with a
 * MemoryStore and the SyncProcessor, the Rooms model, the send queue and the
 * services) plus a `RoomListService` over its rooms, against the loopback
 * server. Per batch that is: validation of every event, de-duplication, the
 * accumulator snapshot (persisted to the MemoryStore), the emit, every
 * changed Room's state, members, name, unread counts, receipts, threads and
 * recent events, and the sorted room list moved or rebuilt.
 *
 * Initial = start() until the first network batch has gone through the room
 * model and the room list holds every room, sorted, each with its name,
 * unread counts and latest event (the first usable room list; checked, not
 * assumed); incremental = from then until the batch carrying the last token
 * has been applied to the rooms and the list. The heap is measured with the
 * client and the list alive.
 */
import type { Logger } from "@lattice/sdk/util/logger";
import { createClient } from "@lattice/sdk/client";
import { compareRecent } from "@lattice/sdk/models/room-list/filters";
import { RoomListService } from "@lattice/sdk/models/room-list/RoomListService";
import type { RoomSnapshot } from "@lattice/sdk/models/room/Room";
import { batchSourceOf } from "@lattice/sdk/models/room/Rooms";
import { MemoryStore } from "@lattice/sdk/store/MemoryStore";
import { heapAfterGc, readJob, report } from "../protocol";

const INCLUDES =
  "createClient (HTTP, SyncService + SyncProcessor, MemoryStore, Rooms model, send queue) + RoomListService: sorted room list with names, unread counts, latest events";

const logger: Logger = { info: () => undefined, warn: console.warn, error: console.error };
const job = readJob();
const baselineHeapBytes = await heapAfterGc();
const client = createClient({
  baseUrl: job.url,
  accessToken: "bench-token",
  userId: job.userId,
  deviceId: "BENCHDEVICE",
  store: new MemoryStore(),
  logger,
});
const roomList = new RoomListService(client.rooms);

/** Why the list is not usable yet, or undefined when every room is listed, sorted and summarised. */
function unusable(list: readonly RoomSnapshot[]): string | undefined {
  const known = client.rooms.all.getSnapshot().size;
  if (list.length !== known) return `${list.length} of ${known} rooms listed`;
  let previous: RoomSnapshot | undefined;
  for (const room of list) {
    if (room.name.name === "") return `${room.roomId} has no name`;
    if (room.category === "join" && room.latestEvent === undefined)
      return `${room.roomId} has no latest event`;
    if (!Number.isFinite(room.unread.notificationCount)) return `${room.roomId} has no unread count`;
    if (previous !== undefined && compareRecent(previous, room) > 0) return "the list is not sorted";
    previous = room;
  }
  return undefined;
}

let firstAt = 0;
let finishedAt = 0;
// Subscribed after createClient, so Rooms (and through it the room list) has applied each batch first.
const done = new Promise<void>((resolve, reject) => {
  batchSourceOf(client.sync.processor).subscribe((batch) => {
    if (batch.fromCache) return;
    if (firstAt === 0) {
      firstAt = performance.now();
      const why = unusable(roomList.items.getSnapshot());
      if (why !== undefined) reject(new Error(`first batch did not give a usable room list: ${why}`));
    }
    if (batch.nextBatch === job.finalToken) {
      finishedAt = performance.now();
      resolve();
    }
  });
});
const stopWatching = client.sync.state.subscribe((state) => {
  if (state === "error") console.error("Lattice sync error");
});

const started = performance.now();
await client.start();
await done;
const heapBytes = await heapAfterGc();
const rooms = roomList.items.getSnapshot().length;
stopWatching();
await client.dispose();
roomList.dispose();
report({
  initialMs: firstAt - started,
  incrementalMs: finishedAt - firstAt,
  heapBytes,
  baselineHeapBytes,
  rooms,
  includes: INCLUDES,
});
