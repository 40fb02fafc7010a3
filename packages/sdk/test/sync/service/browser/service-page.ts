/**
 * The page of the SyncService browser test: a real SyncService over the
 * test homeserver, real IndexedDB and the browser platform adapter (window
 * online/offline/pagehide, document visibility). The test drives it through
 * `globalThis.lattice`.
 */
import { createHttpClient } from "../../../../src/http/client";
import type { HttpApi, RequestOptions } from "../../../../src/http/types";
import { IndexedDbStore } from "../../../../src/store/indexeddb/IndexedDbStore";
import { browserPlatform } from "../../../../src/sync/platform";
import { SyncProcessor } from "../../../../src/sync/processor/SyncProcessor";
import { SyncService } from "../../../../src/sync/SyncService";

export interface PageConfig {
  baseUrl: string;
  accessToken: string;
  userId: string;
  dbName: string;
}

/** What the page saw when start() resolved. */
export interface StartReport {
  /** Rooms of the restored snapshot, each with its latest event id. */
  cachedRooms: Record<string, string | null>;
  liveBatchesAtStart: number;
  syncRequestsAnsweredAtStart: number;
}

/** The page's IndexedDB factory (the SDK compiles without DOM types). */
const idb = (): object => (globalThis as unknown as { indexedDB: object }).indexedDB;

let service: SyncService | undefined;
let processor: SyncProcessor | undefined;
const states: string[] = [];
const liveEvents: string[] = [];
const syncQueries: Array<Record<string, unknown>> = [];
let answered = 0;

async function start(config: PageConfig): Promise<StartReport> {
  const client = createHttpClient({ baseUrl: config.baseUrl, accessToken: config.accessToken });
  const http: HttpApi = {
    async request<T>(options: RequestOptions): Promise<T> {
      if (options.path === "/sync") syncQueries.push({ ...options.query });
      const result = await client.request<T>(options);
      if (options.path === "/sync") answered += 1;
      return result;
    },
  };
  const store = new IndexedDbStore({ indexedDB: idb(), dbName: config.dbName });
  const cachedRooms: Record<string, string | null> = {};
  let live = 0;
  service = new SyncService({
    http,
    store,
    userId: config.userId,
    pollTimeoutMs: 500,
    platform: browserPlatform(globalThis),
    logger: { info: () => undefined, warn: () => undefined, error: console.error },
    processor: (s) => {
      processor = new SyncProcessor({
        store: s,
        logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
      });
      processor.subscribe((batch) => {
        for (const [roomId, room] of batch.rooms.join) {
          if (batch.fromCache) cachedRooms[roomId] = room.timeline.events.at(-1)?.event_id ?? null;
          else liveEvents.push(...room.timeline.events.map((e) => e.event_id));
        }
        if (!batch.fromCache) live += 1;
      });
      return processor;
    },
  });
  service.state.subscribe((s) => states.push(String(s)));
  await service.start();
  return { cachedRooms, liveBatchesAtStart: live, syncRequestsAnsweredAtStart: answered };
}

/** The token a fresh IndexedDbStore on the same database reads (what a reload would see). */
async function persistedToken(dbName: string): Promise<string | null> {
  const store = new IndexedDbStore({ indexedDB: idb(), dbName });
  await store.open();
  const sync = await store.getSync();
  await store.close();
  return sync?.nextBatch ?? null;
}

const lattice = {
  start,
  stop: () => service?.stop(),
  states: () => [...states],
  liveEvents: () => [...liveEvents],
  syncQueries: () => [...syncQueries],
  processedToken: () => processor?.nextBatch ?? null,
  persistedToken,
};

(globalThis as unknown as { lattice: typeof lattice }).lattice = lattice;
export type PageApi = typeof lattice;
