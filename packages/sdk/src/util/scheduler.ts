/**
 * Time and randomness, injected into every layer that waits or jitters
 * (sync, models, send, crypto, voip, rtc, client), so every timer rule of
 * SPEC.md is tested with fake time. It lives in util/ because no single
 * layer owns it.
 */

/** The clock, sleep and random source a module runs on; tests pass a fake. */
export interface Scheduler {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1). */
  random(): number;
}

export const realScheduler: Scheduler = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(asError(signal.reason));
        return;
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(asError(signal?.reason));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/** A random duration in [minMs, maxMs). */
export function randomBetween(scheduler: Scheduler, minMs: number, maxMs: number): number {
  return minMs + Math.floor(scheduler.random() * (maxMs - minMs));
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error("Aborted", { cause: reason });
}
