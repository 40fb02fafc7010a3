/**
 * A Scheduler on fake time for tests: sleeps resolve only when `advance`
 * moves the clock past them; randomness is a fixed sequence.
 */
import type { Scheduler } from "../../src/util/scheduler";

export class FakeScheduler implements Scheduler {
  private time = 1_700_000_000_000;
  private timers: Array<{
    due: number;
    resolve: () => void;
    reject: (e: Error) => void;
    signal?: AbortSignal;
  }> = [];
  constructor(private randoms: number[] = [0]) {}

  now(): number {
    return this.time;
  }

  random(): number {
    return this.randoms.length > 1 ? (this.randoms.shift() as number) : (this.randoms[0] ?? 0);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(new Error("aborted"));
        return;
      }
      const timer = { due: this.time + ms, resolve, reject, signal };
      this.timers.push(timer);
      signal?.addEventListener(
        "abort",
        () => {
          this.timers = this.timers.filter((t) => t !== timer);
          reject(new Error("aborted"));
        },
        { once: true },
      );
    });
  }

  /** Pending sleeps' remaining durations, soonest first. */
  pending(): number[] {
    return this.timers.map((t) => t.due - this.time).sort((a, b) => a - b);
  }

  /** Moves time forward, resolving due sleeps and letting promise chains run. */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      await flush();
      const due = this.timers.filter((t) => t.due <= target).sort((a, b) => a.due - b.due)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.due;
      due.resolve();
    }
    this.time = target;
    await flush();
  }
}

/** Lets pending promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
