/**
 * Small helpers over the SDK's observable values for view models: a value
 * that can be set from the outside, and a value derived from another one
 * whose subscription is owned by a Scope.
 */
import { ObservableValue } from "../sdk";
import type { ReadonlyObservable } from "../sdk";
import type { Scope } from "./Scope";

/** A value derived from `source` by `map`, kept current while `scope` lives. */
export function derived<S, T>(
  scope: Scope,
  source: ReadonlyObservable<S>,
  map: (value: S) => T,
): ReadonlyObservable<T> {
  const out = new ObservableValue<T>(map(source.getSnapshot()));
  scope.subscribe(source, (value: S) => out.set(map(value)));
  return out;
}

export { ObservableValue };
