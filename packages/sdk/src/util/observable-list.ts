/**
 * Observable lists: an immutable snapshot plus the diffs that produced it
 * (insert, remove, update, reset: the VectorDiff idea), so a UI can either
 * re-read the snapshot (useSyncExternalStore) or patch its own copy.
 * Every mutation makes a new snapshot array; old snapshots are never changed.
 */

/** One change to a list. Indices refer to the list as it was when the diff applies. */
export type ListDiff<T> =
  | { readonly type: "insert"; readonly index: number; readonly value: T }
  | { readonly type: "remove"; readonly index: number }
  | { readonly type: "update"; readonly index: number; readonly value: T }
  | { readonly type: "reset"; readonly values: readonly T[] };

/** A read-only observable list. */
export interface ReadonlyObservableList<T> {
  /** The current items, never mutated afterwards. */
  getSnapshot(): readonly T[];
  /** Calls `listener` after every change with the diffs applied in order; returns the unsubscribe. */
  subscribe(listener: (snapshot: readonly T[], diffs: readonly ListDiff<T>[]) => void): () => void;
}

/** Applies diffs to a copy of `list` (what a subscriber that keeps its own copy does). */
export function applyDiffs<T>(list: readonly T[], diffs: readonly ListDiff<T>[]): T[] {
  let out = [...list];
  for (const d of diffs) {
    if (d.type === "insert") out.splice(d.index, 0, d.value);
    else if (d.type === "remove") out.splice(d.index, 1);
    else if (d.type === "update") out[d.index] = d.value;
    else out = [...d.values];
  }
  return out;
}

/**
 * A mutable observable list. Changes made inside `batch()` reach subscribers
 * as one notification with all their diffs.
 */
export class ObservableList<T> implements ReadonlyObservableList<T> {
  private items: T[];
  private snapshot: readonly T[];
  private pending: ListDiff<T>[] = [];
  private depth = 0;
  private readonly listeners = new Set<(snapshot: readonly T[], diffs: readonly ListDiff<T>[]) => void>();

  constructor(initial: readonly T[] = []) {
    this.items = [...initial];
    this.snapshot = Object.freeze([...initial]);
  }

  getSnapshot = (): readonly T[] => this.snapshot;

  subscribe = (listener: (snapshot: readonly T[], diffs: readonly ListDiff<T>[]) => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  get length(): number {
    return this.items.length;
  }

  /** The item at `index` in the working copy (also inside a batch). */
  at(index: number): T | undefined {
    return this.items[index];
  }

  insert(index: number, value: T): void {
    if (index < 0 || index > this.items.length) throw new RangeError(`insert index ${index} out of range`);
    this.items.splice(index, 0, value);
    this.push({ type: "insert", index, value });
  }

  append(value: T): void {
    this.insert(this.items.length, value);
  }

  remove(index: number): T {
    if (index < 0 || index >= this.items.length) throw new RangeError(`remove index ${index} out of range`);
    const [removed] = this.items.splice(index, 1);
    this.push({ type: "remove", index });
    return removed as T;
  }

  update(index: number, value: T): void {
    if (index < 0 || index >= this.items.length) throw new RangeError(`update index ${index} out of range`);
    this.items[index] = value;
    this.push({ type: "update", index, value });
  }

  reset(values: readonly T[]): void {
    this.items = [...values];
    this.pending = [];
    this.push({ type: "reset", values: Object.freeze([...values]) });
  }

  /** Runs `fn` and notifies once for all the changes it made. */
  batch<R>(fn: () => R): R {
    this.depth++;
    try {
      return fn();
    } finally {
      this.depth--;
      if (this.depth === 0) this.flush();
    }
  }

  private push(diff: ListDiff<T>): void {
    this.pending.push(diff);
    if (this.depth === 0) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const diffs = this.pending;
    this.pending = [];
    this.snapshot = Object.freeze([...this.items]);
    for (const listener of [...this.listeners]) {
      try {
        listener(this.snapshot, diffs);
      } catch (error) {
        // A faulty subscriber must not break the producer or the other subscribers.
        console.error("Observable list subscriber failed", error);
      }
    }
  }
}
