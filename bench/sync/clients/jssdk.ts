/**
 * The matrix-js-sdk side of the sync benchmark (a child process): a client
 * with MemoryStore, no crypto, lazy-loaded members and thread support on,
 * as Element runs it (js-sdk then fetches thread roots and their relations
 * over HTTP, at most 6 at a time through the preload's connection cap),
 * against the loopback server. Initial = startClient() until the sync state
 * is PREPARED (its first usable room list); incremental = from then until
 * the sync that returned the last token has been processed.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { ClientEvent, MemoryStore, SyncState, createClient } from "matrix-js-sdk";
import type { SyncStateData } from "matrix-js-sdk";
import { logger } from "matrix-js-sdk/lib/logger.js";
import { heapAfterGc, readJob, report } from "../protocol";

// Its per-sync info logging would cost it console time the real app does not pay the same way.
(logger as unknown as { setLevel?: (level: string) => void }).setLevel?.("warn");

// A browser logs an unhandled rejection and carries on; Node would end the process, so do as the browser does.
let unhandled = 0;
process.on("unhandledRejection", (reason) => {
  unhandled += 1;
  if (unhandled <= 3) console.error("js-sdk unhandled rejection:", reason);
});

// Why fetches fail, when they do: js-sdk reports only "fetch failed" and drops undici's cause.
const FETCH_ERRORS = fileURLToPath(new URL("../../results/jssdk-fetch-errors.log", import.meta.url));
mkdirSync(dirname(FETCH_ERRORS), { recursive: true });
let failedFetches = 0;
const realFetch = globalThis.fetch;
globalThis.fetch = async (...args: Parameters<typeof fetch>): Promise<Response> => {
  try {
    return await realFetch(...args);
  } catch (error) {
    failedFetches += 1;
    // Into a file: the child's output is mostly js-sdk's own logging, and the runner keeps only part of it.
    if (failedFetches <= 3) {
      const cause = (error as Error).cause ?? error;
      appendFileSync(FETCH_ERRORS, `${new Date().toISOString()} ${inspect(args[0])}: ${inspect(cause)}\n`);
    }
    throw error;
  }
};

const job = readJob();
const baselineHeapBytes = await heapAfterGc();
const client = createClient({
  baseUrl: job.url,
  userId: job.userId,
  deviceId: "BENCHDEVICE",
  accessToken: "bench-token",
  store: new MemoryStore(),
});

/** Failed syncs tolerated before the run counts as failed (js-sdk retries with a growing delay). */
const MAX_SYNC_ERRORS = 20;
let syncErrors = 0;
let preparedAt = 0;
const started = performance.now();
const done = new Promise<number>((resolve, reject) => {
  client.on(ClientEvent.Sync, (state: SyncState, _prev: SyncState | null, data?: SyncStateData) => {
    if (state === SyncState.Prepared && preparedAt === 0) preparedAt = performance.now();
    // A failed sync is not the end: js-sdk polls /versions and retries by itself, as it does in a
    // browser. At 3,000 rooms on a loaded machine its /sync can time out (its own 30 s + 80 s local
    // time-out) while its thread fetches hold the 6 connections and its event loop; counted, and
    // the runner's child time-out still ends a client that never recovers.
    if (state === SyncState.Error) {
      syncErrors += 1;
      console.error(`js-sdk sync error ${syncErrors}: ${String(data?.error)}`);
      if (syncErrors > MAX_SYNC_ERRORS) reject(new Error(`js-sdk gave up after ${syncErrors} sync errors`));
    }
    if (data?.nextSyncToken === job.finalToken) resolve(performance.now());
  });
});
await client.startClient({
  initialSyncLimit: 30,
  lazyLoadMembers: true,
  threadSupport: true,
  pollTimeout: 30_000,
});
const finishedAt = await done;
const heapBytes = await heapAfterGc();
const rooms = client.getRooms().length;
client.stopClient();
report({
  initialMs: preparedAt - started,
  incrementalMs: finishedAt - preparedAt,
  heapBytes,
  baselineHeapBytes,
  rooms,
  includes:
    "matrix-js-sdk startClient: versions, push rules, filter, capabilities, /sync, room models (MemoryStore)",
  syncErrors,
});
