/**
 * React's view of the SDK's observables: useSyncExternalStore over anything
 * with subscribe/getSnapshot (ReadonlyObservable values and
 * ReadonlyObservableList snapshots alike), so a component re-renders when,
 * and only when, the value it reads changed.
 */
import { useCallback, useSyncExternalStore } from "react";

/** The subscribe/getSnapshot pair both observable values and lists have. */
export interface Subscribable<T> {
  getSnapshot(): T;
  subscribe(listener: () => void): () => void;
}

/** The current value of an observable, re-rendering on change. */
export function useObservable<T>(observable: Subscribable<T>): T {
  // Bound here: not every implementation (Room, for one) uses arrow-function members.
  const subscribe = useCallback((listener: () => void) => observable.subscribe(listener), [observable]);
  const getSnapshot = useCallback(() => observable.getSnapshot(), [observable]);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
