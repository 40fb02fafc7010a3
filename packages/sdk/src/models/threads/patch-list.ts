/**
 * Brings an ObservableList to a new sequence with real diffs instead of a
 * reset: items whose key is gone are removed, new keys are inserted, moved
 * keys are removed and inserted at their new place, and an item whose key
 * stayed but whose value is a different object is updated. All in one
 * batch, so subscribers hear one notification. Values are compared by
 * reference: callers keep unchanged items as the same objects.
 */
import type { ObservableList } from "../../util/observable-list";

/** Patches `list` to equal `next`, keyed by `keyOf` (keys unique within `next`). */
export function patchList<T>(list: ObservableList<T>, next: readonly T[], keyOf: (item: T) => string): void {
  const nextKeys = new Set(next.map(keyOf));
  list.batch(() => {
    for (let i = list.length - 1; i >= 0; i--) {
      const item = list.at(i) as T;
      if (!nextKeys.has(keyOf(item))) list.remove(i);
    }
    for (let i = 0; i < next.length; i++) {
      const want = next[i] as T;
      const key = keyOf(want);
      const here = list.at(i);
      if (here !== undefined && keyOf(here) === key) {
        if (here !== want) list.update(i, want);
        continue;
      }
      // Moved from further down, or new.
      let from = -1;
      for (let j = i + 1; j < list.length; j++) {
        if (keyOf(list.at(j) as T) === key) {
          from = j;
          break;
        }
      }
      if (from >= 0) list.remove(from);
      list.insert(i, want);
    }
    while (list.length > next.length) list.remove(list.length - 1);
  });
}
