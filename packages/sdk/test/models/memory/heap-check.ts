/**
 * The heap check behind memory.test.ts, run in a child process with
 * --expose-gc: syncs the bench/sync fixture's initial sync into Rooms, then
 * opens 100 rooms' timelines (each paginated back one page of 30 more
 * events) and closes them. Prints JSON: the heap after syncing, while the
 * timelines are held, and after they are closed (each after full GCs).
 */
import { generateFixture } from "../../../../../bench/sync/fixture";
import type { ClientEvent } from "../../../src/api/types/events";
import type { HttpApi, RequestOptions } from "../../../src/http/types";
import { Rooms } from "../../../src/models/room/Rooms";
import type { TimelineWindow } from "../../../src/models/timeline/TimelineWindow";
import { realScheduler } from "../../../src/sync/scheduler";
import { parseSyncResponse } from "../../../src/sync/validate/parseSync";

const ROOMS = Number(process.argv[2] ?? 1000);
const OPENED = Number(process.argv[3] ?? 100);

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error("run with --expose-gc");
  for (let i = 0; i < 4; i++) collect();
}

function heap(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

/** Older history for any room: 30 events a page, ending after 3 pages. */
const http: HttpApi = {
  request<T>(options: RequestOptions): Promise<T> {
    const roomId = decodeURIComponent(options.path.split("/")[2] ?? "");
    const page = Number(/^old(\d+)$/.exec(String(options.query?.["from"] ?? ""))?.[1] ?? 0);
    const chunk: ClientEvent[] = Array.from({ length: 30 }, (_, i) => ({
      event_id: `$old-${roomId}-${page}-${i}`,
      room_id: roomId,
      type: "m.room.message",
      sender: "@someone:bench",
      origin_server_ts: 1_000_000 - page * 100 - i,
      content: { msgtype: "m.text", body: `older message ${page}.${i} `.repeat(8) },
    }));
    return Promise.resolve({
      start: `old${page}`,
      chunk,
      ...(page < 3 ? { end: `old${page + 1}` } : {}),
    } as T);
  },
};

async function main(): Promise<void> {
  const fixture = generateFixture({ rooms: ROOMS, batches: 0 });
  const parsed = parseSyncResponse(fixture.initial, { logger: { warn: () => undefined } });
  const rooms = new Rooms({ userId: fixture.meta.userId, http, scheduler: realScheduler });
  rooms.handle({ ...parsed, fromCache: false, catchingUp: false });
  const ids = [...rooms.all.getSnapshot().keys()].filter(
    (id) => rooms.get(id).getSnapshot().category === "join",
  );
  const picked = ids.slice(0, OPENED);

  // Warm up once so lazily built code and caches do not count as a leak.
  const warm = rooms.get(picked[0] ?? "").openTimeline();
  await warm.load();
  warm.close();

  const before = heap();
  const windows: TimelineWindow[] = [];
  for (const id of picked) {
    const w = rooms.get(id).openTimeline();
    await w.load();
    await w.paginate("b", 30);
    windows.push(w);
  }
  const held = heap();
  const heldEvents = windows.reduce((n, w) => n + w.size, 0);
  for (const w of windows.splice(0)) w.close();
  const materialised = picked.filter((id) => rooms.get(id).timelineMaterialised).length;
  const after = heap();
  process.stdout.write(
    JSON.stringify({
      rooms: rooms.all.getSnapshot().size,
      opened: picked.length,
      before,
      held,
      after,
      heldEvents,
      materialised,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
