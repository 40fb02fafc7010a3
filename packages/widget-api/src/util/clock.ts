/**
 * Injected time. Every timer of the widget API (10 s request time-out, 10 s
 * content-loaded wait) goes through a Clock so tests drive it with fake time.
 */

/** Opaque timer handle. */
type TimerHandle = unknown;

/** The timer functions the widget API needs. */
export interface Clock {
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/**
 * The real clock. Timers are unref'd under Node so a pending widget request
 * never keeps a process alive.
 */
export const systemClock: Clock = {
  setTimeout(fn, ms) {
    const handle: unknown = globalThis.setTimeout(fn, ms);
    if (
      typeof handle === "object" &&
      handle !== null &&
      "unref" in handle &&
      typeof handle.unref === "function"
    ) {
      (handle as { unref: () => void }).unref();
    }
    return handle;
  },
  clearTimeout(handle) {
    globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>);
  },
};

/** Where the widget API writes diagnostics (injected so tests can assert on them). */
export interface Logger {
  error(...args: unknown[]): void;
  warn(...args: unknown[]): void;
}

/** Default logger: the console. */
export const consoleLogger: Logger = {
  error: (...args) => console.error(...args),
  warn: (...args) => console.warn(...args),
};
