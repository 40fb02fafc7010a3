/**
 * Observable values: a current value plus subscribers, shaped for React's
 * useSyncExternalStore (subscribe / getSnapshot). Every subscription returns
 * its own unsubscribe, so its owner can end it.
 */

export interface ReadonlyObservable<T> {
  /** The current value. */
  getSnapshot(): T;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: (value: T) => void): () => void;
}

export class ObservableValue<T> implements ReadonlyObservable<T> {
  private listeners = new Set<(value: T) => void>();

  constructor(private value: T) {}

  getSnapshot = (): T => this.value;

  subscribe = (listener: (value: T) => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Sets the value and notifies subscribers when it changed (Object.is). */
  set(value: T): void {
    if (Object.is(value, this.value)) return;
    this.value = value;
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        // A faulty subscriber must not break the producer or the other subscribers.
        console.error("Observable subscriber failed", error);
      }
    }
  }

  /** A read-only view. */
  readonly(): ReadonlyObservable<T> {
    return this;
  }
}
