/**
 * What the runner and the bench child processes say to each other: the
 * child reads its job from the BENCH_JOB environment variable and sends one
 * result over the IPC channel, then exits. Also the heap measurement both
 * sides share, so they are measured the same way.
 */

/** The job of one child: sync against `url` until `finalToken` has been processed. */
export interface ChildJob {
  url: string;
  userId: string;
  finalToken: string;
}

/** One child's measurements. */
export interface ChildResult {
  /** ms from start to the first usable room list. */
  initialMs: number;
  /** ms from the first usable room list until the last incremental batch was processed. */
  incrementalMs: number;
  /** heapUsed after full GCs, with the client alive and holding everything it synced. */
  heapBytes: number;
  /** heapUsed after full GCs once the client library was loaded, before it started. */
  baselineHeapBytes: number;
  /** Rooms the client knows (joined + invited), a check that it processed the fixture. */
  rooms: number;
  /** What the figure covers, for the report. */
  includes: string;
  /** Syncs that failed and were retried by the client itself (a loaded machine). */
  syncErrors?: number;
}

/** Reads the job the runner passed in the environment. */
export function readJob(): ChildJob {
  const raw = process.env.BENCH_JOB;
  if (raw === undefined) throw new Error("BENCH_JOB is not set: start this through bench/sync/run.ts");
  return JSON.parse(raw) as ChildJob;
}

/** Sends the result to the runner and ends the process (open sockets must not keep it alive). */
export function report(result: ChildResult): void {
  if (!process.send) throw new Error("No IPC channel: start this through bench/sync/run.ts");
  process.send(result, () => process.exit(0));
}

/** heapUsed after repeated full collections (the process runs with --expose-gc). */
export async function heapAfterGc(): Promise<number> {
  const gc = globalThis.gc;
  if (!gc) throw new Error("Run with node --expose-gc");
  for (let i = 0; i < 4; i++) {
    gc();
    // Let finalizers and pending microtasks run between passes.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}
