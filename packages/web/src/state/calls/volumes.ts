/**
 * Per-participant playback volume of a call's remote audio (0 to 1, 1
 * unless the user turned someone down), kept for the page's life and keyed
 * by user id in a Map (so an id like `__proto__` is only data). A tile that
 * is re-created (a layout change, the picture-in-picture bar, a re-join)
 * plays its member at the volume the user chose.
 */
import type { Subscribable } from "../useObservable";

const volumes = new Map<string, number>();
const listeners = new Set<() => void>();

/** The volume `userId` plays at. */
export function volumeOf(userId: string): number {
  return volumes.get(userId) ?? 1;
}

/** Sets `userId`'s volume (clamped to 0..1; not a number leaves it as it was). */
export function setVolume(userId: string, volume: number): void {
  if (!Number.isFinite(volume)) return;
  volumes.set(userId, Math.min(1, Math.max(0, volume)));
  for (const listener of [...listeners]) listener();
}

/** `userId`'s volume as an observable, for a tile's slider and its media elements. */
export function volumeObservable(userId: string): Subscribable<number> {
  return {
    getSnapshot: () => volumeOf(userId),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
