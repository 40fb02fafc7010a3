/**
 * Timers owned by one call or group call, over the injected Scheduler (fake
 * time in tests). Each timer is cancelled by its owner's `clear()`, so an
 * ended call leaves no pending sleep behind (a test checks it).
 */
import type { Scheduler } from "../util/scheduler";
import { randomString } from "../util/random";

/** A cancel function. */
export type Cancel = () => void;

export class OwnedTimers {
  private readonly live = new Set<AbortController>();

  constructor(private readonly scheduler: Scheduler) {}

  /** Runs `fn` once after `ms`, unless cancelled first. */
  after(ms: number, fn: () => void): Cancel {
    const controller = new AbortController();
    this.live.add(controller);
    this.scheduler.sleep(ms, controller.signal).then(
      () => {
        if (!this.live.delete(controller)) return;
        fn();
      },
      () => undefined,
    );
    return () => {
      if (this.live.delete(controller)) controller.abort();
    };
  }

  /** Runs `fn` every `ms` until cancelled. */
  every(ms: number, fn: () => void): Cancel {
    let cancelNext: Cancel = () => undefined;
    let stopped = false;
    const arm = (): void => {
      cancelNext = this.after(ms, () => {
        if (stopped) return;
        arm();
        fn();
      });
    };
    arm();
    return () => {
      stopped = true;
      cancelNext();
    };
  }

  /** Cancels every timer. */
  clear(): void {
    for (const controller of this.live) controller.abort();
    this.live.clear();
  }

  get size(): number {
    return this.live.size;
  }
}

/** A simple typed emitter for one-shot events (GUIDE rule 4). */
export class Emitter<E extends Record<string, unknown>> {
  private readonly listeners = new Map<keyof E, Set<(value: never) => void>>();

  on<K extends keyof E>(name: K, listener: (value: E[K]) => void): Cancel {
    const set = this.listeners.get(name) ?? new Set();
    set.add(listener);
    this.listeners.set(name, set);
    return () => {
      set.delete(listener);
    };
  }

  emit<K extends keyof E>(name: K, value: E[K]): void {
    for (const listener of [...(this.listeners.get(name) ?? [])]) {
      try {
        (listener as (v: E[K]) => void)(value);
      } catch (error) {
        console.error("voip listener failed", error);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}

/** A call id: a timestamp plus 16 random characters (SPEC §9). */
export function newCallId(scheduler: Scheduler): string {
  return `${scheduler.now()}${randomString(16, () => scheduler.random())}`;
}
