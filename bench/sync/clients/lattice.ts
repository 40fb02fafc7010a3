/**
 * The Lattice side of the sync benchmark (a child process). It runs the
 * SDK's SyncLoop over the real HTTP client against the loopback server.
 * Initial = start until the loop is "prepared" (the first batch handled);
 * incremental = from then until the batch carrying the last token has been
 * handled. `INCLUDES` says what the handler does, so the report can say
 * exactly what the Lattice figure covers.
 */
import { sync } from "../../../packages/sdk/src/api/sync";
import { getVersions } from "../../../packages/sdk/src/api/versions";
import { createHttpClient } from "../../../packages/sdk/src/http";
import { SyncLoop } from "../../../packages/sdk/src/sync/SyncLoop";
import type { SyncBatchHandler, SyncTransport } from "../../../packages/sdk/src/sync/SyncLoop";
import { heapAfterGc, readJob, report } from "../protocol";

const INCLUDES = "SyncLoop + HTTP client (fetch, JSON parse) + room-id index; no sync processor yet";

const job = readJob();
const baselineHeapBytes = await heapAfterGc();
const http = createHttpClient({ baseUrl: job.url, accessToken: "bench-token", retry: false });
const transport: SyncTransport = {
  sync: (request) =>
    sync(http, {
      ...(request.since !== undefined ? { since: request.since } : {}),
      timeout: request.timeout,
      requestTimeoutMs: request.requestTimeoutMs,
      signal: request.signal,
    }),
  probe: async (timeoutMs, signal) => {
    await getVersions(http, { timeoutMs, signal });
  },
};

// Until the sync processor lands, the handler only indexes room ids (the minimum for a room list).
const roomIds = new Set<string>();
let finishedAt = 0;
let resolveDone: () => void = () => undefined;
const done = new Promise<void>((resolve) => (resolveDone = resolve));
const handler: SyncBatchHandler = (response) => {
  for (const id of Object.keys(response.rooms?.join ?? {})) roomIds.add(id);
  for (const id of Object.keys(response.rooms?.invite ?? {})) roomIds.add(id);
  for (const id of Object.keys(response.rooms?.leave ?? {})) roomIds.delete(id);
  if (response.next_batch === job.finalToken) {
    finishedAt = performance.now();
    resolveDone();
  }
  return Promise.resolve();
};

const loop = new SyncLoop({
  transport,
  handler,
  logger: { info: () => {}, warn: console.warn, error: console.error },
});
let preparedAt = 0;
const unsubscribe = loop.state.subscribe((state) => {
  if (state === "prepared") preparedAt = performance.now();
  if (state === "error") console.error("Lattice sync error");
});
const started = performance.now();
loop.start();
await done;
const heapBytes = await heapAfterGc();
unsubscribe();
await loop.stop();
report({
  initialMs: preparedAt - started,
  incrementalMs: finishedAt - preparedAt,
  heapBytes,
  baselineHeapBytes,
  rooms: roomIds.size,
  includes: INCLUDES,
});
