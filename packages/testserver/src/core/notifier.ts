/**
 * The server-wide stream position and the long-poll wake-up. Every change a
 * sync may report (event, receipt, typing, account data, to-device, presence,
 * device list) advances the position; waiting /sync and /events requests are
 * woken at once and check whether the change concerns them.
 */

export class StreamNotifier {
  private pos = 0;
  private waiters = new Set<() => void>();

  /** The current stream position. */
  get position(): number {
    return this.pos;
  }

  /** Advances the stream and wakes every waiter. Returns the new position. */
  advance(): number {
    this.pos += 1;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
    return this.pos;
  }

  /**
   * Resolves on the next advance, when `timeoutMs` passes, or when the signal
   * aborts, whichever comes first. Returns true when woken by an advance.
   */
  waitForChange(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (timeoutMs <= 0 || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (woken: boolean): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        signal?.removeEventListener("abort", onAbort);
        resolve(woken);
      };
      const wake = (): void => done(true);
      const onAbort = (): void => done(false);
      const timer = setTimeout(() => done(false), timeoutMs);
      timer.unref();
      this.waiters.add(wake);
      signal?.addEventListener("abort", onAbort);
    });
  }
}
