/**
 * A minimal typed emitter for one-shot notifications (GUIDE rule 4). It has
 * no dependency on Node's `events`, so the package runs unchanged in browsers.
 */

/** Maps event names to their listener argument. */
export type EventMap = Record<string, unknown>;

/** A typed event emitter; `on` returns the function that removes the listener. */
export class Emitter<E extends EventMap> {
  private readonly listeners = new Map<keyof E, Set<(value: never) => void>>();

  /** Subscribes; the returned function unsubscribes. */
  public on<K extends keyof E>(name: K, listener: (value: E[K]) => void): () => void {
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(listener);
    return () => this.off(name, listener);
  }

  /** Removes a listener added with `on`. */
  public off<K extends keyof E>(name: K, listener: (value: E[K]) => void): void {
    this.listeners.get(name)?.delete(listener);
  }

  /** Calls every listener; a throwing listener does not stop the others. */
  protected emit<K extends keyof E>(name: K, value: E[K]): void {
    const set = this.listeners.get(name);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as (value: E[K]) => void)(value);
      } catch (e) {
        console.error("widget api listener failed", e);
      }
    }
  }
}
