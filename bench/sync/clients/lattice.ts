/**
 * The Lattice side of the sync benchmark (a child process): the SDK's
 * SyncService with a MemoryStore and the SyncProcessor, over the real HTTP
 * client, against the loopback server. That is the whole sync engine up to
 * the model layer: /versions (state-after detection), filter creation,
 * capabilities, /sync, validation of every event, de-duplication, the
 * accumulator snapshot (persisted to the MemoryStore, forced for the first
 * batch) and the emit of the typed batch.
 *
 * Initial = start() until the processor emits its first network batch (the
 * room list the model layer builds from); incremental = from then until the
 * batch carrying the last token has been emitted.
 */
import { createHttpClient } from "../../../packages/sdk/src/http";
import { MemoryStore } from "../../../packages/sdk/src/store/MemoryStore";
import { SyncProcessor } from "../../../packages/sdk/src/sync/processor/SyncProcessor";
import { SyncService } from "../../../packages/sdk/src/sync/SyncService";
import type { SyncLogger } from "../../../packages/sdk/src/sync/SyncLoop";
import { heapAfterGc, readJob, report } from "../protocol";

const INCLUDES =
  "SyncService + SyncProcessor (validate, dedupe, accumulate, persist to MemoryStore, emit) + HTTP client; no room models yet";

const logger: SyncLogger = { info: () => undefined, warn: console.warn, error: console.error };
const job = readJob();
const baselineHeapBytes = await heapAfterGc();
const http = createHttpClient({ baseUrl: job.url, accessToken: "bench-token" });
let processor: SyncProcessor | undefined;
const service = new SyncService({
  http,
  store: new MemoryStore(),
  userId: job.userId,
  logger,
  processor: (store) => (processor = new SyncProcessor({ store, logger })),
});
if (!processor) throw new Error("SyncService did not build the processor");
const sync: SyncProcessor = processor;

let firstAt = 0;
let finishedAt = 0;
const done = new Promise<void>((resolve) => {
  sync.subscribe((batch) => {
    if (batch.fromCache) return;
    if (firstAt === 0) firstAt = performance.now();
    if (batch.nextBatch === job.finalToken) {
      finishedAt = performance.now();
      resolve();
    }
  });
});
const stopWatching = service.state.subscribe((state) => {
  if (state === "error") console.error("Lattice sync error");
});

const started = performance.now();
await service.start();
await done;
const heapBytes = await heapAfterGc();
const rooms = sync.accumulator.roomCount;
stopWatching();
await service.stop();
report({
  initialMs: firstAt - started,
  incrementalMs: finishedAt - firstAt,
  heapBytes,
  baselineHeapBytes,
  rooms,
  includes: INCLUDES,
});
