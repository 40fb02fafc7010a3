/**
 * Time for the test homeserver. Everything that depends on time (token
 * expiry, typing time-outs, delayed events, TURN credentials) reads this
 * clock, so tests can pass a controllable one.
 */

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The wall clock. Timers are unref'd so a forgotten server never keeps Node alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * A clock tests move by hand. Timers fire in order when `advance` passes
 * their due time.
 */
export class ManualClock implements Clock {
  private timers = new Map<number, { due: number; fn: () => void }>();
  private nextId = 1;
  constructor(private current = 1_700_000_000_000) {}

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { due: this.current + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === "number") this.timers.delete(handle);
  }

  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      let nextId: number | undefined;
      let next: { due: number; fn: () => void } | undefined;
      for (const [id, t] of this.timers) {
        if (t.due <= target && (!next || t.due < next.due)) {
          next = t;
          nextId = id;
        }
      }
      if (!next || nextId === undefined) break;
      this.timers.delete(nextId);
      this.current = next.due;
      next.fn();
    }
    this.current = target;
  }
}
